package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// runHook runs the built binary as an agent runs its SessionStart hook:
// the hook's JSON on stdin, in folder cwd.
func runHook(t *testing.T, home, cwd string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	in, _ := json.Marshal(map[string]string{"session_id": "s-1", "cwd": cwd, "hook_event_name": "SessionStart", "source": "startup"})
	cmd := exec.Command(binary, append([]string{"recall", "--hook"}, args...)...)
	cmd.Env = daemonEnv(home)
	cmd.Dir = t.TempDir() // the hook's cwd, not the process's, names the project
	cmd.Stdin = bytes.NewReader(in)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return so.String(), se.String(), code
}

func TestRecallHook(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "examples", "fnord"))
	if err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(t.TempDir(), "telemetry-hub")

	t.Run("no index, no daemon: silent", func(t *testing.T) {
		home := t.TempDir()
		out, errOut, code := runHook(t, home, project)
		if code != 0 || out != "" || errOut != "" {
			t.Errorf("got exit %d, stdout %q, stderr %q; want 0 and nothing", code, out, errOut)
		}
		if _, err := os.Stat(filepath.Join(home, "data", "convsearch")); !os.IsNotExist(err) {
			t.Errorf("recall made a data folder: %v", err)
		}
	})

	t.Run("through the daemon", func(t *testing.T) {
		home := t.TempDir()
		startServe(t, home, root)
		// A generous budget: the test checks what is said, not how fast.
		out, errOut, code := runHook(t, home, project, "--timeout", "20s")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var got struct {
			HookSpecificOutput struct {
				HookEventName     string `json:"hookEventName"`
				AdditionalContext string `json:"additionalContext"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("stdout is not the hook's JSON: %v: %q", err, out)
		}
		ctx := got.HookSpecificOutput.AdditionalContext
		for _, want := range []string{`project "telemetry-hub"`, "Recent decisions:", "rest_for_one", "Recent conversations:"} {
			if !strings.Contains(ctx, want) {
				t.Errorf("context lacks %q:\n%s", want, ctx)
			}
		}
		if got.HookSpecificOutput.HookEventName != "SessionStart" {
			t.Errorf("hookEventName = %q", got.HookSpecificOutput.HookEventName)
		}
		if n := strings.Count(ctx, "\n"); n > 15 || len(ctx) > recallMaxBytes {
			t.Errorf("summary too long: %d lines, %d bytes", n, len(ctx))
		}
	})
}

func TestSetupCommand(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{".claude", ".codex"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	claude := filepath.Join(home, ".claude.json")
	orig := "{\n  \"mcpServers\": {\n    \"x\": {\"command\": \"x\"}\n  }\n}\n"
	if err := os.WriteFile(claude, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "convsearch")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args    []string
		code    int
		actions map[string]string // agent/kind → action
		stdout  string
	}{
		{[]string{"setup", "--dry-run", "--command", bin}, 0, nil, "+++ " + claude},
		{[]string{"setup", "--hook", "--json", "--command", bin}, 0, map[string]string{"claude-code/mcp": "added", "codex/mcp": "added", "claude-code/hook": "added", "gemini/mcp": "skipped"}, ""},
		{[]string{"setup", "--hook", "--command", bin}, 0, nil, "nothing to change"},
		{[]string{"setup", "--remove", "--json"}, 0, map[string]string{"claude-code/mcp": "removed", "codex/mcp": "removed", "claude-code/hook": "removed"}, ""},
		{[]string{"setup", "extra"}, 2, nil, ""},
		{[]string{"setup", "--command", "/no/such/file"}, 2, nil, ""},
		{[]string{"setup", "--command", claude}, 2, nil, ""},                      // not executable
		{[]string{"setup", "--remove", "--command", "/no/such/file"}, 0, nil, ""}, // remove needs no binary
	}
	for _, tt := range tests {
		r := cs(t, home, tt.args...)
		if r.code != tt.code {
			t.Fatalf("%v: exit %d, want %d: %s", tt.args, r.code, tt.code, r.stderr)
		}
		if !strings.Contains(r.stdout, tt.stdout) {
			t.Errorf("%v: stdout lacks %q:\n%s", tt.args, tt.stdout, r.stdout)
		}
		if tt.actions == nil {
			continue
		}
		var rs []struct{ Agent, Kind, Action string }
		if err := json.Unmarshal([]byte(r.stdout), &rs); err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		got := map[string]string{}
		for _, x := range rs {
			got[x.Agent+"/"+x.Kind] = x.Action
		}
		for k, want := range tt.actions {
			if got[k] != want {
				t.Errorf("%v: %s = %q, want %q", tt.args, k, got[k], want)
			}
		}
	}
	if b, _ := os.ReadFile(claude); string(b) != orig {
		t.Errorf("remove did not give %s back:\n%s", claude, b)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude", "settings.json")); err == nil {
		if b, _ := os.ReadFile(filepath.Join(home, ".claude", "settings.json")); strings.Contains(string(b), "recall") {
			t.Errorf("remove left the hook: %s", b)
		}
	}
}

// TestProjectNames checks the names recall asks for: the folder's, as the
// parsers name a session's project, and its repository's when that differs.
func TestProjectNames(t *testing.T) {
	repo := filepath.Join(t.TempDir(), "shop")
	sub := filepath.Join(repo, "web", "cart")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir  string
		want []string
	}{
		{sub, []string{"cart", "shop"}},
		{repo, []string{"shop"}},
		{repo + string(filepath.Separator), []string{"shop"}},
		{filepath.Join(t.TempDir(), "loose"), []string{"loose"}},
		{string(filepath.Separator), nil},
	} {
		if got := projectNames(tc.dir); !slices.Equal(got, tc.want) {
			t.Errorf("projectNames(%q) = %q, want %q", tc.dir, got, tc.want)
		}
	}
}

// TestRecallTakesNoArguments: an argument recall would ignore, or a
// --timeout not above 0, is a usage error, as for the other commands, and
// a timeout reached says so (exit 1); but a hook still never fails.
func TestRecallTakesNoArguments(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(t.TempDir(), "data")
	if r := cs(t, home, "index", "--data-dir", data, "--no-default-roots", "--root", examples); r.code != 0 {
		t.Fatalf("index: exit %d: %s", r.code, r.stderr)
	}
	cases := []struct {
		args     []string
		wantCode int
		want     string // in stderr
	}{
		{[]string{"recall", "--data-dir", data, "extra"}, 2, "recall takes no arguments"},
		{[]string{"recall", "--data-dir", data, "--project", "p", "two", "words"}, 2, "recall takes no arguments"},
		{[]string{"recall", "--hook", "--data-dir", data, "extra"}, 0, ""},
		// --timeout: above 0, and reaching it is an error that says so
		// (silent with --hook, as everything is).
		{[]string{"recall", "--data-dir", data, "--project", "telemetry-hub", "--timeout", "0"}, 2, "--timeout 0s: give a duration above 0"},
		{[]string{"recall", "--data-dir", data, "--project", "telemetry-hub", "--timeout", "-1s"}, 2, "--timeout -1s: give a duration above 0"},
		{[]string{"recall", "--data-dir", data, "--project", "telemetry-hub", "--timeout", "1ns"}, 1, "recall: no answer within 1ns (raise --timeout)"},
		{[]string{"recall", "--hook", "--data-dir", data, "--timeout", "0"}, 0, ""},
		{[]string{"recall", "--hook", "--data-dir", data, "--timeout", "1ns"}, 0, ""},
	}
	for _, tc := range cases {
		r := cs(t, home, tc.args...)
		if r.code != tc.wantCode || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("convsearch %q: exit %d, stderr %q; want exit %d and %q", tc.args, r.code, r.stderr, tc.wantCode, tc.want)
		}
		if tc.wantCode == 0 && r.stdout != "" {
			t.Errorf("convsearch %q: %q on stdout, want nothing", tc.args, r.stdout)
		}
	}
}

// TestRecallHookStdinLeftOpen: a host that keeps the hook's stdin open, with
// or without having written its JSON, still gets recall's answer within the
// budget (`sleep 3 | convsearch recall --hook` waited 3 s): stdin is read
// within the deadline, the first JSON value is enough, and without it recall
// goes on from its own folder, exit 0.
func TestRecallHookStdinLeftOpen(t *testing.T) {
	home := t.TempDir()
	root, err := filepath.Abs(filepath.Join("..", "..", "examples", "fnord"))
	if err != nil {
		t.Fatal(err)
	}
	if r := cs(t, home, "index", "--no-default-roots", "--root", root); r.code != 0 {
		t.Fatalf("index: exit %d: %s", r.code, r.stderr)
	}
	project := filepath.Join(t.TempDir(), "telemetry-hub")
	hookJSON, _ := json.Marshal(map[string]string{"cwd": project, "hook_event_name": "SessionStart"})
	tests := []struct {
		name    string
		stdin   []byte // written, and stdin kept open
		timeout time.Duration
		want    string // in stdout
	}{
		{"nothing written", nil, 300 * time.Millisecond, ""},
		{"JSON written, not closed", hookJSON, 20 * time.Second, `project \"telemetry-hub\"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(binary, "recall", "--hook", "--timeout", tt.timeout.String())
			cmd.Env = daemonEnv(home)
			cmd.Dir = t.TempDir()
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			var so, se bytes.Buffer
			cmd.Stdout, cmd.Stderr = &so, &se
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if _, err := stdin.Write(tt.stdin); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("exit: %v (stderr %q)", err, se.String())
				}
			case <-time.After(tt.timeout + 5*time.Second):
				cmd.Process.Kill()
				<-done
				t.Fatalf("recall --hook still running %v after its %v budget, stdin open", 5*time.Second, tt.timeout)
			}
			if !strings.Contains(so.String(), tt.want) || (tt.want == "" && so.String() != "") {
				t.Errorf("stdout %q, want %q", so.String(), tt.want)
			}
		})
	}
}
