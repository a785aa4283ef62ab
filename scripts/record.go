package scripts

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/rodeo-run/rodeo/store"
)

// Recording: a run with "record": true (or every run of a server started with --record) keeps a
// screenshot of the page after each browser step as a run artifact, step-<path>.jpg, and names
// it in the step's detail as "screenshot". The studio steps through them. Recording never fails
// or slows a step by more than recordTimeout: a capture that fails is left out.

const (
	// MaxRecordedShot caps one recorded screenshot; a larger capture is retaken at a lower
	// quality, then left out.
	MaxRecordedShot = 400 << 10
	recordTimeout   = 3 * time.Second
)

// records reports whether the run keeps step screenshots.
func (e *Env) records() bool {
	if e.run != nil && e.run.Script != nil && e.run.Script.Record {
		return true
	}
	return e.runner != nil && e.runner.Services != nil && e.runner.Services.RecordSteps
}

// recordStep captures the page after a browser step into the store and the step's detail. It
// uses the run's page only when the run already has one: recording never leases a browser.
func (e *Env) recordStep(ctx context.Context, c *Call, step *Step) {
	// A browser step: one that leases the page, or one that decides at run time (a keypress
	// with no browser_mode) and does not drive the desktop.
	browserStep := c.NeedsBrowser() || c.Spec.Uses != nil && !c.NeedsDesktop()
	if !browserStep || step.Status == StepSkipped || ctx.Err() != nil || !e.records() {
		return
	}
	db := e.Services().Store
	if db == nil || e.Account == "" {
		return
	}
	e.browser.mu.Lock()
	page := e.browser.page
	e.browser.mu.Unlock()
	if page == nil {
		return
	}
	cctx, cancel := context.WithTimeout(ctx, recordTimeout)
	defer cancel()
	var img []byte
	for _, quality := range []int{70, 35} {
		shot, err := page.Context(cctx).Screenshot(false, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatJpeg, Quality: &quality})
		if err != nil {
			e.Logger.Info("step screenshot not taken", "node", c.Path, "err", err)
			return
		}
		if len(shot) <= MaxRecordedShot {
			img = shot
			break
		}
	}
	if img == nil {
		step.Detail["screenshot_skipped"] = fmt.Sprintf("larger than %d bytes", MaxRecordedShot)
		return
	}
	name := "step-" + strings.ReplaceAll(c.Path, ".", "-") + ".jpg"
	if err := db.PutArtifact(store.Artifact{Run: e.RunID, Account: e.Account, Name: name, ContentType: "image/jpeg", Data: img}); err != nil {
		e.Logger.Info("step screenshot not stored", "node", c.Path, "err", err)
		return
	}
	step.Detail["screenshot"] = store.ArtifactPath(e.RunID, name)
}
