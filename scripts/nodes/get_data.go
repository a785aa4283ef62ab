package nodes

import (
	"context"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/scripts"
)

// get_data is the studio's Get Data node: an http(s) URL is fetched with GET (as the api node
// does: JSON answers become data), anything else is a local file read as add_data reads it.
type getData struct {
	source string
	output string
	http   *api
	file   *addData
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "get_data",
		Aliases:  []string{"Get Data"},
		Summary:  "Fetch a URL (GET) or read a local file into a variable; JSON becomes data.",
		Category: "data",
		Timeout:  30 * time.Second,
		Params: []scripts.Param{
			{Name: "url_or_file_path", Type: scripts.String, Required: true, Template: true,
				Description: "an http(s) URL to GET, or a file path (relative paths are in the run's working folder; files are read like add_data reads them)",
				Example:     "https://api.example.com/v1/prices"},
			headersParamSpec(),
			{Name: "data", Type: scripts.String, Default: "data",
				Description: "the variable that receives the data", Example: "prices"},
			maxBytesParam(defaultMaxResponse, maxMaxResponse),
		},
		Examples: []map[string]any{
			{"type": "get_data", "url_or_file_path": "https://api.example.com/v1/prices", "headers": map[string]any{"Authorization": "Bearer {{token}}"}, "data": "prices"},
			{"type": "get_data", "url_or_file_path": "exports/orders.json", "data": "orders"},
		},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			src, err := p.String("url_or_file_path")
			if err != nil {
				return nil, err
			}
			out, err := varParam(p, "data")
			if err != nil {
				return nil, err
			}
			if out == "" {
				return nil, errInvalid("parameter data: the variable name is empty")
			}
			n := &getData{source: strings.TrimSpace(src), output: out}
			limit, err := p.Number("max_bytes")
			if err != nil {
				return nil, err
			}
			if isHTTPURL(n.source) {
				headers, err := headerParam(p, "headers")
				if err != nil {
					return nil, err
				}
				if _, err := checkURL(n.source); err != nil {
					return nil, err
				}
				n.http = &api{req: httpRequest{method: "GET", url: n.source, headers: headers}, output: out, limit: int64(limit)}
				return n, nil
			}
			n.file = &addData{target: out, path: n.source, opt: fileOptions{limit: int64(limit)}}
			return n, nil
		},
	})
}

func isHTTPURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

func (n *getData) Run(ctx context.Context, env *scripts.Env) error {
	if n.http != nil {
		env.SetDetail("source", "url")
		return n.http.Run(ctx, env)
	}
	env.SetDetail("source", "file")
	return n.file.Run(ctx, env)
}

func (n *getData) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	if n.http != nil {
		return n.http.Verify(ctx, env)
	}
	return n.file.Verify(ctx, env)
}

var _ scripts.Verifier = (*getData)(nil)
