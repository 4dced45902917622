package setup

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/internal/golden"
)

// fakeHome is a home where each agent is installed with a config that
// already holds other servers and settings (comments and trailing commas
// where the format takes them).
var fakeHome = map[string]string{
	".claude.json": `{
  "numStartups": 12,
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "github-mcp",
      "args": []
    }
  },
  "projects": {}
}
`,
	".claude/settings.json": `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}
    ]
  }
}
`,
	".codex/config.toml": `# my codex settings
model = "o3"

[mcp_servers.docs]
command = "docs-mcp"
args = ["--stdio"]

[mcp_servers.docs.env]
TOKEN = "x"

# profiles below
[profiles.fast]
model = "o4-mini"
`,
	".cursor/mcp.json": "{\n\t\"mcpServers\": {\n\t\t\"linear\": {\"url\": \"https://mcp.linear.app/sse\"}\n\t}\n}\n",
	".gemini/settings.json": `{
  "theme": "Dracula",
  "mcpServers": {}
}
`,
	".qwen/settings.json": `{"mcpServers": {"a": {"command": "a"}}}`,
	".config/Code/User/mcp.json": `{
	// Servers for every workspace.
	"servers": {
		"github": {
			"type": "http",
			"url": "https://api.githubcopilot.com/mcp/", // remote
		},
	},
	/* inputs stay */
	"inputs": [],
}
`,
	".copilot/mcp-config.json":          "{\n  \"mcpServers\": {}\n}\n",
	".kiro/settings/mcp.json":           "{\n  \"mcpServers\": {\n    \"fetch\": {\n      \"command\": \"uvx\",\n      \"args\": [\"mcp-server-fetch\"],\n      \"disabled\": false\n    }\n  }\n}\n",
	".config/opencode/opencode.json":    "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  \"theme\": \"opencode\"\n}\n",
	".config/zed/settings.json":         "// Zed settings\n{\n  \"ui_font_size\": 16,\n  \"context_servers\": {\n    \"sqlite\": {\"command\": \"sqlite-mcp\", \"args\": [], \"env\": {}}\n  },\n}\n",
	".codeium/windsurf/mcp_config.json": "{}\n",
	".aws/amazonq/mcp.json":             "{\n  \"mcpServers\": {\n  }\n}\n",
	".config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json": "{\n  \"mcpServers\": {}\n}",
}

// installedOnly are agents installed without a config file yet.
var installedOnly = []string{".config/Code/User/globalStorage/rooveterinaryinc.roo-cline"}

func makeHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	for rel, content := range fakeHome {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range installedOnly {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

func options(home string) Options {
	return Options{Home: home, GOOS: "linux", Command: "/opt/convsearch/bin/convsearch", Hook: true, Service: true}
}

// snapshot reads every file under home, by path relative to it.
func snapshot(t *testing.T, home string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(home, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func actions(rs []Result) map[string]Action {
	m := map[string]Action{}
	for _, r := range rs {
		m[r.Agent+"/"+r.Kind] = r.Action
	}
	return m
}

func TestSetupGolden(t *testing.T) {
	home := makeHome(t)
	before := snapshot(t, home)
	o := options(home)

	dry := o
	dry.DryRun = true
	rs, err := Run(dry)
	if err != nil {
		t.Fatalf("dry run: %v", err)
	}
	if got := snapshot(t, home); !equalMaps(got, before) {
		t.Fatalf("dry run changed files")
	}
	// One diff per file, exactly the change the run makes to it (a file
	// with two edits, Gemini's entry and hook, included).
	diffs := map[string]string{}
	for _, r := range rs {
		if r.Diff != "" {
			if _, dup := diffs[r.File]; dup {
				t.Errorf("dry run: two diffs for %s", r.File)
			}
			diffs[r.File] = r.Diff
		}
	}

	rs, err = Run(o)
	if err != nil {
		t.Fatalf("setup: %v", err)
	}
	want := map[string]Action{
		"claude-code/mcp": Added, "codex/mcp": Added, "cursor/mcp": Added, "gemini/mcp": Added, "qwen-code/mcp": Added,
		"vscode/mcp": Added, "copilot-cli/mcp": Added, "kiro/mcp": Added, "cline/mcp": Added, "roo-code/mcp": Added,
		"opencode/mcp": Added, "zed/mcp": Added, "windsurf/mcp": Added, "amazon-q/mcp": Added,
		"claude-code/hook": Added, "gemini/hook": Added, "convsearch/service": Added,
	}
	if got := actions(rs); !equalMaps(got, want) {
		t.Errorf("actions:\ngot  %v\nwant %v", got, want)
	}
	after := snapshot(t, home)
	for _, r := range rs {
		rel, _ := filepath.Rel(home, r.File)
		rel = filepath.ToSlash(rel)
		golden.Check(t, filepath.Join("testdata", r.Agent+"-"+r.Kind+".golden"), []byte(after[rel]))
		backup, made := after[rel+BackupSuffix]
		switch old, ok := before[rel]; {
		case ok && !blank([]byte(old)) && backup != old:
			t.Errorf("%s: backup does not hold the old content", rel)
		case (!ok || blank([]byte(old))) && made: // nothing in it to keep
			t.Errorf("%s: a backup of a file that was not there or empty", rel)
		}
	}
	for _, r := range rs {
		rel, _ := filepath.Rel(home, r.File)
		if want := unifiedDiff(r.File, []byte(before[filepath.ToSlash(rel)]), []byte(after[filepath.ToSlash(rel)])); diffs[r.File] != want {
			t.Errorf("dry run diff of %s:\n%s\nwant\n%s", r.File, diffs[r.File], want)
		}
	}
	st, err := os.Stat(filepath.Join(home, ".cursor/mcp.json"))
	if err != nil || st.Mode().Perm() != 0o640 {
		t.Errorf("mode not kept: %v %v", st.Mode(), err)
	}

	// A second run changes nothing.
	rs, err = Run(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Action != Unchanged {
			t.Errorf("second run: %s %s: %s", r.Agent, r.Kind, r.Action)
		}
	}
	if got := snapshot(t, home); !equalMaps(got, after) {
		t.Errorf("second run changed files")
	}

	// Remove restores each file that existed to its bytes, empty objects
	// that were there before setup included.
	rm := o
	rm.Remove = true
	if _, err := Run(rm); err != nil {
		t.Fatal(err)
	}
	got := snapshot(t, home)
	for rel, content := range before {
		if got[rel] != content {
			t.Errorf("remove: %s:\ngot\n%s\nwant\n%s", rel, got[rel], content)
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".config/systemd/user/convsearch.service")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("remove left the service file: %v", err)
	}
	if s := got[".config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"]; strings.Contains(s, "convsearch") {
		t.Errorf("remove left roo-code's entry: %s", s)
	}
}

func TestSetupUnparsableFile(t *testing.T) {
	tests := []struct {
		name, rel, content string
	}{
		{"broken JSON", ".cursor/mcp.json", "{\"mcpServers\": {\"a\": \n"},
		{"JSON array", ".cursor/mcp.json", "[]\n"},
		{"broken TOML", ".codex/config.toml", "[mcp_servers\ncommand = 1\n"},
		{"inline TOML table", ".codex/config.toml", "mcp_servers.convsearch = { command = \"x\" }\n"},
		{"servers not an object", ".config/Code/User/mcp.json", "{\"servers\": []}\n"},
		{"duplicate key", ".cursor/mcp.json", "{\"mcpServers\": {\"a\": {}}, \"mcpServers\": {}}\n"},
		{"duplicate nested key", ".cursor/mcp.json", "{\"mcpServers\": {\"convsearch\": {}, \"convsearch\": {}}}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := makeHome(t)
			p := filepath.Join(home, tt.rel)
			if err := os.WriteFile(p, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			rs, err := Run(options(home))
			if !errors.Is(err, ErrFailed) {
				t.Fatalf("err = %v, want ErrFailed", err)
			}
			for _, r := range rs {
				switch {
				case r.File == p && (r.Action != Failed || !strings.Contains(r.Error, p)):
					t.Errorf("%s: %s %q, want failed naming the file", r.Agent, r.Action, r.Error)
				case r.File != p && r.Action != Added:
					t.Errorf("%s %s: %s, want added", r.Agent, r.Kind, r.Action)
				}
			}
			if b, _ := os.ReadFile(p); string(b) != tt.content {
				t.Errorf("the unparsable file changed: %q", b)
			}
		})
	}
}

func TestSetupNotInstalled(t *testing.T) {
	home := t.TempDir()
	rs, err := Run(options(home))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.Kind != "service" && r.Action != Skipped {
			t.Errorf("%s %s: %s, want skipped", r.Agent, r.Kind, r.Action)
		}
	}
	entries, _ := os.ReadDir(home)
	for _, e := range entries {
		if e.Name() != ".config" {
			t.Errorf("created %s for an agent not installed", e.Name())
		}
	}
}

func TestUnifiedDiff(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "x\n", "x\n", ""},
		{"append", "a\nb\n", "a\nb\nc\n", "--- f\n+++ f (convsearch setup)\n@@ -1,2 +1,3 @@\n a\n b\n+c\n"},
		{"new file", "", "a\n", "--- f\n+++ f (convsearch setup)\n@@ -0,0 +1 @@\n+a\n"},
		{"middle", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nX\n6\n7\n8\n9\n", "--- f\n+++ f (convsearch setup)\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+X\n 6\n 7\n 8\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unifiedDiff("f", []byte(tt.a), []byte(tt.b)); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func equalMaps[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestHookWhateverTheBinaryIsCalled: a binary not named convsearch (a
// renamed copy, --command) still finds its own hook, so a second run adds
// no second one and --remove takes it out.
func TestHookWhateverTheBinaryIsCalled(t *testing.T) {
	for _, bin := range []string{"/tmp/cs", "/opt/convsearch/bin/convsearch", "/home/a b/bin/memory"} {
		t.Run(bin, func(t *testing.T) {
			home := t.TempDir()
			if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o755); err != nil {
				t.Fatal(err)
			}
			o := Options{Home: home, GOOS: "linux", Command: bin, Hook: true}
			settings := filepath.Join(home, ".claude", "settings.json")
			for run, want := range []Action{Added, Unchanged} {
				rs, err := Run(o)
				if err != nil {
					t.Fatal(err)
				}
				if got := actions(rs)["claude-code/hook"]; got != want {
					t.Errorf("run %d: hook %s, want %s", run+1, got, want)
				}
			}
			b, _ := os.ReadFile(settings)
			if n := strings.Count(string(b), "recall --hook"); n != 1 {
				t.Errorf("%d hooks after two runs:\n%s", n, b)
			}
			o.Remove = true
			rs, err := Run(o)
			if err != nil {
				t.Fatal(err)
			}
			if got := actions(rs)["claude-code/hook"]; got != Removed {
				t.Errorf("remove: hook %s, want removed", got)
			}
			if b, _ := os.ReadFile(settings); strings.Contains(string(b), "recall") {
				t.Errorf("the hook is still there after --remove:\n%s", b)
			}
		})
	}
}

// TestVSCodeFolder: VS Code's user folder is where the editor keeps it on
// each system, %APPDATA% on Windows included.
func TestVSCodeFolder(t *testing.T) {
	env := map[string]string{"APPDATA": `D:\Roaming`}
	cases := []struct{ goos, want string }{
		{"linux", filepath.Join("/h/.config", "Code", "User", "mcp.json")},
		{"darwin", filepath.Join("/h", "Library", "Application Support", "Code", "User", "mcp.json")},
		{"windows", filepath.Join(`D:\Roaming`, "Code", "User", "mcp.json")},
	}
	for _, c := range cases {
		var got string
		for _, a := range Agents(Options{Home: "/h", ConfigHome: "/h/.config", GOOS: c.goos, Getenv: func(k string) string { return env[k] }}) {
			if a.Name == "vscode" {
				got = a.File
			}
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.goos, got, c.want)
		}
	}
}

// TestHookKeepsTheUserHooksInItsGroup: Claude Code's /hooks menu puts hooks
// with the same matcher in one group; setup updates or removes its own
// hook entry there and never the user's beside it.
func TestHookKeepsTheUserHooksInItsGroup(t *testing.T) {
	const bin = "/opt/convsearch/bin/convsearch"
	user := `{"type": "command", "command": "~/bin/load-env.sh"}`
	tests := []struct {
		name, before string
		remove       bool
		want         []string // in the file after
		wantNot      []string
		action       Action
	}{
		{"update in a shared group", `{"hooks": {"SessionStart": [{"matcher": "", "hooks": [` + user + `, {"type": "command", "command": "/old/convsearch recall --hook", "timeout": 10}]}]}}`,
			false, []string{"load-env.sh", bin + " recall --hook"}, []string{"/old/convsearch", `"timeout": 10`}, Updated},
		{"add beside a user group", `{"hooks": {"SessionStart": [{"matcher": "", "hooks": [` + user + `]}]}}`,
			false, []string{"load-env.sh", bin + " recall --hook"}, nil, Added},
		{"remove from a shared group", `{"hooks": {"SessionStart": [{"matcher": "", "hooks": [` + user + `, {"type": "command", "command": "/x/convsearch recall --hook", "timeout": 10}]}]}}`,
			true, []string{"load-env.sh", `"SessionStart"`, `"matcher"`}, []string{"recall --hook"}, Removed},
		{"a second of ours dropped, its group's comment kept", "{\"hooks\": {\"SessionStart\": [{\"matcher\": \"\", \"hooks\": [{\"type\": \"command\", \"command\": \"/x/convsearch recall --hook\"}]}, {\"matcher\": \"\", \"hooks\": [{\"type\": \"command\", \"command\": \"/y/convsearch recall --hook\"} // keep me\n]}]}}",
			false, []string{"// keep me", bin + " recall --hook"}, []string{"/x/convsearch", "/y/convsearch"}, Updated},
		{"remove our group only", `{"hooks": {"SessionStart": [{"matcher": "", "hooks": [` + user + `]}, {"matcher": "", "hooks": [{"type": "command", "command": "/x/convsearch recall --hook"}]}]}}`,
			true, []string{"load-env.sh"}, []string{"recall --hook"}, Removed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			settings := filepath.Join(home, ".claude", "settings.json")
			if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(settings, []byte(tt.before), 0o644); err != nil {
				t.Fatal(err)
			}
			rs, err := Run(Options{Home: home, GOOS: "linux", Command: bin, Hook: true, Remove: tt.remove})
			if err != nil {
				t.Fatal(err)
			}
			if got := actions(rs)["claude-code/hook"]; got != tt.action {
				t.Errorf("hook %s, want %s", got, tt.action)
			}
			b, _ := os.ReadFile(settings)
			for _, w := range tt.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("%q is gone:\n%s", w, b)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(string(b), w) {
					t.Errorf("%q is still there:\n%s", w, b)
				}
			}
			if n := strings.Count(string(b), "recall --hook"); !tt.remove && n != 1 {
				t.Errorf("%d hooks of ours:\n%s", n, b)
			}
		})
	}
}

// TestRerunKeepsTheUserSettings: an entry of ours that is there already
// gets the new command (and "mcp" first in its args) and keeps what the
// user added: more args (the README's --root), env, trust, extra TOML keys
// and subtables.
func TestRerunKeepsTheUserSettings(t *testing.T) {
	const bin = "/opt/convsearch/bin/convsearch"
	tests := []struct {
		name, rel, before, want string
	}{
		{"claude args env trust", ".claude.json",
			`{"mcpServers": {"convsearch": {"type": "stdio", "command": "/old/convsearch", "args": ["mcp", "--root", "/p"], "env": {"A": "1"}, "trust": true}}}`,
			`{"mcpServers": {"convsearch": {"type": "stdio", "command": "/opt/convsearch/bin/convsearch", "args": ["mcp", "--root", "/p"], "env": {"A": "1"}, "trust": true}}}`},
		{"args without mcp", ".cursor/mcp.json",
			`{"mcpServers": {"convsearch": {"command": "/old/convsearch", "args": ["--root", "/p"]}}}`,
			`{"mcpServers": {"convsearch": {"command": "/opt/convsearch/bin/convsearch", "args": ["mcp", "--root", "/p"]}}}`},
		{"no args", ".cursor/mcp.json",
			"{\n  \"mcpServers\": {\n    \"convsearch\": {\n      \"command\": \"/old/convsearch\"\n    }\n  }\n}\n",
			"{\n  \"mcpServers\": {\n    \"convsearch\": {\n      \"command\": \"/opt/convsearch/bin/convsearch\",\n      \"args\": [\n        \"mcp\"\n      ]\n    }\n  }\n}\n"},
		{"opencode command list", ".config/opencode/opencode.json",
			`{"mcp": {"convsearch": {"type": "local", "command": ["/old/convsearch", "mcp", "--root", "/p"], "enabled": false}}}`,
			`{"mcp": {"convsearch": {"type": "local", "command": ["/opt/convsearch/bin/convsearch", "mcp", "--root", "/p"], "enabled": false}}}`},
		{"codex keys and env", ".codex/config.toml",
			"[mcp_servers.convsearch]\ncommand = \"/old/convsearch\"\nargs = [\"mcp\", \"--root\", \"/p\"]\nstartup_timeout_sec = 30\n\n[mcp_servers.convsearch.env]\nA = \"1\"\n",
			"[mcp_servers.convsearch]\ncommand = '/opt/convsearch/bin/convsearch'\nargs = [\"mcp\", \"--root\", \"/p\"]\nstartup_timeout_sec = 30\n\n[mcp_servers.convsearch.env]\nA = \"1\"\n"},
		{"codex args without mcp", ".codex/config.toml",
			"[mcp_servers.convsearch]\ncommand = \"/old/convsearch\"\nargs = [\"--root\", \"/p\"]\n",
			"[mcp_servers.convsearch]\ncommand = '/opt/convsearch/bin/convsearch'\nargs = [\"mcp\", \"--root\", \"/p\"]\n"},
		{"codex no args", ".codex/config.toml",
			"[mcp_servers.convsearch]\ncommand = \"/old/convsearch\"\nenabled = true\n",
			"[mcp_servers.convsearch]\ncommand = '/opt/convsearch/bin/convsearch'\nargs = [\"mcp\"]\nenabled = true\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			p := filepath.Join(home, tt.rel)
			must(t, os.MkdirAll(filepath.Join(home, ".claude"), 0o755))
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.WriteFile(p, []byte(tt.before), 0o644))
			// checkFile fails unless the run has a result for p, each with
			// the action want.
			checkFile := func(run string, rs []Result, want Action) {
				t.Helper()
				seen := false
				for _, r := range rs {
					if r.File == p {
						seen = true
						if r.Action != want {
							t.Errorf("%s: %s: %s, want %s", run, r.Agent, r.Action, want)
						}
					}
				}
				if !seen {
					t.Errorf("%s: no result for %s", run, p)
				}
			}
			rs, err := Run(Options{Home: home, GOOS: "linux", Command: bin})
			if err != nil {
				t.Fatal(err)
			}
			checkFile("first run", rs, Updated)
			if b, _ := os.ReadFile(p); string(b) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b, tt.want)
			}
			// A second run leaves it.
			rs, err = Run(Options{Home: home, GOOS: "linux", Command: bin})
			if err != nil {
				t.Fatal(err)
			}
			checkFile("second run", rs, Unchanged)
		})
	}
}

