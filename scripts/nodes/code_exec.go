package nodes

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/rodeo-run/rodeo/errs"
	"github.com/rodeo-run/rodeo/scripts"
)

// The guarded path every piece of code goes through (python, bash, gpt4's code answers): the
// server-wide switch, a working folder per run, a child environment that inherits nothing but
// an allow-list, a process group killed at the time limit (children included), capped output,
// and variables and signals passed as JSON through files and a pipe, never through the code.

// Error codes of code nodes beyond errs' shared ones.
const (
	// CodeDisabled is a code node on a server started with --code-nodes=false.
	CodeDisabled = "code_disabled"
)

// outputCap bounds the stdout and stderr kept of one execution.
const outputCap = 64 << 10

// Signal limits: how many thread_signals messages one execution may emit, and their length.
const (
	maxSignals      = 1000
	maxSignalLength = 4 << 10
	// maxSignalsKept is how many of them the step detail keeps.
	maxSignalsKept = 100
)

//go:embed code_prelude.py
var pythonPrelude string

// codeResult is what an execution left behind.
type codeResult struct {
	stdout, stderr string
	exitCode       int
}

// checkCodeAllowed fails with code_disabled when the server does not run code.
func checkCodeAllowed(env *scripts.Env) error {
	if !env.Services().CodeNodes {
		return errs.E(CodeDisabled, "code nodes are disabled on this server (it runs with --code-nodes=false or RODEO_CODE_NODES=false); python, bash and gpt4 code output cannot run")
	}
	return nil
}

// codeWorkDir creates the run's working folder (runWorkDir: Services.WorkDir/<run id>, shared
// with the file nodes) as 0700 and returns it.
func codeWorkDir(env *scripts.Env) (string, error) {
	dir := runWorkDir(env)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("work folder: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return "", fmt.Errorf("work folder: %w", err)
	}
	return dir, nil
}

// childEnv is the whole environment of a code process: nothing of the server's (API keys,
// RODEO_*, cloud credentials) but a PATH, a language and the working folder as HOME and TMPDIR.
func childEnv(dir string) []string {
	path := os.Getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin"
	}
	lang := os.Getenv("LANG")
	if lang == "" || strings.ContainsAny(lang, "\n=") {
		lang = "C.UTF-8"
	}
	return []string{"PATH=" + path, "HOME=" + dir, "LANG=" + lang, "TMPDIR=" + dir}
}

// execCode runs lang ("python" or "bash") source in the run's working folder until it exits or
// ctx ends, and records stdout, stderr and the exit code in the step detail. Python code gets
// graph.global_variables (the run's variables, written back when it succeeds) and
// thread_signals (messages become the run's events).
func execCode(ctx context.Context, env *scripts.Env, lang, source string) (codeResult, error) {
	if err := checkCodeAllowed(env); err != nil {
		return codeResult{}, err
	}
	dir, err := codeWorkDir(env)
	if err != nil {
		return codeResult{}, err
	}
	// Private files of this execution; removed afterwards, the working folder itself stays for the
	// run's later nodes.
	priv, err := os.MkdirTemp(dir, ".rodeo-")
	if err != nil {
		return codeResult{}, fmt.Errorf("code files: %w", err)
	}
	defer os.RemoveAll(priv)

	var args []string
	var varsIn, varsOut string
	switch lang {
	case "python":
		main := filepath.Join(priv, "main.py")
		prelude := filepath.Join(priv, "prelude.py")
		varsIn, varsOut = filepath.Join(priv, "vars_in.json"), filepath.Join(priv, "vars_out.json")
		vars, err := json.Marshal(env.Vars.Snapshot())
		if err != nil {
			return codeResult{}, fmt.Errorf("encode variables: %w", err)
		}
		for name, data := range map[string][]byte{main: []byte(source), prelude: []byte(pythonPrelude), varsIn: vars} {
			if err := os.WriteFile(name, data, 0o600); err != nil {
				return codeResult{}, fmt.Errorf("code files: %w", err)
			}
		}
		// -I: ignore PYTHON* variables and the user's site folder; -u: unbuffered output.
		args = []string{"python3", "-I", "-u", prelude, main, varsIn, varsOut}
	case "bash":
		main := filepath.Join(priv, "main.sh")
		if err := os.WriteFile(main, []byte(source), 0o600); err != nil {
			return codeResult{}, fmt.Errorf("code files: %w", err)
		}
		args = []string{"bash", "--noprofile", "--norc", main}
	default:
		return codeResult{}, errs.E(errs.Internal, "unknown code language %s", lang)
	}
	if _, err := exec.LookPath(args[0]); err != nil {
		return codeResult{}, errs.E(errs.CodeFailed, "%s is not installed on the server", args[0])
	}

	// thread_signals arrive as JSON lines on fd 3.
	sigR, sigW, err := os.Pipe()
	if err != nil {
		return codeResult{}, fmt.Errorf("signal pipe: %w", err)
	}
	defer sigR.Close()

	// The sandbox (docs/security.md): the run's folder is the only writable place, limits apply.
	sb := env.Services().Sandbox
	cmd, done, err := sb.Command(ctx, dir, childEnv(dir), args)
	if err != nil {
		sigW.Close()
		if errs.Code(err) != errs.Internal {
			return codeResult{}, err
		}
		return codeResult{}, errs.E(errs.CodeFailed, "start %s: %v", args[0], err)
	}
	defer done()
	env.SetDetail("sandbox", !sb.Off)
	stdout, stderr := &capped{limit: outputCap}, &capped{limit: outputCap}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.ExtraFiles = []*os.File{sigW}
	// Its own process group (Command sets it), so the time limit ends the children it started
	// too; in the sandbox, ending bwrap ends its whole PID namespace.
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = 2 * time.Second

	start := time.Now()
	if err := cmd.Start(); err != nil {
		sigW.Close()
		return codeResult{}, errs.E(errs.CodeFailed, "start %s: %v", args[0], err)
	}
	sigW.Close() // the child holds its copy
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); readSignals(env, sigR) }()
	waitErr := cmd.Wait()
	_ = killGroup(cmd) // background children the code left behind
	sigR.SetReadDeadline(time.Now().Add(time.Second))
	wg.Wait()

	res := codeResult{stdout: stdout.String(), stderr: stderr.String(), exitCode: cmd.ProcessState.ExitCode()}
	env.SetDetail("language", lang)
	env.SetDetail("exit_code", res.exitCode)
	env.SetDetail("stdout", res.stdout)
	env.SetDetail("stderr", res.stderr)
	env.SetDetail("code_ms", time.Since(start).Milliseconds())
	if stdout.truncated || stderr.truncated {
		env.SetDetail("output_truncated", map[string]bool{"stdout": stdout.truncated, "stderr": stderr.truncated})
	}
	if ctx.Err() != nil {
		return res, ctx.Err() // the runner reports the node's time limit or the run's end
	}
	if waitErr != nil && !errors.As(waitErr, new(*exec.ExitError)) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		return res, errs.E(errs.CodeFailed, "%s: %v", lang, waitErr)
	}
	if res.exitCode != 0 {
		msg := fmt.Sprintf("%s exited with code %d", lang, res.exitCode)
		if res.exitCode < 0 {
			msg = lang + " was killed by a signal"
		}
		if last := lastLine(res.stderr); last != "" {
			msg += ": " + last
		}
		return res, errs.E(errs.CodeFailed, "%s", msg)
	}
	if varsOut != "" {
		if err := applyVars(env, varsOut); err != nil {
			return res, err
		}
	}
	return res, nil
}

