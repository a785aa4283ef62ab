package nodes

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// api calls an HTTP API and keeps its answer: JSON answers land in the output variable as data
// (objects and arrays), anything else as text. It verifies a 2xx status and, with an output, the
// stored value; a non-2xx answer fails with http_error. send_data and get_data's URL form are
// the same call with the studio's parameters.
type api struct {
	req    httpRequest
	limit  int64
	output string
	// dataVar is the variable whose value is the body (resolved at run time).
	dataVar string
	body    map[string]any

	res    *httpResponse
	stored any
}

var httpMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "api",
		Summary:  "Call an HTTP API; a JSON answer is stored as data, other text as text.",
		Category: "data",
		Timeout:  30 * time.Second,
		Params: []scripts.Param{
			{Name: "URL", Type: scripts.String, Required: true, Template: true,
				Description: "the endpoint (http or https)", Example: "https://api.example.com/v1/items"},
			{Name: "method", Type: scripts.String, Enum: httpMethods,
				Description: "the HTTP method; default POST when there is a body or data, else GET (an empty body {} counts as none)", Example: "POST"},
			{Name: "headers", Type: scripts.Object, Template: true,
				Description: "request headers; their values never appear in step details", Example: map[string]any{"Authorization": "Bearer {{token}}"}},
			{Name: "body", Type: scripts.Object, Template: true,
				Description: "the request body, sent as JSON; {{name}} placeholders expand in its text values; an empty {} is no body (GET) unless method is POST, PUT or PATCH", Example: map[string]any{"name": "{{name}}"}},
			{Name: "data", Type: scripts.String,
				Description: "a variable whose value is the body: objects, arrays and JSON text go as JSON, other text as text/plain (with body, an object's fields are added to body's)", Example: "order"},
			{Name: "output", Type: scripts.String,
				Description: "a variable that receives the answer (JSON as data, other text as a string)", Example: "result"},
			maxBytesParam(defaultMaxResponse, maxMaxResponse),
		},
		Examples: []map[string]any{
			{"type": "api", "URL": "https://api.example.com/v1/orders", "headers": map[string]any{"Authorization": "Bearer {{token}}"},
				"body": map[string]any{"item": "{{item}}", "quantity": 2}, "output": "order"},
			{"type": "api", "URL": "https://api.example.com/v1/orders/{{order.id}}", "output": "status"},
		},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			rawURL, err := p.String("URL")
			if err != nil {
				return nil, err
			}
			headers, err := headerParam(p, "headers")
			if err != nil {
				return nil, err
			}
			body, err := p.Object("body")
			if err != nil {
				return nil, err
			}
			dataVar, err := varParam(p, "data")
			if err != nil {
				return nil, err
			}
			method, err := p.String("method")
			if err != nil {
				return nil, err
			}
			method = strings.ToUpper(strings.TrimSpace(method))
			if len(body) == 0 && method != "POST" && method != "PUT" && method != "PATCH" {
				// The node template lists every field, so a plain GET arrives with "body": {}:
				// an empty body is no body unless the method asks for one.
				body = nil
			}
			n := &api{req: httpRequest{url: rawURL, headers: headers, method: method}, body: body, dataVar: dataVar}
			if n.req.method == "" {
				n.req.method = "GET"
				if body != nil || dataVar != "" {
					n.req.method = "POST"
				}
			}
			return n, n.common(p, "output")
		},
		Validate: func(p *scripts.Params) error {
			if s, ok := rawString(p, "URL"); ok {
				if _, err := checkURL(s); err != nil {
					return paramProblem("URL", "%q is not an http or https URL", s)
				}
			}
			return nil
		},
	})
}

// common reads the params every HTTP call node shares: its output variable and size limit.
func (n *api) common(p *scripts.Params, outputParam string) error {
	out, err := varParam(p, outputParam)
	if err != nil {
		return err
	}
	limit, err := p.Number("max_bytes")
	if err != nil {
		return err
	}
	n.output, n.limit = out, int64(limit)
	if _, err := checkURL(n.req.url); err != nil {
		return err
	}
	return nil
}

// payload composes the body from `body` and the `data` variable.
func (n *api) payload(env *scripts.Env) error {
	if n.dataVar == "" {
		if n.body != nil {
			b, ct, err := encodeBody(n.body)
			if err != nil {
				return err
			}
			n.req.body, n.req.contentType = b, ct
		}
		return nil
	}
	v, ok := env.Vars.Get(n.dataVar)
	if !ok {
		return errs.E(errs.VariableNotSet, "variable %s (the api node's data) is not set", n.dataVar)
	}
	if n.body != nil {
		if s, isText := v.(string); isText && looksLikeJSON([]byte(s)) {
			if parsed, err := parseJSON([]byte(s)); err == nil {
				v = parsed
			}
		}
		obj, isObj := v.(map[string]any)
		if !isObj {
			return errs.E(errs.InvalidConfig, "body and data can be combined only when variable %s holds an object; it holds %s", n.dataVar, valueKind(v))
		}
		merged := make(map[string]any, len(n.body)+len(obj))
		for k, x := range n.body {
			merged[k] = x
		}
		for k, x := range obj {
			merged[k] = x
		}
		v = merged
	}
	b, ct, err := encodeBody(v)
	if err != nil {
		return err
	}
	n.req.body, n.req.contentType = b, ct
	return nil
}

func (n *api) Run(ctx context.Context, env *scripts.Env) error {
	n.res, n.stored = nil, nil
	if n.req.body == nil {
		if err := n.payload(env); err != nil {
			return err
		}
	}
	if n.req.method == "GET" || n.req.method == "HEAD" {
		if n.req.body != nil {
			return errs.E(errs.InvalidConfig, "a %s request has no body: use POST, PUT or PATCH, or leave out body and data", n.req.method)
		}
	}
	res, err := httpDo(ctx, env, n.req, n.limit)
	if err != nil {
		return err
	}
	return n.keep(env, res)
}

// keep stores the answer in the output variable and records what it was.
func (n *api) keep(env *scripts.Env, res *httpResponse) error {
	n.res = res
	info := map[string]any{"status": res.status, "content_type": res.contentType, "bytes": len(res.body)}
	defer env.SetDetail("response", info)
	if n.output == "" {
		return nil
	}
	v, kind, err := answerValue(res.body, res.contentType)
	if err != nil {
		return err
	}
	info["stored_as"] = kind
	info["output"] = n.output
	env.Vars.Set(n.output, v)
	n.stored = v
	return nil
}

func (n *api) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	checks := []scripts.Check{{Name: "status_2xx", Passed: n.res != nil && n.res.status/100 == 2,
		Detail: fmt.Sprintf("HTTP %d", httpStatusOf(n.res))}}
	if n.output != "" {
		_, ok := env.Vars.Get(n.output)
		checks = append(checks, scripts.Check{Name: "output_stored", Passed: ok && n.stored != nil,
			Detail: fmt.Sprintf("%s holds %s", n.output, valueKind(n.stored))})
	}
	return checks, nil
}

func httpStatusOf(r *httpResponse) int {
	if r == nil {
		return 0
	}
	return r.status
}

// kindOf describes a variable's value for messages: "an object of 3 fields", "text of 12 bytes".
func valueKind(v any) string {
	switch t := v.(type) {
	case nil:
		return "nothing"
	case map[string]any:
		return fmt.Sprintf("an object of %d fields", len(t))
	case []any:
		return fmt.Sprintf("an array of %d items", len(t))
	case string:
		return fmt.Sprintf("text of %d bytes", len(t))
	case bool:
		return "a boolean"
	}
	return "a number"
}

var _ scripts.Verifier = (*api)(nil)
