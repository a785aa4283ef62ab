package browser

import (
	"context"
	"fmt"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// ScreencastOptions bound what watching a page costs: Chrome scales frames down to fit the box,
// encodes them as JPEG at Quality, and sends the next one only after the last is acknowledged,
// which Screencast does no sooner than MinInterval after the last frame.
type ScreencastOptions struct {
	// MaxWidth and MaxHeight box the frames. Optional. Default: 1280×800.
	MaxWidth, MaxHeight int
	// Quality is the JPEG quality, 1-100. Optional. Default: 60.
	Quality int
	// MinInterval is the least time between two frames. Optional. Default: 200 ms (5 per second).
	MinInterval time.Duration
	// MaxBytes drops a frame whose JPEG is larger (it is still acknowledged). Optional.
	// Default: 512 KiB.
	MaxBytes int
}

func (o ScreencastOptions) withDefaults() ScreencastOptions {
	if o.MaxWidth <= 0 {
		o.MaxWidth = 1280
	}
	if o.MaxHeight <= 0 {
		o.MaxHeight = 800
	}
	if o.Quality <= 0 || o.Quality > 100 {
		o.Quality = 60
	}
	if o.MinInterval <= 0 {
		o.MinInterval = 200 * time.Millisecond
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 512 << 10
	}
	return o
}

// Frame is one screencast picture of a page.
type Frame struct {
	JPEG          []byte
	Width, Height int // the page's size in CSS pixels when the frame was taken (the JPEG may be smaller)
	At            time.Time
}

// Screencast streams page's frames to onFrame until ctx ends, then stops the screencast. A page
// that closes just sends nothing more: the caller ends ctx when the page's run moves on. It reads the page only: the run using the page is not slowed beyond the
// encoding Chrome does. Chrome sends a frame when the page paints, so a still page yields one
// frame and then nothing until it changes.
func Screencast(ctx context.Context, page *rod.Page, opt ScreencastOptions, onFrame func(Frame)) error {
	opt = opt.withDefaults()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := page.Context(ctx)
	// Subscribe before starting, or the first frame could be missed.
	wait := p.EachEvent(func(e *proto.PageScreencastFrame) bool {
		if len(e.Data) > 0 && len(e.Data) <= opt.MaxBytes {
			w, h := 0, 0
			if e.Metadata != nil {
				w, h = int(e.Metadata.DeviceWidth), int(e.Metadata.DeviceHeight)
			}
			onFrame(Frame{JPEG: e.Data, Width: w, Height: h, At: time.Now()})
		}
		t := time.NewTimer(opt.MinInterval)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return true
		}
		// The acknowledgement asks Chrome for the next frame: pacing it paces Chrome.
		_ = proto.PageScreencastFrameAck{SessionID: e.SessionID}.Call(p)
		return false
	})
	q := opt.Quality
	err := proto.PageStartScreencast{Format: proto.PageStartScreencastFormatJpeg, Quality: &q,
		MaxWidth: &opt.MaxWidth, MaxHeight: &opt.MaxHeight}.Call(p)
	if err != nil {
		cancel()
		wait()
		return fmt.Errorf("start screencast: %w", err)
	}
	wait()
	// The page may be closed by now; stopping then fails harmlessly. The stop gets its own short
	// deadline, since ctx is usually what ended the wait.
	stopCtx, stop := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer stop()
	_ = proto.PageStopScreencast{}.Call(page.Context(stopCtx))
	return nil
}
