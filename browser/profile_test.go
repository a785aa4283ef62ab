package browser

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestSweepProfiles: the directories of Chromes that are gone are removed, with the socket
// directory an old profile points to; those of a running Chrome, of another host, of a launch
// still starting, and anything not rodeo's are kept.
func TestSweepProfiles(t *testing.T) {
	root := t.TempDir()
	host, _ := os.Hostname()
	exited := exec.Command("true")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	dead := strconv.Itoa(exited.Process.Pid)
	now := time.Now()

	mk := func(name, lock string, age time.Duration) string {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Join(dir, "profile"), 0o700); err != nil {
			t.Fatal(err)
		}
		if lock != "" {
			if err := os.Symlink(lock, filepath.Join(dir, "profile", "SingletonLock")); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chtimes(dir, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	// An old profile whose socket directory is outside it, as before Chrome got its own TMPDIR.
	sockDir := filepath.Join(root, "org.chromium.Chromium.abc123")
	if err := os.Mkdir(sockDir, 0o700); err != nil {
		t.Fatal(err)
	}
	crashed := mk(profilePrefix+"crashed", host+"-"+dead, time.Hour)
	if err := os.Symlink(filepath.Join(sockDir, "SingletonSocket"), filepath.Join(crashed, "profile", "SingletonSocket")); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		dir  string
		kept bool
	}{
		{crashed, false},
		{sockDir, false},
		{mk(profilePrefix+"running", host+"-"+strconv.Itoa(os.Getpid()), time.Hour), true},
		{mk(profilePrefix+"other-host", "elsewhere-"+dead, time.Hour), true},
		{mk(profilePrefix+"starting", "", time.Minute), true},
		{mk(profilePrefix+"never-started", "", profileGrace+time.Minute), false},
		{mk(profilePrefix+"odd-lock", "no-pid-here", time.Hour), true},
		{mk("someone-else-"+dead, host+"-"+dead, time.Hour), true},
	}
	if n := sweepProfiles(root, now); n != 2 {
		t.Errorf("removed %d directories, want 2", n)
	}
	for _, c := range cases {
		_, err := os.Stat(c.dir)
		if kept := err == nil; kept != c.kept {
			t.Errorf("%s: kept %v, want %v", filepath.Base(c.dir), kept, c.kept)
		}
	}
}
