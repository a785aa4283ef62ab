package nodes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// download saves a URL's content (or copies a local file) to a path. The bytes stream to a
// temporary file beside the destination, which is renamed into place only when complete, so a
// failed or cut-off download never leaves a half file under the expected name. It verifies the
// file on disk: present, with the size written and the Content-Length the server announced.
type download struct {
	source  string
	dest    string
	headers map[string]string
	limit   int64

	path     string
	written  int64
	expected int64 // Content-Length or the source file's size; -1 when unknown
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "download",
		Aliases:  []string{"Download"},
		Summary:  "Download a URL (or copy a local file) to a file; verified by its size on disk.",
		Category: "data",
		Timeout:  5 * time.Minute,
		Params: []scripts.Param{
			{Name: "url_or_file", Type: scripts.String, Required: true, Template: true,
				Description: "an http(s) URL, or a local file to copy", Example: "https://example.com/report.pdf"},
			{Name: "download_location", Type: scripts.String, Required: true, Template: true,
				Description: "the destination file; relative paths are in the run's working folder; a path ending in / (or an existing folder) keeps the source's file name",
				Example:     "reports/report.pdf"},
			headersParamSpec(),
			maxBytesParam(defaultMaxDownload, maxMaxDownload),
		},
		Examples: []map[string]any{{"type": "download", "url_or_file": "https://example.com/report.pdf", "download_location": "reports/"}},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			src, err := p.String("url_or_file")
			if err != nil {
				return nil, err
			}
			dest, err := p.String("download_location")
			if err != nil {
				return nil, err
			}
			headers, err := headerParam(p, "headers")
			if err != nil {
				return nil, err
			}
			limit, err := p.Number("max_bytes")
			if err != nil {
				return nil, err
			}
			n := &download{source: strings.TrimSpace(src), dest: dest, headers: headers, limit: int64(limit)}
			if isHTTPURL(n.source) {
				if _, err := checkURL(n.source); err != nil {
					return nil, err
				}
			}
			return n, nil
		},
	})
}

func (n *download) Run(ctx context.Context, env *scripts.Env) error {
	n.written, n.expected = 0, -1
	dest, err := resolveFile(env, n.dest)
	if err != nil {
		return err
	}
	var body io.ReadCloser
	name := ""
	if isHTTPURL(n.source) {
		res, err := httpSend(ctx, env, httpRequest{method: "GET", url: n.source, headers: n.headers})
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if res.StatusCode/100 != 2 {
			b, _ := readCapped(ctx, res.Body, bodyExcerpt)
			_, err := httpCheckStatus(env, httpRequest{method: "GET", url: n.source}, res, b)
			return err
		}
		env.SetDetail("status", res.StatusCode)
		n.expected = res.ContentLength
		if n.expected > n.limit {
			return errs.E(errs.TooLarge, "the file is %d bytes, over the %s limit (max_bytes)", n.expected, sizeText(n.limit))
		}
		body = res.Body
		name = responseName(res.Header.Get("Content-Disposition"), res.Request.URL)
		env.SetDetail("content_type", res.Header.Get("Content-Type"))
	} else {
		src, err := resolveFile(env, n.source)
		if err != nil {
			return err
		}
		f, err := os.Open(src)
		if errors.Is(err, fs.ErrNotExist) {
			return errs.E(errs.NotFound, "file %s does not exist", src)
		}
		if err != nil {
			return errs.E(codeInvalidFile, "file %s cannot be read: %v", src, errors.Unwrap(err))
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || st.IsDir() {
			return errs.E(codeInvalidFile, "%s is not a regular file", src)
		}
		if st.Size() > n.limit {
			return errs.E(errs.TooLarge, "file %s is %d bytes, over the %s limit (max_bytes)", src, st.Size(), sizeText(n.limit))
		}
		env.SetDetail("source_file", src)
		n.expected, body, name = st.Size(), f, filepath.Base(src)
	}
	if strings.HasSuffix(n.dest, "/") || strings.HasSuffix(n.dest, string(filepath.Separator)) || isFolder(dest) {
		if name == "" || name == "." || name == "/" {
			name = "download"
		}
		dest = filepath.Join(dest, name)
	}
	n.path = dest
	env.SetDetail("path", dest)
	err = n.save(ctx, body, dest)
	env.SetDetail("bytes", n.written)
	return err
}

// save streams body to a temporary file in dest's folder and renames it into place.
func (n *download) save(ctx context.Context, body io.Reader, dest string) error {
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return errs.E(codeInvalidFile, "cannot create the folder of %s: %v", dest, errors.Unwrap(err))
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".part-*")
	if err != nil {
		return errs.E(codeInvalidFile, "cannot write to %s: %v", filepath.Dir(dest), errors.Unwrap(err))
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	written, err := io.Copy(tmp, io.LimitReader(body, n.limit+1))
	n.written = written
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return errs.E(codeRequestFailed, "the download broke off after %d bytes: %s", written, transportProblem(err))
	}
	if written > n.limit {
		return errs.E(errs.TooLarge, "the file is larger than the %s limit (max_bytes)", sizeText(n.limit))
	}
	if n.expected >= 0 && written != n.expected {
		return errs.E(codeRequestFailed, "the download ended after %d of %d bytes", written, n.expected)
	}
	if err := tmp.Close(); err != nil {
		return errs.E(codeInvalidFile, "cannot write %s: %v", dest, err)
	}
	if err := os.Rename(tmp.Name(), dest); err != nil {
		return errs.E(codeInvalidFile, "cannot write %s: %v", dest, errors.Unwrap(err))
	}
	done = true
	return nil
}

func (n *download) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	st, err := os.Stat(n.path)
	if err != nil {
		return []scripts.Check{{Name: "file_written", Passed: false, Detail: fmt.Sprintf("%s: %v", n.path, errors.Unwrap(err))}}, nil
	}
	checks := []scripts.Check{{Name: "file_written", Passed: st.Mode().IsRegular() && st.Size() == n.written,
		Detail: fmt.Sprintf("%s holds %d bytes, %d were received", n.path, st.Size(), n.written)}}
	if n.expected >= 0 {
		checks = append(checks, scripts.Check{Name: "expected_size", Passed: st.Size() == n.expected,
			Detail: fmt.Sprintf("%d bytes announced", n.expected)})
	}
	return checks, nil
}

// responseName picks the saved file's name: Content-Disposition's filename, else the last
// segment of the (final, after redirects) URL path. Both are reduced to a plain base name.
func responseName(disposition string, u *url.URL) string {
	if _, params, err := mime.ParseMediaType(disposition); err == nil && params["filename"] != "" {
		if b := filepath.Base(filepath.Clean("/" + params["filename"])); filepath.IsLocal(b) {
			return b
		}
	}
	if u != nil {
		if b := path.Base(u.Path); b != "" && b != "/" && b != "." && filepath.IsLocal(b) {
			return b
		}
	}
	return ""
}

func isFolder(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

var _ scripts.Verifier = (*download)(nil)
