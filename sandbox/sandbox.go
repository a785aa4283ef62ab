// Package sandbox runs untrusted code (the python and bash nodes, gpt4's code answers) under
// bubblewrap: a fresh mount, PID, IPC, UTS and user namespace where the run's folder is the only
// writable place, the system's programs and libraries are read-only, and nothing else of the host
// (the data directory, other runs' folders, the server's environment, other processes' /proc) is
// there at all. CPU time, memory and process count are capped with prlimit inside; the network
// stays unless Config.NoNetwork.
package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rodeo-run/rodeo/errs"
)

// Unavailable is the error code of a code node when bubblewrap cannot run and the server did not
// say --code-sandbox=off.
const Unavailable = "sandbox_unavailable"

// Default limits of one execution.
const (
	DefaultCPU       = 120 * time.Second
	DefaultMemory    = 2 << 30 // address space, bytes
	DefaultProcesses = 64
)

// A root server runs each execution as its own unprivileged user, taken from this range and given
// back when the execution ends: the process limit counts per user (and never holds for root), the
// host's root-only files stay closed, and /proc of the sandbox's root-owned PID 1 is unreadable.
const (
	firstUID = 200000
	uidCount = 4096
)

var uids struct {
	mu    sync.Mutex
	inUse map[int]bool
	next  int
}

// takeUID reserves a sandbox user; giveUID returns it.
func takeUID() (int, error) {
	uids.mu.Lock()
	defer uids.mu.Unlock()
	if uids.inUse == nil {
		uids.inUse = map[int]bool{}
	}
	for i := 0; i < uidCount; i++ {
		u := firstUID + (uids.next+i)%uidCount
		if !uids.inUse[u] {
			uids.inUse[u] = true
			uids.next = (u - firstUID + 1) % uidCount
			return u, nil
		}
	}
	return 0, errs.E(errs.Busy, "%d code executions are running: no sandbox user is free", uidCount)
}

func giveUID(u int) {
	uids.mu.Lock()
	defer uids.mu.Unlock()
	delete(uids.inUse, u)
}

// Config is the sandbox policy. The zero value is the default: sandboxed, with network, the
// default limits.
type Config struct {
	// Off runs code without the sandbox (--code-sandbox=off): the operator's explicit choice.
	Off bool
	// NoNetwork gives the code no network at all (--code-network=false): only its own loopback.
	NoNetwork bool
	// CPU, Memory and Processes override the default limits when positive.
	CPU       time.Duration
	Memory    int64
	Processes int
	// Bwrap is the bubblewrap executable. Optional. Default: bwrap on PATH.
	Bwrap string
}

func (c *Config) limits() (cpu int, mem int64, procs int) {
	cpu, mem, procs = int(DefaultCPU/time.Second), DefaultMemory, DefaultProcesses
	if c.CPU > 0 {
		cpu = max(1, int(c.CPU/time.Second))
	}
	if c.Memory > 0 {
		mem = c.Memory
	}
	if c.Processes > 0 {
		procs = c.Processes
	}
	return cpu, mem, procs
}

// etcFiles are what programs need of /etc (name resolution, TLS roots, users, the dynamic
// loader, time zones); the rest of /etc stays out.
var etcFiles = []string{"resolv.conf", "hosts", "host.conf", "nsswitch.conf", "gai.conf", "passwd", "group",
	"ssl", "ca-certificates", "ca-certificates.conf", "localtime", "timezone", "alternatives", "ld.so.cache",
	"ld.so.conf", "ld.so.conf.d", "mime.types", "protocols", "services", "python3", "python3.11", "bash.bashrc", "profile"}

// Command returns a command that runs argv in the sandbox with dir as its only writable folder
// and env as its whole environment; done must be called once the command has ended. A root
// server runs bwrap as root (no user namespace: the mounts need no traversal rights) and drops
// the code to a user of its own inside (setpriv), after prlimit set the limits; dir is handed to
// that user first (chownTree) so the code can use what other nodes wrote there. A server that is
// not root relies on an unprivileged user namespace instead.
func (c *Config) Command(ctx context.Context, dir string, env []string, argv []string) (cmd *exec.Cmd, done func(), err error) {
	done = func() {}
	if c.Off {
		bin, err := exec.LookPath(argv[0])
		if err != nil {
			return nil, done, err
		}
		cmd := exec.CommandContext(ctx, bin, argv[1:]...)
		cmd.Dir, cmd.Env = dir, env
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
		return cmd, done, nil
	}
	bwrap, err := c.Available()
	if err != nil {
		return nil, done, err
	}
	root := os.Geteuid() == 0
	args := c.bwrapArgs(dir, env, root)
	cpu, mem, procs := c.limits()
	args = append(args, "prlimit", "--cpu="+strconv.Itoa(cpu), "--as="+strconv.FormatInt(mem, 10),
		"--nproc="+strconv.Itoa(procs), "--core=0", "--")
	if root {
		uid, err := takeUID()
		if err != nil {
			return nil, done, err
		}
		done = func() { giveUID(uid) }
		if err := chownTree(dir, uid); err != nil {
			done()
			return nil, func() {}, fmt.Errorf("sandbox folder: %w", err)
		}
		id := strconv.Itoa(uid)
		args = append(args, "setpriv", "--reuid", id, "--regid", id, "--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--")
	}
	args = append(args, argv...)
	cmd = exec.CommandContext(ctx, bwrap, args...)
	cmd.Dir = "/"
	// bwrap is the sandbox's PID 1: its own environment is what /proc/1/environ holds.
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	return cmd, done, nil
}

