package store

import (
	"slices"
	"testing"
)

// TestScanRuns_StopsAtMatchesOrBound: the walk is newest first from the cursor, stops when fn
// says so or after max runs, and says whether older runs are left.
func TestScanRuns_StopsAtMatchesOrBound(t *testing.T) {
	db := openTestDB(t, "")
	ids := putRuns(t, db, "acme", 6) // oldest first
	putRuns(t, db, "other", 2)
	for _, tc := range []struct {
		name, before string
		max, stopAt  int // stopAt: fn answers false on the stopAt-th run (0: never)
		wantRead     []string
		wantMore     bool
	}{
		{"whole walk", "", 0, 0, []string{ids[5], ids[4], ids[3], ids[2], ids[1], ids[0]}, false},
		{"bounded", "", 2, 0, []string{ids[5], ids[4]}, true},
		{"bound equals the runs", "", 6, 0, []string{ids[5], ids[4], ids[3], ids[2], ids[1], ids[0]}, false},
		{"fn stops", "", 0, 3, []string{ids[5], ids[4], ids[3]}, true},
		{"fn stops at the oldest", "", 0, 6, []string{ids[5], ids[4], ids[3], ids[2], ids[1], ids[0]}, false},
		{"from a cursor", ids[3], 0, 0, []string{ids[2], ids[1], ids[0]}, false},
		{"cursor is oldest", ids[0], 0, 0, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var read []string
			last, more, err := db.ScanRuns("acme", tc.before, tc.max, func(r RunRecord) (bool, error) {
				if r.Account != "acme" {
					t.Errorf("run %s of %s read for acme", r.ID, r.Account)
				}
				read = append(read, r.ID)
				return len(read) != tc.stopAt, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(read, tc.wantRead) || more != tc.wantMore {
				t.Errorf("read %v more %v, want %v more %v", read, more, tc.wantRead, tc.wantMore)
			}
			if wantLast := ""; len(tc.wantRead) > 0 && last != tc.wantRead[len(tc.wantRead)-1] || len(tc.wantRead) == 0 && last != wantLast {
				t.Errorf("last %q", last)
			}
		})
	}
	if _, more, err := db.ScanRuns("nobody", "", 0, func(RunRecord) (bool, error) { t.Error("read a run of nobody"); return true, nil }); err != nil || more {
		t.Errorf("unknown account: more %v err %v", more, err)
	}
}
