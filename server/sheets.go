package server

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"mime"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/xuri/excelize/v2"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/store"
)

// Sheets: GET /sheets lists the account's sheets; GET /sheets/{id} answers the sheet as JSON
// (paged by ?offset= and ?limit=), GET /sheets/{id}.csv and GET /sheets/{id}.xlsx export it
// whole. Authentication is by Authorization: Bearer only (a key in a URL ends up in logs and
// browser histories). Another account's sheet is 404, exactly like a missing one.

func init() {
	mounts = append(mounts, func(s *Server) {
		s.app.Get("/sheets", s.listSheets)
		s.app.Get("/sheets/:id", s.getSheet)
	})
}

// exportPage is how many rows an export reads per store transaction.
const exportPage = store.MaxReadLimit

// sheetSummary is one line of GET /sheets.
type sheetSummary struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	URL     string    `json:"url"`
	Rows    int       `json:"rows"`
	Header  []string  `json:"header,omitempty"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
}

func (s *Server) sheetURL(id string) string {
	base := ""
	if s.cfg.Services != nil {
		base = strings.TrimRight(s.cfg.Services.PublicURL, "/")
	}
	return base + "/sheets/" + id
}

func (s *Server) listSheets(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	limit, _ := strconv.Atoi(c.Query("limit"))
	list, err := s.cfg.Store.ListSheets(account, limit, c.Query("before"))
	if err != nil {
		return err
	}
	out := make([]sheetSummary, 0, len(list))
	for _, sh := range list {
		out = append(out, sheetSummary{ID: sh.ID, Name: sh.Name, URL: s.sheetURL(sh.ID), Rows: sh.Rows, Header: sh.Header,
			Created: sh.Created, Updated: sh.Updated})
	}
	resp := fiber.Map{"sheets": out}
	page := store.DefaultSheetList
	if limit > 0 {
		page = min(limit, store.MaxSheetList)
	}
	if n := len(list); n > 0 && n == page {
		resp["next"] = fmt.Sprintf("/sheets?before=%s&limit=%d", list[n-1].ID, page)
	}
	return c.JSON(resp)
}

func (s *Server) getSheet(c *fiber.Ctx) error {
	account, err := s.account(c)
	if err != nil {
		return err
	}
	id, format := c.Params("id"), "json"
	for _, ext := range []string{"csv", "xlsx", "json"} {
		if strings.HasSuffix(id, "."+ext) {
			id, format = strings.TrimSuffix(id, "."+ext), ext
			break
		}
	}
	switch format {
	case "csv":
		return s.sheetCSV(c, account, id)
	case "xlsx":
		return s.sheetXLSX(c, account, id)
	}
	offset, err := queryInt(c, "offset", 0)
	if err != nil {
		return err
	}
	limit, err := queryInt(c, "limit", store.DefaultReadLimit)
	if err != nil {
		return err
	}
	sh, rows, err := s.cfg.Store.ReadRows(account, id, offset, limit)
	if err != nil {
		return err
	}
	header := sh.Header
	if header == nil {
		header = []string{}
	}
	resp := fiber.Map{"id": sh.ID, "name": sh.Name, "url": s.sheetURL(sh.ID), "header": header, "rows": rows,
		"total_rows": sh.Rows, "offset": offset, "created": sh.Created, "updated": sh.Updated}
	if end := offset + len(rows); end < sh.Rows {
		resp["next"] = fmt.Sprintf("/sheets/%s?offset=%d&limit=%d", sh.ID, end, min(max(limit, 1), store.MaxReadLimit))
	}
	return c.JSON(resp)
}

func queryInt(c *fiber.Ctx, name string, def int) (int, error) {
	v := c.Query(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, errs.E(errs.InvalidConfig, "query parameter %s must be a non-negative whole number, not %q", name, v)
	}
	return n, nil
}

// eachSheetPage calls fn with the sheet and its rows, a page at a time, all rows in order.
func (s *Server) eachSheetPage(account, id string, fn func(store.Sheet, [][]string) error) error {
	for offset := 0; ; {
		sh, rows, err := s.cfg.Store.ReadRows(account, id, offset, exportPage)
		if err != nil {
			return err
		}
		if err := fn(sh, rows); err != nil {
			return err
		}
		offset += len(rows)
		if len(rows) < exportPage || offset >= sh.Rows {
			return nil
		}
	}
}

// attachment sets the download headers; the file name is the sheet's name, made safe.
func attachment(c *fiber.Ctx, name, ext, ctype string) {
	safe := strings.Map(func(r rune) rune {
		if r < 0x20 || strings.ContainsRune(`/\:*?"<>|`, r) {
			return '_'
		}
		return r
	}, name)
	if strings.TrimSpace(safe) == "" {
		safe = "sheet"
	}
	c.Set(fiber.HeaderContentType, ctype)
	c.Set(fiber.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": safe + "." + ext}))
}

func (s *Server) sheetCSV(c *fiber.Ctx, account, id string) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	var sheet store.Sheet
	err := s.eachSheetPage(account, id, func(sh store.Sheet, rows [][]string) error {
		if sheet.ID == "" && len(sh.Header) > 0 {
			if err := w.Write(sh.Header); err != nil {
				return err
			}
		}
		sheet = sh
		return w.WriteAll(rows)
	})
	if err != nil {
		return err
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	attachment(c, sheet.Name, "csv", "text/csv; charset=utf-8")
	return c.Send(buf.Bytes())
}

// xlsxSheetName makes a worksheet name Excel accepts: at most 31 characters, none of []:*?/\.
func xlsxSheetName(name string) string {
	name = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`[]:*?/\`, r) || r < 0x20 {
			return '_'
		}
		return r
	}, strings.Trim(strings.TrimSpace(name), "'"))
	if r := []rune(name); len(r) > 31 {
		name = string(r[:31])
	}
	if strings.TrimSpace(name) == "" || strings.EqualFold(name, "history") {
		return "Sheet1"
	}
	return name
}

func (s *Server) sheetXLSX(c *fiber.Ctx, account, id string) error {
	f := excelize.NewFile()
	defer f.Close()
	var sheet store.Sheet
	var sw *excelize.StreamWriter
	line := 1
	writeRow := func(row []string) error {
		cells := make([]any, len(row))
		for i, v := range row {
			cells[i] = v // strings are stored as text, never as formulas
		}
		cell, err := excelize.CoordinatesToCellName(1, line)
		if err != nil {
			return err
		}
		line++
		return sw.SetRow(cell, cells)
	}
	err := s.eachSheetPage(account, id, func(sh store.Sheet, rows [][]string) error {
		if sw == nil {
			sheet = sh
			name := xlsxSheetName(sh.Name)
			if err := f.SetSheetName("Sheet1", name); err != nil {
				return fmt.Errorf("xlsx sheet name: %w", err)
			}
			var err error
			if sw, err = f.NewStreamWriter(name); err != nil {
				return fmt.Errorf("xlsx: %w", err)
			}
			if len(sh.Header) > 0 {
				if err := writeRow(sh.Header); err != nil {
					return err
				}
			}
		}
		for _, r := range rows {
			if err := writeRow(r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("xlsx: %w", err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return fmt.Errorf("xlsx: %w", err)
	}
	attachment(c, sheet.Name, "xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	return c.Send(buf.Bytes())
}
