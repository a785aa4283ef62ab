package browser_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/rodeo-run/rodeo/browser"
	"github.com/rodeo-run/rodeo/browser/browsertest"
)

// TestLaunch_LeavesNoFiles: a closed Chrome leaves nothing in the temporary directory (before,
// each killed Chrome left its singleton-socket directory there, and the test Chrome of every
// test binary its whole profile), and the files of one whose rodeo died without closing it are
// swept away by the next launch.
func TestLaunch_LeavesNoFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("launches Chrome")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	launch := func() *browser.Process {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		p, err := browser.Launch(ctx, browser.LaunchOptions{Flags: browsertest.OfflineFlags})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Browser.Version(); err != nil { // Chrome is up and has made its files
			t.Fatal(err)
		}
		return p
	}
	left := func() []string {
		ents, _ := os.ReadDir(tmp)
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		return names
	}

	p := launch()
	if got := left(); len(got) != 2 {
		t.Errorf("a running Chrome has %v in TMPDIR, want its profile and socket directories", got)
	}
	p.Close()
	if got := left(); len(got) != 0 {
		t.Errorf("after Close, TMPDIR holds %v", got)
	}

	// A rodeo that died: its Chrome killed (as leakless does), Close never called.
	crashed := launch()
	pid := crashed.PID()
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	eventually(t, 10*time.Second, "the killed Chrome exits and is reaped", func() bool { return syscall.Kill(pid, 0) == syscall.ESRCH })
	stale := left()
	if len(stale) != 2 {
		t.Fatalf("a killed Chrome left %v, want its profile and socket directories", stale)
	}
	next := launch()
	for _, name := range stale {
		if _, err := os.Stat(filepath.Join(tmp, name)); err == nil {
			t.Errorf("the next launch kept the dead Chrome's %s", name)
		}
	}
	next.Close()
	if got := left(); len(got) != 0 {
		t.Errorf("after the second Close, TMPDIR holds %v", got)
	}
}
