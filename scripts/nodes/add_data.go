package nodes

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
	"github.com/xuri/excelize/v2"
)

// defaultMaxFile bounds the files add_data and get_data read into a variable.
const (
	defaultMaxFile = 50 << 20
	maxMaxFile     = 500 << 20
)

// fileFormats maps extensions to the readers of loadFile.
var fileFormats = map[string]string{
	".csv": "csv", ".tsv": "tsv", ".json": "json", ".txt": "text", ".text": "text", ".md": "text",
	".log": "text", ".html": "text", ".htm": "text", ".xml": "text", ".xlsx": "xlsx", ".xlsm": "xlsx",
}

func knownExtensions() string {
	var exts []string
	for e := range fileFormats {
		exts = append(exts, e)
	}
	sort.Strings(exts)
	return strings.Join(exts, ", ")
}

// fileOptions tune loadFile.
type fileOptions struct {
	sheet string // xlsx: the sheet to read (default the first)
	raw   bool   // csv, tsv, xlsx: rows as arrays of cells, header included
	limit int64
}

// loaded is what a file turned into.
type loaded struct {
	value  any
	format string
	rows   int // -1 when the value is not a table
	bytes  int64
	sheet  string
}

// add_data loads a file into a variable: CSV and TSV as an array of row objects keyed by the
// header (or raw rows), JSON as data, text as a string, XLSX as the rows of one sheet. It
// verifies that the variable holds what was read.
type addData struct {
	target string
	path   string
	opt    fileOptions
	got    *loaded
}

func init() {
	scripts.Register(scripts.Spec{
		Kind:     "add_data",
		Aliases:  []string{"Add Data"},
		Summary:  "Load a file (CSV, TSV, JSON, text, XLSX) into a variable.",
		Category: "data",
		Params: []scripts.Param{
			{Name: "target", Type: scripts.String, Required: true,
				Description: "the variable that receives the data", Example: "customers"},
			{Name: "data", Type: scripts.String, Required: true, Template: true,
				Description: "the file path; relative paths are in the run's working folder. The extension picks the reader: " + knownExtensions(),
				Example:     "customers.csv"},
			{Name: "sheet", Type: scripts.String, Template: true,
				Description: "XLSX only: the sheet to read (default the first)", Example: "Sheet1"},
			{Name: "raw", Type: scripts.Bool, Default: false,
				Description: "CSV, TSV and XLSX: keep the rows as arrays of cells (header row included) instead of objects keyed by the header", Example: true},
			{Name: "max_bytes", Type: scripts.Number, Default: defaultMaxFile, Min: scripts.F(1), Max: scripts.F(maxMaxFile),
				Description: fmt.Sprintf("the largest file accepted, in bytes (default %s); a larger one fails with too_large", sizeText(defaultMaxFile)), Example: 1 << 20},
		},
		Examples: []map[string]any{
			{"type": "add_data", "target": "customers", "data": "/srv/exports/customers.csv"},
			{"type": "add_data", "target": "prices", "data": "prices.xlsx", "sheet": "2024"},
		},
		Build: func(p *scripts.Params) (scripts.Node, error) {
			target, err := varParam(p, "target")
			if err != nil {
				return nil, err
			}
			path, err := p.String("data")
			if err != nil {
				return nil, err
			}
			opt, err := readFileOptions(p)
			if err != nil {
				return nil, err
			}
			if target == "" {
				return nil, errInvalid("parameter target: the variable name is empty")
			}
			return &addData{target: target, path: path, opt: opt}, nil
		},
		Validate: func(p *scripts.Params) error {
			if s, ok := rawString(p, "data"); ok {
				if _, known := fileFormats[strings.ToLower(filepath.Ext(s))]; !known {
					return paramProblem("data", "%s", unknownExt(s).Error())
				}
			}
			return nil
		},
	})
}

func readFileOptions(p *scripts.Params) (fileOptions, error) {
	var opt fileOptions
	var err error
	if opt.sheet, err = p.String("sheet"); err != nil {
		return opt, err
	}
	if opt.raw, err = p.Bool("raw"); err != nil {
		return opt, err
	}
	limit, err := p.Number("max_bytes")
	if err != nil {
		return opt, err
	}
	opt.limit = int64(limit)
	return opt, nil
}

func (n *addData) Run(ctx context.Context, env *scripts.Env) error {
	path, err := resolveFile(env, n.path)
	if err != nil {
		return err
	}
	env.SetDetail("path", path)
	got, err := loadFile(path, n.opt)
	if err != nil {
		return err
	}
	n.got = got
	env.Vars.Set(n.target, got.value)
	env.SetDetail("file", got.describe())
	return nil
}

func (n *addData) Verify(ctx context.Context, env *scripts.Env) ([]scripts.Check, error) {
	return n.got.verify(env, n.target), nil
}

func (l *loaded) describe() map[string]any {
	d := map[string]any{"format": l.format, "bytes": l.bytes}
	if l.rows >= 0 {
		d["rows"] = l.rows
	}
	if l.sheet != "" {
		d["sheet"] = l.sheet
	}
	return d
}

