package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// inProcess runs one rodeo command in this process and returns its exit code and output.
func inProcess(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	app := &App{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader(""), Getenv: func(k string) string { return env[k] }}
	code, err := app.Main(context.Background(), args)
	if err != nil {
		errOut.WriteString(err.Error())
	}
	return code, out.String(), errOut.String()
}

// TestSchedulesCommand: rodeo schedules add, list and rm on a data directory, with the
// schedule's validation and the account of the key.
func TestSchedulesCommand(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"RODEO_DATA": dir, "TZ": "Asia/Tokyo"}
	code, out, errOut := inProcess(t, env, "keys", "create")
	key := regexp.MustCompile(`rk_\S+`).FindString(out)
	if code != 0 || key == "" {
		t.Fatalf("keys create: %d %s%s", code, out, errOut)
	}
	env["RODEO_API_KEY"] = key
	file := filepath.Join(dir, "job.json")
	if err := os.WriteFile(file, []byte(`{"goal":"report","json_output":[{"type":"print","text":"{{data}}"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := inProcess(t, env, "scripts", "save", "report", file); code != 0 {
		t.Fatalf("scripts save: %d %s%s", code, out, errOut)
	}

	code, out, errOut = inProcess(t, env, "schedules", "add", "report", "--text", "every weekday at 9am", "--instances", "2", "--data-json", `"hi"`)
	id := regexp.MustCompile(`s_[0-9A-Z]+`).FindString(out)
	if code != 0 || id == "" || !strings.Contains(out, "0 9 * * 1-5 (every weekday at 9am)") || !strings.Contains(out, "Asia/Tokyo") ||
		strings.Count(out, "next 20") != 5 || !strings.Contains(out, "T09:00:00+09:00") {
		t.Fatalf("schedules add: %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := inProcess(t, env, "schedules", "add", "report", "--text", "at teatime"); code != 2 || !strings.Contains(errOut, "every weekday at 9:30am") {
		t.Errorf("schedules add with unreadable text: %d %s%s", code, out, errOut)
	}
	if code, _, errOut := inProcess(t, env, "schedules", "add", "nope", "--cron", "* * * * *"); code == 0 || !strings.Contains(errOut, "nope") {
		t.Errorf("schedules add of an unknown script: %d %s", code, errOut)
	}
	code, out, _ = inProcess(t, env, "schedules", "list")
	if code != 0 || !strings.Contains(out, id) || !strings.Contains(out, "enabled") || strings.Count(out, "\n") != 2 {
		t.Errorf("schedules list: %d\n%s", code, out)
	}
	if code, out, _ := inProcess(t, env, "schedules", "rm", id); code != 0 || !strings.Contains(out, "removed schedule "+id) {
		t.Errorf("schedules rm: %d %s", code, out)
	}
	if code, _, _ := inProcess(t, env, "schedules", "rm", id); code == 0 {
		t.Error("removing it twice succeeded")
	}
	if code, out, _ := inProcess(t, env, "schedules", "list"); code != 0 || strings.Contains(out, id) {
		t.Errorf("schedules list after rm: %d\n%s", code, out)
	}
	if code, _, errOut := inProcess(t, map[string]string{"RODEO_DATA": dir}, "schedules", "list"); code == 0 || !strings.Contains(errOut, "API key") {
		t.Errorf("schedules list without a key: %d %s", code, errOut)
	}
}
