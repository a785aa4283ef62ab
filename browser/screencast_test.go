package browser_test

import (
	"bytes"
	"context"
	"image/jpeg"
	"sync"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/browser/browsertest"
)

// TestScreencast_FramesBoundedInRateAndSize: a page repainting every 50 ms yields JPEG frames
// no larger than the box and no more often than MinInterval, and the screencast stops with ctx.
func TestScreencast_FramesBoundedInRateAndSize(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chrome; skipped with -short")
	}
	page := browsertest.Page(t, browsertest.Serve(t, "testdata")+"/ticker.html")
	for _, tc := range []struct {
		name     string
		opt      browser.ScreencastOptions
		maxWidth int
	}{
		{"defaults", browser.ScreencastOptions{}, 1280},
		{"small box, 4 per second", browser.ScreencastOptions{MaxWidth: 320, MaxHeight: 200, MinInterval: 250 * time.Millisecond}, 320},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var frames []browser.Frame
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			start := time.Now()
			err := browser.Screencast(ctx, page, tc.opt, func(f browser.Frame) {
				mu.Lock()
				frames = append(frames, f)
				mu.Unlock()
			})
			if err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); took > 4*time.Second {
				t.Errorf("Screencast returned %v after its context ended", took)
			}
			mu.Lock()
			defer mu.Unlock()
			interval := tc.opt.MinInterval
			if interval == 0 {
				interval = 200 * time.Millisecond
			}
			if limit := int(2*time.Second/interval) + 1; len(frames) < 2 || len(frames) > limit {
				t.Fatalf("%d frames in 2 s, want 2 to %d", len(frames), limit)
			}
			for i, f := range frames {
				img, err := jpeg.Decode(bytes.NewReader(f.JPEG))
				if err != nil {
					t.Fatalf("frame %d is not a JPEG: %v", i, err)
				}
				if w := img.Bounds().Dx(); w > tc.maxWidth || w == 0 {
					t.Errorf("frame %d is %d px wide, want at most %d", i, w, tc.maxWidth)
				}
				if i > 0 && f.At.Sub(frames[i-1].At) < interval-20*time.Millisecond {
					t.Errorf("frames %d and %d are %v apart, want at least %v", i-1, i, f.At.Sub(frames[i-1].At), interval)
				}
			}
		})
	}
}

// BenchmarkScreencast_Frame measures one live-view frame of a repainting page at the studio's
// bounds (1280×800 box, JPEG quality 60), paced only by Chrome (MinInterval 1 ms): the time
// Chrome takes per frame and the bytes a viewer receives per frame.
func BenchmarkScreencast_Frame(b *testing.B) {
	page := browsertest.Page(b, browsertest.Serve(b, "testdata")+"/ticker.html")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	frames, size, width := 0, 0, 0
	b.ResetTimer()
	err := browser.Screencast(ctx, page, browser.ScreencastOptions{MinInterval: time.Millisecond}, func(f browser.Frame) {
		frames++
		size += len(f.JPEG)
		width = f.Width
		if frames == b.N {
			cancel()
		}
	})
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if frames > 0 {
		b.ReportMetric(float64(size)/float64(frames), "bytes/frame")
		b.ReportMetric(float64(width), "page-px-wide")
	}
}
