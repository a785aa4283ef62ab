package nodes

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// maxPairs is how many Body Key N / Body Value N pairs the studio's Send Data node offers.
const maxPairs = 20

// send_data is the studio's Send Data node: a body made of key/value pairs sent to a URL. It is
// the api node's call (same limits, verification and errors) with the studio's parameters; GET
// and DELETE send the pairs as the query string.
func init() {
	params := []scripts.Param{
		{Name: "URL", Type: scripts.String, Required: true, Template: true,
			Description: "the endpoint (http or https)", Example: "https://hooks.example.com/orders"},
		{Name: "request", Type: scripts.String, Default: "POST", Enum: httpMethods,
			Description: "the HTTP method (the studio's Request)", Example: "POST"},
		{Name: "pairs", Type: scripts.Object, Template: true,
			Description: "the body as an object, instead of or besides the numbered pairs", Example: map[string]any{"status": "done"}},
		headersParamSpec(),
		{Name: "output", Type: scripts.String,
			Description: "a variable that receives the answer (JSON as data, other text as a string)", Example: "reply"},
		maxBytesParam(defaultMaxResponse, maxMaxResponse),
	}
	for i := 1; i <= maxPairs; i++ {
		params = append(params,
			scripts.Param{Name: fmt.Sprintf("body_key_%d", i), Type: scripts.String, Template: true,
				Description: fmt.Sprintf("name of body field %d", i), Example: "name"},
			scripts.Param{Name: fmt.Sprintf("body_value_%d", i), Type: scripts.Any, Template: true,
				Description: fmt.Sprintf("value of body field %d; {{name}} placeholders expand", i), Example: "{{name}}"})
	}
	scripts.Register(scripts.Spec{
		Kind:     "send_data",
		Aliases:  []string{"Send Data"},
		Summary:  "Send key/value pairs to a URL (the studio's Send Data): a JSON body, or the query string for GET.",
		Category: "data",
		Timeout:  30 * time.Second,
		Params:   params,
		Examples: []map[string]any{{"type": "send_data", "URL": "https://hooks.example.com/orders", "request": "POST",
			"body_key_1": "name", "body_value_1": "{{name}}", "body_key_2": "total", "body_value_2": "{{total}}"}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			rawURL, err := p.String("URL")
			if err != nil {
				return nil, err
			}
			method, err := p.String("request")
			if err != nil {
				return nil, err
			}
			headers, err := headerParam(p, "headers")
			if err != nil {
				return nil, err
			}
			body, err := sendPairs(p)
			if err != nil {
				return nil, err
			}
			n := &api{req: httpRequest{url: rawURL, method: strings.ToUpper(strings.TrimSpace(method)), headers: headers}}
			if err := n.common(p, "output"); err != nil {
				return nil, err
			}
			if n.req.method == "GET" || n.req.method == "DELETE" || n.req.method == "HEAD" {
				if len(body) > 0 {
					u, _ := url.Parse(n.req.url)
					q := u.Query()
					for k, v := range body {
						q.Set(k, scripts.Text(v))
					}
					u.RawQuery = q.Encode()
					n.req.url = u.String()
				}
				return n, nil
			}
			b, ct, err := encodeBody(body)
			if err != nil {
				return nil, err
			}
			n.req.body, n.req.contentType = b, ct
			return n, nil
		},
		Validate: func(p *scripts.Params) error {
			if s, ok := rawString(p, "URL"); ok {
				if _, err := checkURL(s); err != nil {
					return paramProblem("URL", "%q is not an http or https URL", s)
				}
			}
			for i := 1; i <= maxPairs; i++ {
				k, v := fmt.Sprintf("body_key_%d", i), fmt.Sprintf("body_value_%d", i)
				if p.Has(v) && !p.Has(k) {
					return paramProblem(v, "has no %s naming its field", k)
				}
			}
			return nil
		},
	})
}

// sendPairs builds the body from `pairs` and the numbered pairs (which win on a clash).
func sendPairs(p *scripts.Params) (map[string]any, error) {
	body := map[string]any{}
	pairs, err := p.Object("pairs")
	if err != nil {
		return nil, err
	}
	for k, v := range pairs {
		body[k] = v
	}
	for i := 1; i <= maxPairs; i++ {
		kn, vn := fmt.Sprintf("body_key_%d", i), fmt.Sprintf("body_value_%d", i)
		if !p.Has(kn) {
			if p.Has(vn) {
				return nil, errs.E(errs.InvalidConfig, "parameter %s has no %s naming its field", vn, kn)
			}
			continue
		}
		key, err := p.String(kn)
		if err != nil {
			return nil, err
		}
		key = strings.TrimSpace(key)
		if key == "" {
			return nil, errs.E(errs.InvalidConfig, "parameter %s: the field name is empty", kn)
		}
		var val any = ""
		if p.Has(vn) {
			v, _ := p.Value(vn)
			val = v
		}
		body[key] = val
	}
	return body, nil
}
