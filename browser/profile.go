package browser

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A launched Chrome's files are its profile directory and the directory of its process-singleton
// socket, which Chrome makes under $TMPDIR (org.chromium.Chromium.*, linked from the profile's
// SingletonSocket) and removes only on a graceful exit. rodeo kills Chrome, so removeProfile
// removes both; before it did, every recycled browser left a socket directory in /tmp. (Giving
// Chrome a $TMPDIR inside the profile directory instead fails when $TMPDIR is long: a socket
// path is limited to 107 bytes.) A rodeo process that dies without closing its browsers (a
// crash, a SIGKILL, a test binary whose Chrome leakless killed) leaves both behind; every Launch
// first sweeps such leftovers away (a glob and a readlink or two each: nothing next to starting
// Chrome).

const (
	// profilePrefix names the directory of one launched Chrome under os.TempDir().
	profilePrefix = "rodeo-chrome-"
	// profileGrace is how old a directory without Chrome's lock must be to be swept: one that
	// another launch has just made and whose Chrome has not started yet is younger.
	profileGrace = 10 * time.Minute
)

// newProfileDir sweeps the leftovers of dead Chromes and makes the directory of a new one (its
// user data directory is dir/profile).
func newProfileDir() (dir string, err error) {
	sweepProfiles(os.TempDir(), time.Now())
	return os.MkdirTemp("", profilePrefix)
}

// removeProfile removes the directory of a Chrome that has exited, and its socket directory.
func removeProfile(dir string) error {
	if sd := socketDir(dir); sd != "" {
		_ = os.RemoveAll(sd)
	}
	return os.RemoveAll(dir)
}

// socketDir is the socket directory of the Chrome whose directory is dir, "" for none.
func socketDir(dir string) string {
	sock, err := os.Readlink(filepath.Join(dir, "profile", "SingletonSocket"))
	if err != nil {
		return ""
	}
	if sd := filepath.Dir(sock); strings.HasPrefix(filepath.Base(sd), "org.chromium.Chromium.") {
		return sd
	}
	return ""
}

// sweepProfiles removes the directories under root of Chromes that are gone: the profile's
// SingletonLock (a symlink to "host-pid") names this host and a process that no longer runs, or
// there is no lock and the directory is older than profileGrace. A directory of a Chrome that
// runs (another rodeo, another test binary) or of another host sharing root is left alone. It
// returns how many it removed.
func sweepProfiles(root string, now time.Time) int {
	dirs, _ := filepath.Glob(filepath.Join(root, profilePrefix+"*"))
	host, _ := os.Hostname()
	removed := 0
	for _, dir := range dirs {
		if !staleProfile(dir, host, now) {
			continue
		}
		if removeProfile(dir) == nil {
			removed++
		}
	}
	return removed
}

// staleProfile reports whether dir belongs to a Chrome that no longer runs (see sweepProfiles).
func staleProfile(dir, host string, now time.Time) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	lock, err := os.Readlink(filepath.Join(dir, "profile", "SingletonLock"))
	if err != nil {
		return now.Sub(fi.ModTime()) > profileGrace
	}
	i := strings.LastIndexByte(lock, '-')
	if i < 0 || lock[:i] != host {
		return false
	}
	pid, err := strconv.Atoi(lock[i+1:])
	if err != nil || pid <= 0 {
		return false
	}
	return syscall.Kill(pid, 0) == syscall.ESRCH
}
