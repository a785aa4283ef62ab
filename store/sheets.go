package store

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
)

// Sheets are the embedded spreadsheet backend of the sheets_* and spreadsheet nodes. A sheet
// belongs to one account and holds an optional header row and data rows of text cells.
//
// Buckets:
//
//	sheets          sheet id -> Sheet (JSON)
//	sheet_rows      one nested bucket per sheet: 8-byte big-endian row number (1-based) -> row (JSON array)
//	account_sheets  one nested bucket per account: sheet id -> empty, for ListSheets
//
// Row numbers come from the rows bucket's own sequence inside the appending transaction, so
// concurrent appends (bbolt runs one writer at a time) never lose or overwrite a row, and rows
// are never read, modified and written back outside a transaction.
var (
	bucketSheets        = []byte("sheets")
	bucketSheetRows     = []byte("sheet_rows")
	bucketAccountSheets = []byte("account_sheets")
)

func init() {
	featureBuckets = append(featureBuckets, bucketSheets, bucketSheetRows, bucketAccountSheets)
}

// Limits of sheets. MaxSheetRows and MaxCellLen are Excel's, so every sheet exports to XLSX.
const (
	MaxSheetRows     = 1048575 // Excel's 1,048,576 rows less one for the header
	MaxRowCells      = 1000
	MaxCellLen       = 32767 // characters
	MaxSheetNameLen  = 200
	DefaultReadLimit = 1000
	MaxReadLimit     = 10000
	DefaultSheetList = 100
	MaxSheetList     = 1000
)