// killGroup ends the process group of cmd (its leader may already be gone).
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// readSignals turns the code's thread_signals lines into run events.
func readSignals(env *scripts.Env, r *os.File) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	var kept []map[string]string
	for sc.Scan() {
		var sig struct {
			Kind    string `json:"kind"`
			Message string `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &sig) != nil || (sig.Kind != "notification" && sig.Kind != "chat") {
			continue
		}
		if n++; n > maxSignals {
			continue // keep draining so the code never blocks on a full pipe
		}
		if len(sig.Message) > maxSignalLength {
			sig.Message = sig.Message[:maxSignalLength] + "…"
		}
		env.Emit(sig.Kind, sig.Message)
		if len(kept) < maxSignalsKept {
			kept = append(kept, map[string]string{"kind": sig.Kind, "message": sig.Message})
		}
	}
	if n > 0 {
		// Also in the step's detail, which the stored run document keeps.
		env.SetDetail("signals", kept)
		env.SetDetail("signals_total", n)
	}
}

// applyVars makes the code's graph.global_variables the run's variables: new and changed ones
// are set (deleting a variable in the code does not unset it).
func applyVars(env *scripts.Env, path string) error {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil // the code ended the interpreter before the prelude could write them
	}
	if err != nil {
		return fmt.Errorf("read variables: %w", err)
	}
	var out map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return errs.E(errs.CodeFailed, "graph.global_variables could not be read back: %v", err)
	}
	before := env.Vars.Snapshot()
	var changed []string
	for name, v := range out {
		old, had := before[name]
		oldJSON, _ := json.Marshal(old)
		newJSON, _ := json.Marshal(v)
		if had && bytes.Equal(oldJSON, newJSON) {
			continue
		}
		env.Vars.Set(name, v)
		changed = append(changed, name)
	}
	if len(changed) > 0 {
		slices.Sort(changed)
		env.SetDetail("variables_set", changed)
	}
	return nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return truncateText(s, 300)
}

// capped keeps the first limit bytes written to it and drops (but accepts) the rest, so a
// chatty process neither blocks nor grows the server's memory.
type capped struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	limit     int
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.limit - c.buf.Len(); room < len(p) {
		c.truncated = true
		c.buf.Write(p[:max(room, 0)])
	} else {
		c.buf.Write(p)
	}
	return len(p), nil
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.ToValidUTF8(c.buf.String(), "\uFFFD")
}

// trimNewline removes one trailing line break (what `echo` adds) from a process's output.
func trimNewline(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}
