package triggers

import (
	"testing"
	"time"
)

func mustLoc(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("timezone %s: %v (is tzdata installed?)", name, err)
	}
	return loc
}

func at(t *testing.T, loc *time.Location, s string) time.Time {
	t.Helper()
	v, err := time.ParseInLocation("2006-01-02 15:04 -0700", s, loc)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestCronSlots checks slot times across ordinary days and both daylight-saving changes of New
// York in 2026 (spring forward 8 March 02:00 -> 03:00, fall back 1 November 02:00 -> 01:00).
func TestCronSlots(t *testing.T) {
	ny := mustLoc(t, "America/New_York")
	cases := []struct {
		name, cron, from string
		want             []string // the next slots, written with their UTC offsets
	}{
		{"every weekday at 9", "0 9 * * 1-5", "2026-03-06 08:00 -0500",
			[]string{"2026-03-06 09:00 -0500", "2026-03-09 09:00 -0400", "2026-03-10 09:00 -0400"}},
		{"daily in the skipped hour fires late by the gap", "30 2 * * *", "2026-03-07 03:00 -0500",
			[]string{"2026-03-08 03:30 -0400", "2026-03-09 02:30 -0400"}},
		{"hourly across spring forward", "0 * * * *", "2026-03-08 00:30 -0500",
			[]string{"2026-03-08 01:00 -0500", "2026-03-08 03:00 -0400", "2026-03-08 04:00 -0400"}},
		{"every 2 hours keeps the skipped one", "0 */2 * * *", "2026-03-08 00:30 -0500",
			[]string{"2026-03-08 03:00 -0400", "2026-03-08 04:00 -0400"}},
		{"daily in the repeated hour fires once", "30 1 * * *", "2026-10-31 12:00 -0400",
			[]string{"2026-11-01 01:30 -0400", "2026-11-02 01:30 -0500"}},
		{"every 30 minutes runs through the repeated hour", "*/30 * * * *", "2026-11-01 00:45 -0400",
			[]string{"2026-11-01 01:00 -0400", "2026-11-01 01:30 -0400", "2026-11-01 01:00 -0500",
				"2026-11-01 01:30 -0500", "2026-11-01 02:00 -0500"}},
		{"dom or dow", "0 12 1 * 1", "2026-06-01 13:00 -0400",
			[]string{"2026-06-08 12:00 -0400", "2026-06-15 12:00 -0400", "2026-06-22 12:00 -0400", "2026-06-29 12:00 -0400", "2026-07-01 12:00 -0400"}},
		{"descriptor", "@monthly", "2026-01-15 00:00 -0500",
			[]string{"2026-02-01 00:00 -0500", "2026-03-01 00:00 -0500"}},
		{"leap day", "0 0 29 2 *", "2026-01-01 00:00 -0500", []string{"2028-02-29 00:00 -0500"}},
		{"never", "0 0 30 2 *", "2026-01-01 00:00 -0500", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ct, err := parseCron(tc.cron, ny)
			if err != nil {
				t.Fatal(err)
			}
			n := len(tc.want)
			if n == 0 {
				n = 1
			}
			got := nextTimes(ct, at(t, ny, tc.from), n)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d slots %v, want %v", len(got), got, tc.want)
			}
			for i, w := range tc.want {
				if !got[i].Equal(at(t, ny, w)) {
					t.Errorf("slot %d = %s, want %s", i, got[i].In(ny).Format("2006-01-02 15:04 -0700"), w)
				}
			}
		})
	}
}

func TestCronRefused(t *testing.T) {
	for _, expr := range []string{"", "* * * *", "61 * * * *", "@every 5m", "CRON_TZ=UTC 0 9 * * *", "0 0 9 * * *", "every day"} {
		if _, err := parseCron(expr, time.UTC); err == nil {
			t.Errorf("%q was accepted", expr)
		}
	}
}

func TestEverySlots(t *testing.T) {
	anchor := time.Date(2026, 11, 1, 5, 0, 7, 0, time.UTC)
	e := everyTimes{anchor: anchor, every: 90 * time.Minute}
	got := nextTimes(e, anchor.Add(time.Hour), 3)
	want := []time.Time{anchor.Add(90 * time.Minute), anchor.Add(180 * time.Minute), anchor.Add(270 * time.Minute)}
	for i := range want {
		if !got[i].Equal(want[i]) {
			t.Errorf("slot %d = %s, want %s", i, got[i], want[i])
		}
	}
	if n := e.Next(anchor.Add(90 * time.Minute)); !n.Equal(anchor.Add(180 * time.Minute)) {
		t.Errorf("the slot after a slot is %s", n)
	}
}
