package server

import (
	"strings"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

func TestLimiter_PerKeyBucket(t *testing.T) {
	l := newLimiter(3)
	now := time.Unix(0, 0)
	l.now = func() time.Time { return now }
	for i := 0; i < 3; i++ {
		if err := l.allow("k1"); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	err := l.allow("k1")
	if !errs.Is(err, errs.RateLimited) || !strings.Contains(err.Error(), "3 a minute") {
		t.Fatalf("4th request: %v", err)
	}
	if e := err.(*errs.Error); e.RetryAfter != 20*time.Second {
		t.Fatalf("retry after %s, want 20s (one token at 3 a minute)", e.RetryAfter)
	}
	if err := l.allow("k2"); err != nil {
		t.Fatalf("another key shares no bucket: %v", err)
	}
	now = now.Add(20 * time.Second) // one token back at 3 a minute
	if err := l.allow("k1"); err != nil {
		t.Fatalf("after 20s: %v", err)
	}
	if err := l.allow("k1"); !errs.Is(err, errs.RateLimited) {
		t.Fatalf("the refilled token was used: %v", err)
	}
	if newLimiter(0).allow("k") != nil {
		t.Fatal("0 means no limit")
	}
}
