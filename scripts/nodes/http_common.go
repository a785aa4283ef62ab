package nodes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/netguard"
	"github.com/rodeo-run/rodeo/scripts"
)

// Response size limits of the HTTP nodes. DefaultMaxResponse keeps a runaway answer from filling
// the server's memory (the body lands in a variable); downloads stream to disk and may be larger.
const (
	defaultMaxResponse = 10 << 20
	maxMaxResponse     = 100 << 20
	defaultMaxDownload = 100 << 20
	maxMaxDownload     = 4 << 30
	// bodyExcerpt is how much of a failed answer's body the step detail shows.
	bodyExcerpt = 500
)

// httpClients holds one client per outbound guard, so keep-alive connections are shared by the
// HTTP nodes. Time limits come from each node's context (its `timeout`); the guard's transport
// bounds only the connection phases, so a dead host fails fast, and checks every address it dials.
var httpClients sync.Map // *netguard.Guard -> *http.Client

func httpClientFor(g *netguard.Guard) *http.Client {
	if c, ok := httpClients.Load(g); ok {
		return c.(*http.Client)
	}
	c, _ := httpClients.LoadOrStore(g, &http.Client{
		Transport: g.Transport(),
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 10 {
				return errors.New("stopped after 10 redirects")
			}
			return nil
		},
	})
	return c.(*http.Client)
}

// request is one HTTP call of a node.
type httpRequest struct {
	method  string
	url     string
	headers map[string]string
	body    []byte
	// contentType is set unless the author gave a Content-Type header.
	contentType string
}

// response is a 2xx answer, its body read within the limit.
type httpResponse struct {
	status      int
	contentType string
	length      int64 // Content-Length, -1 when not given
	body        []byte
}

// maxBytesParam is the optional size limit parameter of the HTTP nodes.
func maxBytesParam(def, hi int64) scripts.Param {
	return scripts.Param{Name: "max_bytes", Type: scripts.Number, Default: float64(def), Min: scripts.F(1), Max: scripts.F(float64(hi)),
		Description: fmt.Sprintf("the largest response accepted, in bytes (default %s, at most %s); a larger one fails with too_large", sizeText(def), sizeText(hi)),
		Example:     1 << 20}
}

// checkURL accepts only absolute http and https URLs.
func checkURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, errs.E(errs.InvalidConfig, "%q is not an http or https URL", raw)
	}
	return u, nil
}

// headerParam reads a headers object: names to text values (numbers and booleans as text).
func headerParam(p *scripts.Params, name string) (map[string]string, error) {
	v, _ := p.Value(name)
	obj, isObj := v.(map[string]any)
	if v != nil && !isObj {
		// get_data and download take headers as JSON text too (the studio's "Headers (JSON)").
		s, err := p.String(name)
		if err != nil || strings.TrimSpace(s) == "" {
			return nil, nil
		}
		v, jerr := parseJSON([]byte(s))
		m, ok := v.(map[string]any)
		if jerr != nil || !ok {
			return nil, errs.E(errs.InvalidConfig, "parameter %s: must be a JSON object of header names to values", name)
		}
		obj = m
	}
	out := make(map[string]string, len(obj))
	for k, v := range obj {
		if strings.TrimSpace(k) == "" {
			return nil, errs.E(errs.InvalidConfig, "parameter %s: a header name is empty", name)
		}
		switch v.(type) {
		case map[string]any, []any:
			return nil, errs.E(errs.InvalidConfig, "parameter %s: header %s must be text, not an object or array", name, k)
		}
		out[k] = scripts.Text(v)
	}
	return out, nil
}

// headersParamSpec is the headers parameter shared by the HTTP nodes.
func headersParamSpec() scripts.Param {
	return scripts.Param{Name: "headers", Type: scripts.Any, Template: true,
		Description: "request headers, as an object (or its JSON text); values never appear in step details",
		Example:     map[string]any{"Authorization": "Bearer {{token}}"}}
}

// do sends r and reads the answer within limit bytes. Non-2xx answers fail with http_error and
// record the status and a body excerpt in the step detail.
func httpDo(ctx context.Context, env *scripts.Env, r httpRequest, limit int64) (*httpResponse, error) {
	res, err := httpSend(ctx, env, r)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := readCapped(ctx, res.Body, limit)
	if err != nil {
		return nil, err
	}
	return httpCheckStatus(env, r, res, body)
}

// send issues the request and records what is safe to show of it.
func httpSend(ctx context.Context, env *scripts.Env, r httpRequest) (*http.Response, error) {
	u, err := checkURL(r.url)
	if err != nil {
		return nil, err
	}
	env.SetDetail("request", map[string]any{"method": r.method, "url": redactURL(u), "headers": maskHeaders(r.headers), "body_bytes": len(r.body)})
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), body)
	if err != nil {
		return nil, errs.E(errs.InvalidConfig, "request %s %s: %v", r.method, redactURL(u), err)
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	req.Header.Set("User-Agent", "rodeo")
	for k, v := range r.headers {
		if strings.EqualFold(k, "host") {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	start := time.Now()
	res, err := httpClientFor(env.Services().Guard()).Do(req)
	env.SetDetail("elapsed_ms", time.Since(start).Milliseconds())
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err() // the runner names the node's time limit
		}
		if blocked := blockedError(err); blocked != nil {
			return nil, errs.E(errs.AddressBlocked, "%s %s was refused: %w", r.method, redactURL(u), blocked)
		}
		return nil, errs.E(codeRequestFailed, "%s %s got no answer: %s", r.method, redactURL(u), transportProblem(err))
	}
	return res, nil
}

