package nodes

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// Codes of the data nodes (api, send_data, get_data, download, add_data, math, if_else), beyond
// errs' shared ones. They are part of the run document's contract.
const (
	// codeHTTPError is an HTTP answer outside 2xx; the step detail holds the status and an
	// excerpt of the body.
	codeHTTPError = "http_error"
	// codeRequestFailed is an HTTP request that got no answer (refused, DNS, TLS, reset).
	codeRequestFailed = "request_failed"
	// codeInvalidFile is a file that exists but cannot be read as its type says (a broken XLSX,
	// malformed JSON or CSV).
	codeInvalidFile = "invalid_file"
	// codeInvalidValue is a variable whose value does not fit the operation (math on text, a
	// greater-than against a word, division by zero).
	codeInvalidValue = "invalid_value"
)

// varName reads a parameter that names a variable. Authors often write the placeholder form
// ("{{price}}") where a name is expected; it means the same variable, so the braces are dropped.
func varParam(p *scripts.Params, name string) (string, error) {
	s, err := p.String(name)
	if err != nil {
		return "", err
	}
	return plainVarName(s), nil
}

func plainVarName(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "{{") && strings.HasSuffix(s, "}}") && strings.Count(s, "{{") == 1 {
		s = strings.TrimSpace(s[2 : len(s)-2])
	}
	return s
}

// templated reports whether a raw (compile-time) value is still a {{placeholder}} text whose
// value is known only at run time.
func isTemplated(v any) bool {
	s, ok := v.(string)
	return ok && strings.Contains(s, "{{")
}

// rawValue returns a param's compile-time value through the string getter, and whether it is a
// literal that Validate may check ("" and templated values are not).
func rawString(p *scripts.Params, name string) (string, bool) {
	if !p.Has(name) {
		return "", false
	}
	s, err := p.String(name)
	if err != nil || s == "" || strings.Contains(s, "{{") {
		return "", false
	}
	return s, true
}

// fieldError is an invalid_config error reported under one parameter at compile time.
func paramProblem(field, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return &errs.Error{Code: errs.InvalidConfig, Message: "parameter " + field + ": " + msg,
		Details: []errs.Detail{{Field: field, Problem: msg}}}
}

// runDir is the run's working folder: Services.WorkDir/<run id>, or a folder under the system's
// temporary directory when the runner has no WorkDir (tests, embedded use).
func runWorkDir(env *scripts.Env) string {
	base := env.Services().WorkDir
	if base == "" {
		base = filepath.Join(os.TempDir(), "rodeo-work")
	}
	id := env.RunID
	if id == "" || id != filepath.Base(id) || strings.HasPrefix(id, ".") {
		id = "run"
	}
	return filepath.Join(base, id)
}

// filePath resolves a path a node reads or writes. Relative paths resolve under the run's working
// folder and may not climb out of it ("../x"). Absolute paths are allowed when the server allows
// code nodes (a run could reach any file through bash anyway); when an operator turned code nodes
// off, files are confined to the working folder (Services.WorkDir) too.
func resolveFile(env *scripts.Env, p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", errs.E(errs.InvalidConfig, "the file path is empty")
	}
	p = strings.TrimPrefix(p, "file://")
	if !filepath.IsAbs(p) {
		if !filepath.IsLocal(p) {
			return "", errs.E(errs.InvalidConfig, "the relative path %q leaves the run's working folder; use a path inside it or an absolute path", p)
		}
		return filepath.Join(runWorkDir(env), p), nil
	}
	p = filepath.Clean(p)
	svc := env.Services()
	if !svc.CodeNodes && svc.WorkDir != "" {
		rel, err := filepath.Rel(filepath.Clean(svc.WorkDir), p)
		if err != nil || !filepath.IsLocal(rel) {
			return "", errs.E(errs.InvalidConfig, "the path %s is outside the working folder: with code nodes disabled (RODEO_CODE_NODES=false) files must stay under %s; use a relative path", p, svc.WorkDir)
		}
	}
	return p, nil
}

// parseNumber reads a number from a variable's value: a JSON number or numeric text.
func numberOf(v any) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, true
	case int:
		return float64(t), true
	case int64:
		return float64(t), true
	case json.Number:
		f, err := t.Float64()
		return f, err == nil
	case string:
		s := strings.TrimSpace(t)
		if s == "" {
			return 0, false
		}
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	}
	return 0, false
}

// decodeJSON parses a JSON document with numbers kept exact until the variables normalize them.
func parseJSON(b []byte) (any, error) {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// looksJSON reports whether text is a JSON object or array (what "holds JSON" means for data sent
// and received).
func looksLikeJSON(b []byte) bool {
	s := strings.TrimSpace(string(b))
	return (strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}")) || (strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]"))
}

// excerpt is the beginning of a body for error details: valid UTF-8, at most n bytes.
func textExcerpt(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
		for len(b) > 0 && !utf8.Valid(b) {
			b = b[:len(b)-1]
		}
		return string(b) + "…"
	}
	if !utf8.Valid(b) {
		return fmt.Sprintf("(%d bytes of binary data)", len(b))
	}
	return string(b)
}

// mib renders a byte count for messages.
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// marshalJSON encodes v as JSON without HTML escaping (the text goes to APIs, not pages).
func encodeJSON(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(strings.TrimSuffix(b.String(), "\n")), nil
}