// TestSymlinkedConfigStaysALink: a config file kept in a dotfiles folder
// and linked into place (stow) stays a link; its target gets the change
// and the backup.
func TestSymlinkedConfigStaysALink(t *testing.T) {
	const before = "{\n  \"mcpServers\": {}\n}\n"
	tests := []struct {
		name string
		link func(dots, cursor string) string // makes the link(s), returns the target
	}{
		{"absolute", func(dots, cursor string) string {
			target := filepath.Join(dots, "mcp.json")
			must(t, os.Symlink(target, filepath.Join(cursor, "mcp.json")))
			return target
		}},
		{"relative", func(dots, cursor string) string {
			rel, _ := filepath.Rel(cursor, filepath.Join(dots, "mcp.json"))
			must(t, os.Symlink(rel, filepath.Join(cursor, "mcp.json")))
			return filepath.Join(dots, "mcp.json")
		}},
		{"link to a link", func(dots, cursor string) string {
			target := filepath.Join(dots, "mcp.json")
			must(t, os.Symlink(target, filepath.Join(dots, "link.json")))
			must(t, os.Symlink(filepath.Join(dots, "link.json"), filepath.Join(cursor, "mcp.json")))
			return target
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			dots, cursor := filepath.Join(home, "dotfiles"), filepath.Join(home, ".cursor")
			must(t, os.MkdirAll(dots, 0o755))
			must(t, os.MkdirAll(cursor, 0o755))
			must(t, os.WriteFile(filepath.Join(dots, "mcp.json"), []byte(before), 0o644))
			target := tt.link(dots, cursor)
			if _, err := Run(Options{Home: home, GOOS: "linux", Command: "/bin/cs"}); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(cursor, "mcp.json")
			if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("%s is no longer a link: %v", link, err)
			}
			if b, _ := os.ReadFile(target); !strings.Contains(string(b), "/bin/cs") {
				t.Errorf("the target was not written:\n%s", b)
			}
			if b, _ := os.ReadFile(target + BackupSuffix); string(b) != before {
				t.Errorf("backup beside the target: %q", b)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestRemoveGivesTheFileBack: setup then --remove gives each file back
// byte for byte: the objects setup created go, the empty ones that were
// there stay, as they were laid out. Without the record of what setup did
// (a state file lost), remove takes out its entry and no container.
func TestRemoveGivesTheFileBack(t *testing.T) {
	tests := []struct {
		name, rel, before string
		lost              bool   // the state file is gone before remove
		want              string // after remove, when not before
	}{
		{"vscode empty servers", ".config/Code/User/mcp.json", "{\"servers\": {}, \"inputs\": []}\n", false, ""},
		{"empty object on two lines", ".cursor/mcp.json", "{\n  \"mcpServers\": {\n  }\n}\n", false, ""},
		{"empty file object", ".cursor/mcp.json", "{}\n", false, ""},
		{"no mcpServers", ".cursor/mcp.json", "{\n  \"x\": 1\n}\n", false, ""},
		{"hooks there, no SessionStart", ".claude/settings.json", "{\n  \"hooks\": {}\n}\n", false, ""},
		{"empty SessionStart", ".claude/settings.json", "{\"hooks\": {\"SessionStart\": []}}", false, ""},
		{"state lost: containers stay", ".cursor/mcp.json", "{\n  \"x\": 1\n}\n", true, "{\n  \"x\": 1,\n  \"mcpServers\": {\n  }\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			p := filepath.Join(home, tt.rel)
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			must(t, os.MkdirAll(filepath.Join(home, ".claude"), 0o755))
			must(t, os.WriteFile(p, []byte(tt.before), 0o644))
			o := Options{Home: home, GOOS: "linux", Command: "/bin/cs", Hook: true}
			if _, err := Run(o); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(p); !strings.Contains(string(b), "/bin/cs") {
				t.Fatalf("not set up:\n%s", b)
			}
			if tt.lost {
				must(t, os.Remove(filepath.Join(home, ".config", "convsearch", "setup-state.json")))
			}
			o.Remove = true
			if _, err := Run(o); err != nil {
				t.Fatal(err)
			}
			want := tt.want
			if want == "" {
				want = tt.before
			}
			if b, _ := os.ReadFile(p); string(b) != want {
				t.Errorf("got\n%s\nwant\n%s", b, want)
			}
		})
	}
}

// TestSystemdQuote: the binary's path in ExecStart, where systemd expands
// %-specifiers and $VARIABLES and splits at spaces.
func TestSystemdQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/usr/bin/convsearch", "/usr/bin/convsearch"},
		{"/home/a/100%/convsearch", "/home/a/100%%/convsearch"},
		{"/home/a/$HOME/convsearch", "/home/a/$$HOME/convsearch"},
		{"/home/a b/%h/convsearch", `"/home/a b/%%h/convsearch"`},
		{`/home/a"b\c/convsearch`, `"/home/a\"b\\c/convsearch"`},
	}
	for _, tt := range tests {
		if got := systemdQuote(tt.in); got != tt.want {
			t.Errorf("systemdQuote(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSetupDetails: lines written into a CRLF file end in CRLF; a backup
// is reported only when one was made; an error names its file once.
func TestSetupDetails(t *testing.T) {
	tests := []struct {
		name, rel, before string
		dir               bool // the file is a folder: setup fails on it
		crlf, backup      bool
	}{
		{"CRLF JSON", ".cursor/mcp.json", "{\r\n  \"mcpServers\": {}\r\n}\r\n", false, true, true},
		{"CRLF TOML", ".codex/config.toml", "model = \"o3\"\r\n", false, true, true},
		{"LF JSON", ".cursor/mcp.json", "{\n  \"x\": 1\n}\n", false, false, true},
		{"new file", ".cursor/mcp.json", "", false, false, false},
		{"a folder", ".cursor/mcp.json", "", true, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			p := filepath.Join(home, tt.rel)
			must(t, os.MkdirAll(filepath.Dir(p), 0o755))
			switch {
			case tt.dir:
				must(t, os.Mkdir(p, 0o755))
			case tt.before != "":
				must(t, os.WriteFile(p, []byte(tt.before), 0o644))
			}
			rs, _ := Run(Options{Home: home, GOOS: "linux", Command: "/bin/cs"})
			var r Result
			for _, x := range rs {
				if x.File == p {
					r = x
				}
			}
			if r.File != p {
				t.Fatalf("no result for %s", p)
			}
			if tt.dir {
				if r.Action != Failed || strings.Count(r.Error, p) != 1 {
					t.Errorf("%s %q: want failed, naming %s once", r.Action, r.Error, p)
				}
				return
			}
			b, _ := os.ReadFile(p)
			if lf, crlf := strings.Count(string(b), "\n"), strings.Count(string(b), "\r\n"); tt.crlf && lf != crlf {
				t.Errorf("%d lines, %d ending in CRLF:\n%q", lf, crlf, b)
			}
			if !tt.crlf && strings.Contains(string(b), "\r") {
				t.Errorf("a CR in an LF file:\n%q", b)
			}
			if got := r.Backup != ""; got != tt.backup {
				t.Errorf("backup %q, want one: %v", r.Backup, tt.backup)
			}
		})
	}
}

// TestRemoveGivesBackFilesItCreated: setup then --remove, with --hook and
// --service, in a home where the agents are installed but their files are
// not there (or are empty), gives the home back as it was: the files setup
// created go, with no backup of them and no state file left; an empty file
// that was there gets back its bytes. A file setup created that the user
// has since added to stays, with only what they put in.
func TestRemoveGivesBackFilesItCreated(t *testing.T) {
	const bin = "/opt/convsearch/bin/convsearch"
	markers := func(home string) []string {
		o := Options{Home: home, ConfigHome: filepath.Join(home, ".config"), GOOS: "linux", Getenv: func(string) string { return "" }}
		var ds []string
		for _, a := range Agents(o) {
			rel, _ := filepath.Rel(home, a.Marker)
			ds = append(ds, rel)
		}
		return ds
	}
	type tc struct {
		name      string
		installed []string          // marker folders, relative to home; nil: every agent's
		before    map[string]string // files there before setup
		user      map[string]string // what the user writes between setup and remove
		want      map[string]string // files after remove; nil: before
	}
	tests := []tc{
		{name: "every agent, no files"},
		{name: "claude-code, gemini, codex, no files", installed: []string{".claude", ".gemini", ".codex"}},
		{name: "empty files", installed: []string{".claude", ".gemini", ".codex", ".cursor"}, before: map[string]string{
			".claude.json": "", ".claude/settings.json": "\n", ".gemini/settings.json": "  \n\n", ".codex/config.toml": "", ".cursor/mcp.json": "\r\n",
		}},
		{name: "empty objects", installed: []string{".claude", ".gemini", ".cursor"}, before: map[string]string{
			".claude.json": "{}", ".claude/settings.json": "{}\n", ".gemini/settings.json": "{\n}\n", ".cursor/mcp.json": "{ }\n",
		}},
		{name: "the user added to the files setup created", installed: []string{".claude", ".gemini", ".codex"},
			user: map[string]string{
				".claude/settings.json": "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"SessionStart\": [\n      {\n        \"matcher\": \"\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"'" + bin + "' recall --hook\",\n            \"timeout\": 5\n          }\n        ]\n      }\n    ]\n  }\n}\n",
				".codex/config.toml":    "model = \"o3\"\n\n[mcp_servers.convsearch]\ncommand = '" + bin + "'\nargs = [\"mcp\"]\n",
			},
			want: map[string]string{
				".claude/settings.json": "{\n  \"model\": \"opus\"\n}\n",
				".codex/config.toml":    "model = \"o3\"\n",
			}},
		{name: "the user added a server beside ours", installed: []string{".gemini"},
			user: map[string]string{
				".gemini/settings.json": "{\n  \"mcpServers\": {\n    \"convsearch\": {\n      \"command\": \"" + bin + "\",\n      \"args\": [\n        \"mcp\"\n      ]\n    },\n    \"a\": {\"command\": \"a\"}\n  }\n}\n",
			},
			want: map[string]string{
				".gemini/settings.json": "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"a\"}\n  }\n}\n",
			}},
	}
	for _, a := range Agents(Options{Home: "/h", ConfigHome: "/h/.config", GOOS: "linux", Getenv: func(string) string { return "" }}) {
		rel, _ := filepath.Rel("/h", a.Marker)
		tests = append(tests, tc{name: a.Name + ", no file", installed: []string{rel}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			installed := tt.installed
			if installed == nil {
				installed = markers(home)
			}
			for _, d := range installed {
				must(t, os.MkdirAll(filepath.Join(home, d), 0o755))
			}
			for rel, content := range tt.before {
				must(t, os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o755))
				must(t, os.WriteFile(filepath.Join(home, rel), []byte(content), 0o644))
			}
			before := snapshot(t, home)
			o := Options{Home: home, GOOS: "linux", Command: bin, Hook: true, Service: true}
			rs, err := Run(o)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				if r.Action != Added && r.Action != Skipped {
					t.Errorf("setup: %s %s: %s %s", r.Agent, r.Kind, r.Action, r.Error)
				}
				if r.Backup != "" {
					t.Errorf("setup: %s %s: a backup of a file that was not there or empty: %s", r.Agent, r.Kind, r.Backup)
				}
			}
			// A second run, then a dry run of remove, change nothing.
			mid := snapshot(t, home)
			if _, err := Run(o); err != nil {
				t.Fatal(err)
			}
			dry := o
			dry.Remove, dry.DryRun = true, true
			if _, err := Run(dry); err != nil {
				t.Fatal(err)
			}
			if got := snapshot(t, home); !equalMaps(got, mid) {
				t.Errorf("a second run or a dry run changed files")
			}
			for rel, content := range tt.user {
				if _, ok := mid[rel]; !ok {
					t.Fatalf("setup did not write %s", rel)
				}
				must(t, os.WriteFile(filepath.Join(home, rel), []byte(content), 0o644))
			}
			o.Remove = true
			rs, err = Run(o)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				if r.Backup != "" {
					t.Errorf("remove: %s %s: a backup of a file setup created or found empty: %s", r.Agent, r.Kind, r.Backup)
				}
			}
			want := tt.want
			if want == nil {
				want = before
			}
			if got := snapshot(t, home); !equalMaps(got, want) {
				t.Errorf("after remove:\ngot  %q\nwant %q", got, want)
			}
			// And again: setup and remove know nothing of the files now.
			if _, err := Run(o); err != nil {
				t.Fatal(err)
			}
			if got := snapshot(t, home); !equalMaps(got, want) {
				t.Errorf("after a second remove:\ngot  %q\nwant %q", got, want)
			}
		})
	}
}

// TestRemoveWithAnOlderStateFile: a state file written before setup
// recorded the files it created still reads; remove then takes out its
// entry and the containers it recorded, and leaves the file.
func TestRemoveWithAnOlderStateFile(t *testing.T) {
	home := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(home, ".cursor"), 0o755))
	p := filepath.Join(home, ".cursor", "mcp.json")
	state := filepath.Join(home, ".config", "convsearch", "setup-state.json")
	o := Options{Home: home, GOOS: "linux", Command: "/bin/cs"}
	if _, err := Run(o); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(state)
	must(t, err)
	if !strings.Contains(string(b), `"created": true`) {
		t.Fatalf("the state file does not say setup created %s:\n%s", p, b)
	}
	// As an older convsearch wrote it: the containers only.
	old := "{\n  " + jsonString(p) + ": [\n    {\"path\": [\"mcpServers\"], \"created\": true},\n    {\"path\": null, \"closing\": \"\"}\n  ]\n}\n"
	must(t, os.WriteFile(state, []byte(old), 0o600))
	o.Remove = true
	rs, err := Run(o)
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(rs)["cursor/mcp"]; got != Removed {
		t.Errorf("cursor: %s, want removed", got)
	}
	if b, _ := os.ReadFile(p); string(b) != "{}\n" {
		t.Errorf("got %q, want {}", b)
	}
	if _, err := os.Stat(state); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the state file is left after remove: %v", err)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
