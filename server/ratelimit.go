package server

import (
	"math"
	"sync"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

// limiter is a token bucket per API key: perMinute requests a minute, bursts up to perMinute.
// It runs after authentication, so unknown keys are refused (401) before they cost anything.
type limiter struct {
	perMinute float64
	now       func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(perMinute int) *limiter {
	if perMinute <= 0 {
		return nil
	}
	return &limiter{perMinute: float64(perMinute), now: time.Now, buckets: map[string]*bucket{}}
}

// allow takes a token for key, or answers rate_limited with how long until the next one.
func (l *limiter) allow(key string) error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.buckets[key]
	if b == nil {
		b = &bucket{tokens: l.perMinute, last: now}
		l.buckets[key] = b
	}
	b.tokens = math.Min(l.perMinute, b.tokens+now.Sub(b.last).Minutes()*l.perMinute)
	b.last = now
	if b.tokens < 1 {
		wait := time.Duration((1 - b.tokens) / l.perMinute * float64(time.Minute))
		return &errs.Error{Code: errs.RateLimited, RetryAfter: wait, Message: "too many requests for this API key: the limit is " +
			itoa(int(l.perMinute)) + " a minute; retry in " + wait.Round(time.Second).String()}
	}
	b.tokens--
	return nil
}