// bwrapArgs are the namespaces and mounts; the command follows them. A root server keeps the
// host's user namespace (setpriv changes the user inside); any other gets a new one.
func (c *Config) bwrapArgs(dir string, env []string, root bool) []string {
	args := []string{"--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try",
		"--die-with-parent", "--new-session", "--hostname", "rodeo-code",
		"--ro-bind", "/usr", "/usr", "--proc", "/proc", "--dev", "/dev",
		"--perms", "1777", "--tmpfs", "/tmp", "--perms", "1777", "--tmpfs", "/var/tmp", "--dir", "/etc"}
	if !root {
		args = append(args, "--unshare-user")
	}
	if c.NoNetwork {
		args = append(args, "--unshare-net")
	}
	for _, top := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		if target, err := os.Readlink(top); err == nil {
			args = append(args, "--symlink", target, top)
		} else if st, err := os.Stat(top); err == nil && st.IsDir() {
			args = append(args, "--ro-bind", top, top)
		}
	}
	for _, name := range etcFiles {
		p := filepath.Join("/etc", name)
		args = append(args, "--ro-bind-try", p, p)
	}
	// The folder keeps its path (variables may hold paths into it); its parents are made
	// traversable (bwrap would create them 0700) and hold nothing else.
	var parents []string
	for p := filepath.Dir(dir); p != "/" && p != "."; p = filepath.Dir(p) {
		parents = append([]string{p}, parents...)
	}
	for _, p := range parents {
		if p != "/tmp" && p != "/var/tmp" && p != "/var" {
			args = append(args, "--perms", "0755", "--dir", p)
		}
	}
	args = append(args, "--bind", dir, dir, "--chdir", dir, "--clearenv")
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			args = append(args, "--setenv", k, v)
		}
	}
	return args
}

// chownTree gives dir and everything in it to uid (symlinks themselves, never their targets).
func chownTree(dir string, uid int) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, uid, uid)
	})
}

var probes sync.Map // probe key -> *probe

type probe struct {
	once sync.Once
	bin  string
	err  error
}

// Available reports whether bubblewrap runs here with this policy (tried once per policy: a
// `true` inside the same namespaces), and the bwrap executable when it does. Its error says how to
// fix it.
func (c *Config) Available() (string, error) {
	key := fmt.Sprintf("%s|%v", c.Bwrap, c.NoNetwork)
	v, _ := probes.LoadOrStore(key, &probe{})
	p := v.(*probe)
	p.once.Do(func() { p.bin, p.err = c.probe() })
	return p.bin, p.err
}

func (c *Config) probe() (string, error) {
	bin := c.Bwrap
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("bwrap"); err != nil {
			return "", errs.E(Unavailable, "code nodes run in a bubblewrap sandbox and bwrap is not installed: apt-get install bubblewrap, or start the server with --code-sandbox=off to run code unsandboxed")
		}
	}
	dir, err := os.MkdirTemp("", "rodeo-sandbox-probe-")
	if err != nil {
		return "", fmt.Errorf("sandbox probe: %w", err)
	}
	defer os.RemoveAll(dir)
	cfg := *c
	cfg.Bwrap = bin
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	root := os.Geteuid() == 0
	args := append(cfg.bwrapArgs(dir, []string{"PATH=/usr/bin:/bin"}, root), "prlimit", "--nproc=8", "--")
	if root {
		args = append(args, "setpriv", "--reuid", strconv.Itoa(firstUID+uidCount), "--regid", strconv.Itoa(firstUID+uidCount), "--clear-groups", "--")
	}
	cmd := exec.CommandContext(ctx, bin, append(args, "true")...)
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		why := strings.TrimSpace(string(out))
		if why == "" {
			why = err.Error()
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) && why == "" {
			why = err.Error()
		}
		return "", errs.E(Unavailable, "code nodes run in a bubblewrap sandbox and it cannot start here (%s): allow user namespaces (in a container: a seccomp profile that permits them), or start the server with --code-sandbox=off to run code unsandboxed", singleLine(why))
	}
	return bin, nil
}

func singleLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