// Sheet is a sheet's record: everything but its rows. Rows is the number of data rows.
type Sheet struct {
	V       int       `json:"v"`
	ID      string    `json:"id"`
	Account string    `json:"account"`
	Name    string    `json:"name"`
	Header  []string  `json:"header,omitempty"`
	Rows    int       `json:"rows"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
}

// checkRow enforces the cell limits on one row (or header); what names the row in messages.
func checkRow(what string, row []string) error {
	if len(row) > MaxRowCells {
		return errs.E(errs.InvalidConfig, "%s has %d cells; a row holds at most %d", what, len(row), MaxRowCells)
	}
	for i, cell := range row {
		if n := utf8.RuneCountInString(cell); n > MaxCellLen {
			return errs.E(errs.InvalidConfig, "%s: cell %d has %d characters; a cell holds at most %d", what, i+1, n, MaxCellLen)
		}
	}
	return nil
}

// CreateSheet makes an empty sheet of account named name (trimmed, 1-200 characters) with an
// optional header row.
func (db *DB) CreateSheet(account, name string, header []string) (Sheet, error) {
	if account == "" {
		return Sheet{}, errors.New("store: a sheet needs an account")
	}
	if _, err := validAccount(account); err != nil {
		return Sheet{}, err
	}
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > MaxSheetNameLen {
		return Sheet{}, errs.E(errs.InvalidConfig, "a sheet name must have 1-%d characters", MaxSheetNameLen)
	}
	if err := checkRow("the header", header); err != nil {
		return Sheet{}, err
	}
	now := db.timestamp()
	s := Sheet{V: recordVersion, ID: NewID("s"), Account: account, Name: name, Header: header, Created: now, Updated: now}
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		if err := putSheet(tx, s); err != nil {
			return err
		}
		if _, err := tx.Bucket(bucketSheetRows).CreateBucket([]byte(s.ID)); err != nil {
			return fmt.Errorf("store: rows of sheet %s: %w", s.ID, err)
		}
		idx, err := tx.Bucket(bucketAccountSheets).CreateBucketIfNotExists([]byte(account))
		if err != nil {
			return fmt.Errorf("store: sheet index of %s: %w", account, err)
		}
		return idx.Put([]byte(s.ID), nil)
	})
	if err != nil {
		return Sheet{}, err
	}
	return s, nil
}

func putSheet(tx *bolt.Tx, s Sheet) error {
	data, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("store: encode sheet %s: %w", s.ID, err)
	}
	if err := tx.Bucket(bucketSheets).Put([]byte(s.ID), data); err != nil {
		return fmt.Errorf("store: put sheet %s: %w", s.ID, err)
	}
	return nil
}

// getSheet reads sheet id of account; another account's sheet is not found, like a missing one.
func getSheet(tx *bolt.Tx, account, id string) (Sheet, error) {
	data := tx.Bucket(bucketSheets).Get([]byte(id))
	if data == nil || id == "" {
		return Sheet{}, notFound("sheet", id)
	}
	var s Sheet
	if err := decodeRecord("sheet", []byte(id), data, &s); err != nil {
		return Sheet{}, err
	}
	if s.Account != account {
		return Sheet{}, notFound("sheet", id)
	}
	return s, nil
}

// GetSheet returns sheet id of account (ErrNotFound for a missing one or another account's).
func (db *DB) GetSheet(account, id string) (Sheet, error) {
	var s Sheet
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		s, err = getSheet(tx, account, id)
		return err
	})
	return s, err
}

// ListSheets returns up to limit sheets of account, newest first (limit <= 0 means
// DefaultSheetList, capped at MaxSheetList). before, when set, is an exclusive id cursor as in
// ListRuns.
func (db *DB) ListSheets(account string, limit int, before string) ([]Sheet, error) {
	if limit <= 0 {
		limit = DefaultSheetList
	}
	limit = min(limit, MaxSheetList)
	list := []Sheet{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		idx := tx.Bucket(bucketAccountSheets).Bucket([]byte(account))
		if account == "" || idx == nil {
			return nil
		}
		c := idx.Cursor()
		k := newestBefore(c, before)
		for ; k != nil && len(list) < limit; k, _ = c.Prev() {
			s, err := getSheet(tx, account, string(k))
			if err != nil {
				return fmt.Errorf("store: sheet index of %s lists %s: %w", account, k, err)
			}
			list = append(list, s)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return list, nil
}

// AppendRows appends rows to sheet id of account in one transaction and returns the sheet as
// it is afterwards; the new rows are numbers Rows-len(rows)+1 … Rows. Either all rows are
// stored or none.
func (db *DB) AppendRows(account, id string, rows ...[]string) (Sheet, error) {
	if len(rows) == 0 {
		return Sheet{}, errs.E(errs.InvalidConfig, "no row to append")
	}
	for i, row := range rows {
		if err := checkRow(fmt.Sprintf("row %d", i+1), row); err != nil {
			return Sheet{}, err
		}
	}
	var s Sheet
	err := db.bolt.Update(func(tx *bolt.Tx) error {
		var err error
		if s, err = getSheet(tx, account, id); err != nil {
			return err
		}
		if s.Rows+len(rows) > MaxSheetRows {
			return errs.E(errs.InvalidConfig, "sheet %s is full: it holds at most %d rows", id, MaxSheetRows)
		}
		b := tx.Bucket(bucketSheetRows).Bucket([]byte(id))
		if b == nil {
			return fmt.Errorf("store: sheet %s has no rows bucket", id)
		}
		for _, row := range rows {
			n, err := b.NextSequence()
			if err != nil {
				return fmt.Errorf("store: append to sheet %s: %w", id, err)
			}
			if row == nil {
				row = []string{}
			}
			data, err := json.Marshal(row)
			if err != nil {
				return fmt.Errorf("store: encode row of sheet %s: %w", id, err)
			}
			if err := b.Put(rowKey(n), data); err != nil {
				return fmt.Errorf("store: append to sheet %s: %w", id, err)
			}
			s.Rows = int(n)
		}
		s.Updated = db.timestamp()
		return putSheet(tx, s)
	})
	if err != nil {
		return Sheet{}, err
	}
	return s, nil
}

func rowKey(n uint64) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], n)
	return k[:]
}

// ReadRows returns the sheet and up to limit of its rows starting after offset rows (so
// offset 0 starts at row 1). limit <= 0 means DefaultReadLimit; it is capped at MaxReadLimit.
// Sheet and rows come from one transaction, so they agree.
func (db *DB) ReadRows(account, id string, offset, limit int) (Sheet, [][]string, error) {
	if limit <= 0 {
		limit = DefaultReadLimit
	}
	limit = min(limit, MaxReadLimit)
	offset = max(offset, 0)
	var s Sheet
	rows := [][]string{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		if s, err = getSheet(tx, account, id); err != nil {
			return err
		}
		b := tx.Bucket(bucketSheetRows).Bucket([]byte(id))
		if b == nil {
			return fmt.Errorf("store: sheet %s has no rows bucket", id)
		}
		c := b.Cursor()
		for k, v := c.Seek(rowKey(uint64(offset) + 1)); k != nil && len(rows) < limit; k, v = c.Next() {
			var row []string
			if err := json.Unmarshal(v, &row); err != nil {
				return fmt.Errorf("store: corrupt row %d of sheet %s: %w", binary.BigEndian.Uint64(k), id, err)
			}
			rows = append(rows, row)
		}
		return nil
	})
	if err != nil {
		return Sheet{}, nil, err
	}
	return s, rows, nil
}

// newestBefore places c, over keys that sort by creation, on the newest key older than the
// cursor before ("" for the newest of all; before itself is excluded) and answers it, nil when
// there is none: the start of a newest-first page.
func newestBefore(c *bolt.Cursor, before string) []byte {
	if before == "" {
		k, _ := c.Last()
		return k
	}
	if k, _ := c.Seek([]byte(before)); k == nil {
		k, _ = c.Last()
		return k
	}
	k, _ := c.Prev()
	return k
}
