package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExpandHome(t *testing.T) {
	env := &Env{Getenv: func(k string) string {
		if k == "HOME" {
			return "/home/u"
		}
		return ""
	}}
	for _, tc := range []struct{ in, want string }{
		{"~", "/home/u"},
		{"~/", "/home/u"},
		{"~/notes", "/home/u/notes"},
		{"~/a/../b", "/home/u/b"},
		{"~user/x", "~user/x"},
		{"/abs/~/x", "/abs/~/x"},
		{"rel/x", "rel/x"},
		{"", ""},
	} {
		got, err := expandHome(env, tc.in)
		if err != nil || got != tc.want {
			t.Errorf("expandHome(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	noHome := &Env{Getenv: func(string) string { return "" }}
	if _, err := expandHome(noHome, "~/x"); err == nil {
		t.Error("~/x without a home: no error")
	}
}

// A path flag starting with ~ names a folder in the home folder, as the
// config file's roots do, whatever the working folder and however it is
// given: an agent's MCP config passes it without a shell.
func TestTildeInPathFlags(t *testing.T) {
	home := t.TempDir()
	notes := filepath.Join(home, "notes")
	if err := os.CopyFS(notes, os.DirFS(filepath.Join(examples, "codex"))); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		data string // the data folder the index must be in
	}{
		{"--root ~/notes", []string{"--root", "~/notes", "--data-dir", "~/d1"}, "d1"},
		{"--root=~/notes", []string{"--root=~/notes", "--data-dir=~/d2"}, "d2"},
		{"positional ~/notes", []string{"--data-dir", "~/d3", "~/notes"}, "d3"},
		{"--root ~", []string{"--root", "~", "--data-dir", "~/d4"}, "d4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := cs(t, home, append([]string{"index", "--no-default-roots", "--json"}, tc.args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, `"files_parsed": `) || strings.Contains(r.stdout, `"files_parsed": 0`) {
				t.Errorf("nothing parsed: %s", r.stdout)
			}
			if _, err := os.Stat(filepath.Join(home, tc.data, "index.json")); err != nil {
				t.Errorf("the index is not in ~/%s: %v", tc.data, err)
			}
			if _, err := os.Stat("~"); err == nil {
				os.RemoveAll("~")
				t.Errorf("a folder named ~ was made in the working folder")
			}
		})
	}
	// export --to and --cpuprofile are paths too.
	r := cs(t, home, "export", "--to", "~/out", filepath.Join(examples, "codex"))
	if r.code != 0 {
		t.Fatalf("export: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(home, "out", "index.json")); err != nil {
		t.Errorf("export --to ~/out: %v", err)
	}
}

// The config file's roots: ~ is the home folder, and a relative root is
// under the config file's folder, not the working folder.
func TestConfigRoots(t *testing.T) {
	home := t.TempDir()
	cfgDir := filepath.Join(home, "config", "convsearch")
	if err := os.MkdirAll(cfgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "config.json"), []byte(`{"roots": ["~/a", "~", "rel/b", "/abs/c"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	env := &Env{Getenv: func(k string) string { return testEnv(home)[k] }}
	c, err := loadConfig(env)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(home, "a"), home, filepath.Join(cfgDir, "rel", "b"), "/abs/c"}
	if strings.Join(c.Roots, "|") != strings.Join(want, "|") {
		t.Errorf("roots %q, want %q", c.Roots, want)
	}
}

// Roots inside another are walked once: the summary counts what one root
// over them all counts, and what the index holds.
func TestNestedRootsCountedOnce(t *testing.T) {
	home := t.TempDir()
	abs, err := filepath.Abs(examples)
	if err != nil {
		t.Fatal(err)
	}
	summary := func(roots ...string) map[string]any {
		t.Helper()
		args := []string{"index", "--no-default-roots", "--json", "--data-dir", filepath.Join(t.TempDir(), "data")}
		for _, r := range roots {
			args = append(args, "--root", r)
		}
		r := cs(t, home, args...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d\n%s", roots, r.code, r.stderr)
		}
		var s map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	want := summary(abs)
	for _, roots := range [][]string{
		{abs, filepath.Join(abs, "claude-code")},
		{filepath.Join(abs, "claude-code") + "/", abs + "/"},
		{examples, filepath.Join(abs, "codex", ".."), filepath.Join(examples, "claude-code")},
	} {
		got := summary(roots...)
		for _, k := range []string{"files_seen", "files_parsed", "conversations", "messages"} {
			if got[k] != want[k] {
				t.Errorf("%q: %s %v, want %v as for one root", roots, k, got[k], want[k])
			}
		}
	}
}

// TestConfigFile: a key of the config file that convsearch does not know (a
// typo: "root" for "roots") is named on stderr, once, with the file and the
// known keys, and the command goes on; a config that cannot be read names
// its file once.
func TestConfigFile(t *testing.T) {
	tests := []struct {
		name   string
		config string // "" makes config.json a folder
		code   int
		want   []string // each once in stderr
		not    []string
	}{
		{"known keys", `{"roots": [], "redact": true}`, 0, nil, []string{"warning"}},
		{"any case, as json reads it", `{"Roots": []}`, 0, nil, []string{"warning"}},
		{"a typo", `{"root": ["/x"]}`, 0, []string{`unknown key "root" ignored`, "config.json", "known keys: roots, redact"}, nil},
		{"a newer config", `{"roots": [], "colour": "blue", "future": 1}`, 0, []string{`unknown keys "colour", "future" ignored`}, nil},
		{"a folder", "", 1, []string{"config.json"}, []string{"warning"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			path := filepath.Join(home, "config", "convsearch", "config.json")
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.config == "" {
				os.Mkdir(path, 0o755)
			} else if err := os.WriteFile(path, []byte(tt.config), 0o600); err != nil {
				t.Fatal(err)
			}
			// index reads the config for its roots and for its store.
			r := cs(t, home, "index", "--data-dir", filepath.Join(home, "data"), "--root", filepath.Join(examples, "codex"))
			if r.code != tt.code {
				t.Fatalf("exit %d, want %d: %s", r.code, tt.code, r.stderr)
			}
			for _, w := range tt.want {
				if n := strings.Count(r.stderr, w); n != 1 {
					t.Errorf("stderr has %q %d times, want once:\n%s", w, n, r.stderr)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(r.stderr, w) {
					t.Errorf("stderr has %q:\n%s", w, r.stderr)
				}
			}
			// A session-start hook says nothing, whatever the config.
			if r := cs(t, home, "recall", "--hook", "--data-dir", filepath.Join(home, "data")); r.code != 0 || r.stderr != "" {
				t.Errorf("recall --hook: exit %d, stderr %q; want 0 and nothing", r.code, r.stderr)
			}
		})
	}
}
