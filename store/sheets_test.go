package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rodeo-run/rodeo/errs"
	bolt "go.etcd.io/bbolt"
)

// checkSheets verifies that every sheet's row count matches its rows bucket and that the rows
// are numbered 1…Rows without a gap.
func checkSheets(t *testing.T, db *DB) {
	t.Helper()
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSheets).ForEach(func(id, data []byte) error {
			var s Sheet
			if err := decodeRecord("sheet", id, data, &s); err != nil {
				return err
			}
			b := tx.Bucket(bucketSheetRows).Bucket(id)
			if b == nil {
				return fmt.Errorf("sheet %s has no rows bucket", id)
			}
			want := uint64(1)
			if err := b.ForEach(func(k, _ []byte) error {
				if got := binary.BigEndian.Uint64(k); got != want {
					return fmt.Errorf("sheet %s: row %d where %d was expected", id, got, want)
				}
				want++
				return nil
			}); err != nil {
				return err
			}
			if int(want-1) != s.Rows {
				return fmt.Errorf("sheet %s says %d rows but holds %d", id, s.Rows, want-1)
			}
			if idx := tx.Bucket(bucketAccountSheets).Bucket([]byte(s.Account)); idx == nil || idx.Get(id) == nil {
				return fmt.Errorf("sheet %s missing from the index of %s", id, s.Account)
			}
			return nil
		})
	})
	if err != nil {
		t.Error(err)
	}
}

func TestSheets_CreateAppendRead(t *testing.T) {
	db := openTestDB(t, "")
	s, err := db.CreateSheet("acme", "  Leads  ", []string{"name", "email"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.ID, "s_") || s.Name != "Leads" || s.Rows != 0 {
		t.Fatalf("created %+v", s)
	}
	got, err := db.AppendRows("acme", s.ID, []string{"Ada", "ada@example.com"})
	if err != nil || got.Rows != 1 {
		t.Fatalf("append: %+v %v", got, err)
	}
	got, err = db.AppendRows("acme", s.ID, []string{"Grace", "grace@example.com"}, []string{"Linus"}, nil)
	if err != nil || got.Rows != 4 {
		t.Fatalf("append 3: %+v %v", got, err)
	}
	sheet, rows, err := db.ReadRows("acme", s.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := "[Ada ada@example.com] [Grace grace@example.com] [Linus] []"
	if fmt.Sprint(rows) != "["+want+"]" || sheet.Rows != 4 || strings.Join(sheet.Header, ",") != "name,email" {
		t.Fatalf("read %+v %v", sheet, rows)
	}
	_, rows, err = db.ReadRows("acme", s.ID, 1, 2)
	if err != nil || fmt.Sprint(rows) != "[[Grace grace@example.com] [Linus]]" {
		t.Fatalf("offset 1 limit 2: %v %v", rows, err)
	}
	_, rows, err = db.ReadRows("acme", s.ID, 10, 2)
	if err != nil || len(rows) != 0 || rows == nil {
		t.Fatalf("past the end: %#v %v", rows, err)
	}
	checkSheets(t, db)
}

func TestSheets_OtherAccountIsNotFound(t *testing.T) {
	db := openTestDB(t, "")
	s, err := db.CreateSheet("acme", "Private", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetSheet("other", s.ID); !errors.Is(err, ErrNotFound) || errs.Code(err) != errs.NotFound {
		t.Fatalf("get: %v", err)
	}
	if _, err := db.AppendRows("other", s.ID, []string{"x"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("append: %v", err)
	}
	if _, _, err := db.ReadRows("other", s.ID, 0, 0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("read: %v", err)
	}
	if _, err := db.GetSheet("acme", "s_missing"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing: %v", err)
	}
	if list, err := db.ListSheets("other", 0, ""); err != nil || len(list) != 0 {
		t.Fatalf("other's list: %v %v", list, err)
	}
	if s, _ := db.GetSheet("acme", s.ID); s.Rows != 0 {
		t.Fatalf("another account's append changed the sheet: %+v", s)
	}
}

func TestSheets_ParallelAppendsLoseNothing(t *testing.T) {
	db := openTestDB(t, "")
	s, err := db.CreateSheet("acme", "Parallel", nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 50
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := db.AppendRows("acme", s.ID, []string{fmt.Sprint(i)}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	_, rows, err := db.ReadRows("acme", s.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r[0])
	}
	sort.Strings(got)
	var want []string
	for i := range n {
		want = append(want, fmt.Sprint(i))
	}
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("rows %v", got)
	}
	checkSheets(t, db)
}

func TestSheets_Limits(t *testing.T) {
	db := openTestDB(t, "")
	if _, err := db.CreateSheet("acme", "   ", nil); errs.Code(err) != errs.InvalidConfig {
		t.Fatalf("blank name: %v", err)
	}
	if _, err := db.CreateSheet("acme", strings.Repeat("n", MaxSheetNameLen+1), nil); errs.Code(err) != errs.InvalidConfig {
		t.Fatalf("long name: %v", err)
	}
	if _, err := db.CreateSheet("bad account!", "x", nil); errs.Code(err) != errs.InvalidConfig {
		t.Fatalf("bad account: %v", err)
	}
	s, err := db.CreateSheet("acme", "Limits", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AppendRows("acme", s.ID, []string{"ok"}, []string{strings.Repeat("x", MaxCellLen+1)}); errs.Code(err) != errs.InvalidConfig {
		t.Fatalf("long cell: %v", err)
	}
	if _, err := db.AppendRows("acme", s.ID, make([]string, MaxRowCells+1)); errs.Code(err) != errs.InvalidConfig {
		t.Fatalf("wide row: %v", err)
	}
	if s, _ := db.GetSheet("acme", s.ID); s.Rows != 0 {
		t.Fatalf("a refused append stored rows: %+v", s)
	}
	checkSheets(t, db)
}

func TestSheets_ListNewestFirst(t *testing.T) {
	db := openTestDB(t, "")
	var ids []string
	for i := range 5 {
		s, err := db.CreateSheet("acme", fmt.Sprint("sheet ", i), nil)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	if _, err := db.CreateSheet("other", "theirs", nil); err != nil {
		t.Fatal(err)
	}
	page, err := db.ListSheets("acme", 3, "")
	if err != nil || len(page) != 3 || page[0].ID != ids[4] || page[2].ID != ids[2] {
		t.Fatalf("page 1: %+v %v", page, err)
	}
	page, err = db.ListSheets("acme", 3, page[2].ID)
	if err != nil || len(page) != 2 || page[0].ID != ids[1] || page[1].ID != ids[0] {
		t.Fatalf("page 2: %+v %v", page, err)
	}
}

func TestSheets_SurviveReopen(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := db.CreateSheet("acme", "Durable", []string{"h"})
	if err == nil {
		_, err = db.AppendRows("acme", s.ID, []string{"a"}, []string{"b"})
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = openTestDB(t, dir)
	got, rows, err := db.ReadRows("acme", s.ID, 0, 0)
	if err != nil || got.Name != "Durable" || fmt.Sprint(rows) != "[[a] [b]]" {
		t.Fatalf("after reopen: %+v %v %v", got, rows, err)
	}
	// Row numbers go on from the sequence, not from a recount.
	if got, err = db.AppendRows("acme", s.ID, []string{"c"}); err != nil || got.Rows != 3 {
		t.Fatalf("append after reopen: %+v %v", got, err)
	}
	checkSheets(t, db)
}
