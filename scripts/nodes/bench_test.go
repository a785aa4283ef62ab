package nodes_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/scripts"
)

// signup is the README's 5-action agent.
const signup = `[
  {"type":"open tab","target":"BASE/form.html"},
  {"type":"click","target":"the email field","browser_mode":true},
  {"type":"keypress","prompt":"ada@example.com"},
  {"type":"click","target":"the button that says Submit","browser_mode":true},
  {"type":"semanticScrape","target":"the confirmation message","data":"msg"}]`

// rawSignup is the same five actions written directly in go-rod with CSS selectors, as a rod user
// would write them (no verification).
func rawSignup(ctx context.Context, p *browser.Pool, url string) (string, error) {
	s, err := p.Lease(ctx)
	if err != nil {
		return "", err
	}
	defer s.Release()
	page := s.Page().Context(ctx)
	if err := page.Navigate(url); err != nil {
		return "", err
	}
	if err := page.WaitLoad(); err != nil {
		return "", err
	}
	email, err := page.Element("#email")
	if err != nil {
		return "", err
	}
	if err := email.Click(proto.InputMouseButtonLeft, 1); err != nil {
		return "", err
	}
	if err := email.Input("ada@example.com"); err != nil {
		return "", err
	}
	submit, err := page.Element("#submit")
	if err != nil {
		return "", err
	}
	if err := submit.Click(proto.InputMouseButtonLeft, 1); err != nil {
		return "", err
	}
	msg, err := page.Element("#confirmation")
	if err != nil {
		return "", err
	}
	return msg.Text()
}

// BenchmarkOverhead runs the 5-action agent through the rodeo runner (resolution of English
// targets, verification of every step) and the same actions in raw go-rod, alternating on the same
// page and pool, and reports both medians and their ratio.
func BenchmarkOverhead(b *testing.B) {
	p := testPool(b)
	srv := httptest.NewServer(http.FileServer(http.Dir("../../testdata/site"))) // the README's form
	defer srv.Close()
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(strings.ReplaceAll(signup, "BASE", srv.URL)), &raw); err != nil {
		b.Fatal(err)
	}
	script, err := scripts.DefaultRegistry.Compile("sign up", raw, nil)
	if err != nil {
		b.Fatal(err)
	}
	runner := &scripts.Runner{Registry: scripts.DefaultRegistry, Browsers: scripts.LeaserFunc(func(ctx context.Context) (scripts.BrowserSession, error) {
		s, err := p.Lease(ctx)
		if err != nil {
			return nil, err
		}
		return s, nil
	})}
	waitIdle := func() { // both sides start from a warm context
		for p.Stats().Idle < 1 {
			time.Sleep(5 * time.Millisecond)
		}
	}
	var rodeoTimes, rawTimes []time.Duration
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		waitIdle()
		start := time.Now()
		r := scripts.NewRun("r_bench", "bench", "bench", script)
		runner.Execute(ctx, r, scripts.ExecOptions{Timeout: time.Minute})
		rodeoTimes = append(rodeoTimes, time.Since(start))
		if d := r.Doc(); d.Status != scripts.StatusSucceeded {
			b.Fatalf("rodeo run: %s", dump(d))
		}
		waitIdle()
		start = time.Now()
		msg, err := rawSignup(ctx, p, srv.URL+"/form.html")
		rawTimes = append(rawTimes, time.Since(start))
		if err != nil || !strings.Contains(msg, "ada@example.com") {
			b.Fatalf("raw rod: %q %v", msg, err)
		}
	}
	b.StopTimer()
	r, w := median(rodeoTimes), median(rawTimes)
	b.ReportMetric(ms(r), "rodeo-p50-ms")
	b.ReportMetric(ms(w), "rod-p50-ms")
	b.ReportMetric(float64(r)/float64(w), "ratio")
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
