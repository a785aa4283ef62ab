package store

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

var idPattern = regexp.MustCompile(`^r_[0-7][0-9A-HJKMNP-TV-Z]{25}$`)

func TestNewID_SortableAndUnique(t *testing.T) {
	const n = 10000
	seen := make(map[string]bool, n)
	prev := ""
	for i := range n {
		id := NewID("r")
		if !idPattern.MatchString(id) {
			t.Fatalf("id %q has the wrong shape", id)
		}
		if seen[id] {
			t.Fatalf("id %s repeated after %d ids", id, i)
		}
		if id <= prev {
			t.Fatalf("id %s does not sort after the previous %s", id, prev)
		}
		seen[id], prev = true, id
	}
}

func TestNewID_Prefix(t *testing.T) {
	for _, tc := range []struct{ prefix, start string }{
		{"r", "r_"},
		{"run", "run_"},
		{"", ""},
	} {
		id := NewID(tc.prefix)
		if !strings.HasPrefix(id, tc.start) || len(id) != len(tc.start)+idLen {
			t.Errorf("NewID(%q) = %q", tc.prefix, id)
		}
	}
}

func TestNewID_Time(t *testing.T) {
	// Leave the generator as it was, so the far-future ids made here do not shape later tests.
	idGen.Lock()
	saved := idGen.ms
	savedHi, savedLo := idGen.hi, idGen.lo
	idGen.Unlock()
	t.Cleanup(func() {
		idGen.Lock()
		idGen.ms, idGen.hi, idGen.lo = saved, savedHi, savedLo
		idGen.Unlock()
	})

	t0 := time.Now().Add(time.Hour) // ahead of the ids other tests made
	a := newID(t0)
	b := newID(t0.Add(time.Millisecond))
	c := newID(t0.Add(-time.Minute)) // clock stepped back
	d := newID(t0.Add(24 * time.Hour))
	if !(a < b && b < c && c < d) {
		t.Errorf("ids not increasing: %s %s %s %s", a, b, c, d)
	}
	// The leading 10 digits are the timestamp: ids of later milliseconds sort after, whatever
	// their random part.
	if a[:10] >= b[:10] || b[:10] != c[:10] || b[:10] >= d[:10] {
		t.Errorf("timestamp digits: %s %s %s %s", a[:10], b[:10], c[:10], d[:10])
	}
	if got, want := decodeMillis(t, d), uint64(t0.Add(24*time.Hour).UnixMilli()); got != want {
		t.Errorf("timestamp of %s is %d, want %d", d, got, want)
	}
}

func decodeMillis(t *testing.T, id string) uint64 {
	t.Helper()
	var ms uint64
	for _, c := range id[:10] {
		i := strings.IndexRune(crockford, c)
		if i < 0 {
			t.Fatalf("digit %q not in the alphabet", c)
		}
		ms = ms<<5 | uint64(i)
	}
	return ms // 10 digits are 50 bits: the 2 unused top bits of the 130, then the 48 of time
}

func TestEncodeID_Known(t *testing.T) {
	for _, tc := range []struct {
		ms, hi, lo uint64
		want       string
	}{
		{0, 0, 0, "00000000000000000000000000"},
		{0, 0, 1, "00000000000000000000000001"},
		{0, 0, 32, "00000000000000000000000010"},
		{0, 1, 0, "0000000000000G000000000000"}, // 1<<64 = 16 * 32^12
		{1, 0, 0, "00000000010000000000000000"}, // 1<<80 = 32^16
		{1<<48 - 1, 0xffff, 1<<64 - 1, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"},
	} {
		if got := encodeID(tc.ms, tc.hi, tc.lo); got != tc.want {
			t.Errorf("encodeID(%d, %d, %d) = %s, want %s", tc.ms, tc.hi, tc.lo, got, tc.want)
		}
	}
}

func BenchmarkNewID(b *testing.B) {
	for b.Loop() {
		NewID("r")
	}
}