func httpCheckStatus(env *scripts.Env, r httpRequest, res *http.Response, body []byte) (*httpResponse, error) {
	env.SetDetail("status", res.StatusCode)
	ct := res.Header.Get("Content-Type")
	if res.StatusCode < 200 || res.StatusCode > 299 {
		ex := textExcerpt(body, bodyExcerpt)
		env.SetDetail("response_excerpt", ex)
		u, _ := url.Parse(r.url)
		return nil, errs.E(codeHTTPError, "%s %s answered HTTP %d %s: %s", r.method, redactURL(u), res.StatusCode, http.StatusText(res.StatusCode), singleLine(textExcerpt(body, 200)))
	}
	return &httpResponse{status: res.StatusCode, contentType: ct, length: res.ContentLength, body: body}, nil
}

// readLimited reads at most limit bytes; a longer body fails with too_large.
func readCapped(ctx context.Context, r io.Reader, limit int64) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, errs.E(codeRequestFailed, "reading the answer failed: %s", transportProblem(err))
	}
	if int64(len(body)) > limit {
		return nil, errs.E(errs.TooLarge, "the answer is larger than the %s limit (max_bytes)", sizeText(limit))
	}
	return body, nil
}

// decodeBody turns an answer into a variable's value: JSON (by content type, or text that is an
// object or array) becomes data, other text a string, anything else an error.
func answerValue(b []byte, contentType string) (any, string, error) {
	mt, _, _ := mime.ParseMediaType(contentType)
	isJSON := strings.HasSuffix(mt, "/json") || strings.HasSuffix(mt, "+json")
	if isJSON || ((mt == "" || strings.HasPrefix(mt, "text/")) && looksLikeJSON(b)) {
		if len(bytes.TrimSpace(b)) == 0 {
			return "", "text", nil
		}
		v, err := parseJSON(b)
		if err == nil {
			return v, "json", nil
		}
		if isJSON {
			return nil, "", errs.E(codeInvalidFile, "the answer says it is JSON but does not parse: %v", err)
		}
	}
	if !textual(mt) || !utf8.Valid(b) {
		return nil, "", errs.E(codeInvalidValue, "the answer is binary (%s, %d bytes); use the download node to save it to a file", contentTypeOr(mt), len(b))
	}
	return string(b), "text", nil
}

// textual reports whether a media type is text a variable can hold ("" counts: many APIs omit it).
func textual(mt string) bool {
	switch {
	case mt == "", strings.HasPrefix(mt, "text/"), strings.HasSuffix(mt, "json"), strings.HasSuffix(mt, "xml"),
		strings.HasSuffix(mt, "javascript"), mt == "application/x-www-form-urlencoded", mt == "application/x-ndjson", mt == "application/yaml":
		return true
	}
	return false
}

func contentTypeOr(s string) string {
	if s == "" {
		return "no content type"
	}
	return s
}

// jsonBody encodes a value to send. Text that holds a JSON object or array goes as JSON; other
// text as text/plain.
func encodeBody(v any) ([]byte, string, error) {
	if s, ok := v.(string); ok {
		if looksLikeJSON([]byte(s)) {
			if _, err := parseJSON([]byte(s)); err == nil {
				return []byte(s), "application/json", nil
			}
		}
		return []byte(s), "text/plain; charset=utf-8", nil
	}
	b, err := encodeJSON(v)
	if err != nil {
		return nil, "", errs.E(codeInvalidValue, "the body cannot be encoded as JSON: %v", err)
	}
	return b, "application/json", nil
}

// sensitiveNames are header and query names whose values are never shown (tokens, keys, cookies).
var sensitiveNames = []string{"auth", "token", "key", "secret", "cookie", "password", "passwd", "session", "signature", "credential"}

// shownHeaders may be shown as they are; every other header's value is masked.
var shownHeaders = map[string]bool{"accept": true, "content-type": true, "accept-language": true, "user-agent": true, "accept-encoding": true}

// maskHeaders lists header names with their values masked, except a few harmless ones.
func maskHeaders(h map[string]string) map[string]string {
	if len(h) == 0 {
		return map[string]string{}
	}
	out := make(map[string]string, len(h))
	for k, v := range h {
		if shownHeaders[strings.ToLower(k)] && !isSensitiveName(k) {
			out[k] = v
			continue
		}
		out[k] = "***"
	}
	return out
}

func isSensitiveName(name string) bool {
	n := strings.ToLower(name)
	for _, s := range sensitiveNames {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// redactURL renders u without a password and with sensitiveNames query values masked, for details
// and messages.
func redactURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	if c.User != nil {
		c.User = url.User(c.User.Username())
		if _, has := u.User.Password(); has {
			c.User = url.UserPassword(c.User.Username(), "***")
		}
	}
	q := c.Query()
	changed := false
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if isSensitiveName(k) {
			q[k] = []string{"***"}
			changed = true
		}
	}
	if changed {
		c.RawQuery = q.Encode()
	}
	return c.String()
}

// transportProblem says in words why a request got no answer.
func transportProblem(err error) string {
	var dnsErr *net.DNSError
	var opErr *net.OpError
	switch {
	case errors.As(err, &dnsErr):
		return "the host name " + dnsErr.Name + " does not resolve"
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return "the connection was refused or timed out (" + opErr.Err.Error() + ")"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// blockedError is the guard's refusal in err's chain, or nil.
func blockedError(err error) error {
	var e *errs.Error
	if errors.As(err, &e) && e.Code == errs.AddressBlocked {
		return e
	}
	return nil
}

func singleLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