// verify checks that variable name holds the loaded value (the same number of rows for tables).
func (l *loaded) verify(env *scripts.Env, name string) []scripts.Check {
	v, ok := env.Vars.Get(name)
	c := scripts.Check{Name: "data_stored", Passed: ok}
	switch {
	case !ok:
		c.Detail = name + " is not set"
	case l.rows >= 0:
		arr, isArr := v.([]any)
		c.Passed = isArr && len(arr) == l.rows
		c.Detail = fmt.Sprintf("%s holds %s (%d rows read)", name, valueKind(v), l.rows)
	default:
		c.Detail = fmt.Sprintf("%s holds %s", name, valueKind(v))
	}
	return []scripts.Check{c}
}

func unknownExt(path string) error {
	ext := filepath.Ext(path)
	if ext == "" {
		return errs.E(errs.InvalidConfig, "%s has no file extension; the reader is picked by it: %s", filepath.Base(path), knownExtensions())
	}
	return errs.E(errs.InvalidConfig, "files of type %s cannot be loaded; known types: %s", ext, knownExtensions())
}

// loadFile reads path by its extension within opt.limit bytes.
func loadFile(path string, opt fileOptions) (*loaded, error) {
	format, known := fileFormats[strings.ToLower(filepath.Ext(path))]
	if !known {
		return nil, unknownExt(path)
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, errs.E(errs.NotFound, "file %s does not exist", path)
	case err != nil:
		return nil, errs.E(codeInvalidFile, "file %s cannot be read: %v", path, errors.Unwrap(err))
	case st.IsDir():
		return nil, errs.E(codeInvalidFile, "%s is a folder, not a file", path)
	case opt.limit > 0 && st.Size() > opt.limit:
		return nil, errs.E(errs.TooLarge, "file %s is %d bytes, over the %s limit (max_bytes)", path, st.Size(), sizeText(opt.limit))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, errs.E(codeInvalidFile, "file %s cannot be read: %v", path, errors.Unwrap(err))
	}
	l := &loaded{format: format, rows: -1, bytes: int64(len(b))}
	bad := func(format string, args ...any) error {
		return errs.E(codeInvalidFile, "%s is not a readable %s file: %s", filepath.Base(path), strings.ToUpper(l.format), fmt.Sprintf(format, args...))
	}
	switch format {
	case "json":
		v, err := parseJSON(b)
		if err != nil {
			return nil, bad("%v", err)
		}
		l.value = v
	case "text":
		if !utf8.Valid(b) {
			return nil, bad("it is not UTF-8 text")
		}
		l.value = string(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))
	case "csv", "tsv":
		records, err := readCSV(b, format == "tsv")
		if err != nil {
			return nil, bad("%v", err)
		}
		l.value, l.rows = rowsTable(records, opt.raw)
	case "xlsx":
		records, sheet, err := readXLSX(b, opt.sheet)
		if err != nil {
			return nil, err
		}
		l.sheet = sheet
		l.value, l.rows = rowsTable(records, opt.raw)
	}
	return l, nil
}

func readCSV(b []byte, tabs bool) ([][]string, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) // Excel writes a BOM
	if !utf8.Valid(b) {
		return nil, errors.New("it is not UTF-8 text")
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1 // ragged rows are common in exports; table pads them
	r.LazyQuotes = false
	if tabs {
		r.Comma = '\t'
	}
	var out [][]string
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
}

func readXLSX(b []byte, sheet string) ([][]string, string, error) {
	f, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		return nil, "", errs.E(codeInvalidFile, "the file is not a readable XLSX workbook: %v", err)
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, "", errs.E(codeInvalidFile, "the workbook has no sheets")
	}
	if sheet == "" {
		sheet = sheets[0]
	} else if !hasString(sheets, sheet) {
		return nil, "", errs.E(errs.NotFound, "the workbook has no sheet %q; its sheets: %s", sheet, strings.Join(sheets, ", "))
	}
	rows, err := f.GetRows(sheet)
	if err != nil {
		return nil, "", errs.E(codeInvalidFile, "sheet %q cannot be read: %v", sheet, err)
	}
	return rows, sheet, nil
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// table turns records into the variable's value: row objects keyed by the header row (empty or
// repeated header cells become column_N; short rows get "" for the missing cells; blank rows are
// dropped), or with raw the records as they are.
func rowsTable(records [][]string, raw bool) (any, int) {
	if raw {
		out := make([]any, len(records))
		for i, rec := range records {
			cells := make([]any, len(rec))
			for j, c := range rec {
				cells[j] = c
			}
			out[i] = cells
		}
		return out, len(out)
	}
	out := []any{}
	if len(records) == 0 {
		return out, 0
	}
	width := 0
	for _, rec := range records {
		width = max(width, len(rec))
	}
	header := make([]string, width)
	seen := map[string]bool{}
	for i := range header {
		name := ""
		if i < len(records[0]) {
			name = strings.TrimSpace(records[0][i])
		}
		if name == "" || seen[name] {
			name = fmt.Sprintf("column_%d", i+1)
		}
		seen[name] = true
		header[i] = name
	}
	for _, rec := range records[1:] {
		if blankRow(rec) {
			continue
		}
		row := make(map[string]any, width)
		for i, name := range header {
			cell := ""
			if i < len(rec) {
				cell = rec[i]
			}
			row[name] = cell
		}
		out = append(out, row)
	}
	return out, len(out)
}

func blankRow(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

var _ scripts.Verifier = (*addData)(nil)
