// Package setup registers `convsearch mcp` in the MCP configuration of each
// agent installed for the user, installs recall at session start as the
// agents' hook, and the daemon as a user service; and undoes exactly that.
// Each file keeps its other content and layout: JSON (with comments) is
// edited as a syntax tree, TOML as text, one table at a time.
package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/convsearch/convsearch/internal/atomicfile"
	"github.com/convsearch/convsearch/internal/term"
	"github.com/convsearch/convsearch/parsers"
)

// Action is what setup did (or, with DryRun, would do) to one file.
type Action string

// Actions.
const (
	Added     Action = "added"
	Updated   Action = "updated"
	Unchanged Action = "unchanged"
	Removed   Action = "removed"
	Skipped   Action = "skipped"
	Failed    Action = "failed"
)

// BackupSuffix is added to a file's name for the copy of it kept before
// setup changes it; each change replaces the copy, which so holds the file
// as it was just before convsearch last wrote it. A file setup created, or
// found empty, gets none: there was nothing in it to keep.
const BackupSuffix = ".convsearch-backup"

// Options say what to set up and where.
type Options struct {
	// Home is the user's home folder.
	Home string
	// ConfigHome is $XDG_CONFIG_HOME (default Home/.config).
	ConfigHome string
	// GOOS picks the per-system locations (VS Code, the service).
	GOOS string
	// Getenv reads the variables some agents move their folder with
	// (CLAUDE_CONFIG_DIR, CODEX_HOME); nil: none set.
	Getenv func(string) string
	// Command is the absolute path of the convsearch binary to register.
	Command string
	// Hook also installs recall at session start; Service the daemon as a
	// user service.
	Hook, Service bool
	// Remove undoes all of it: MCP entries, hooks and the service.
	Remove bool
	// DryRun changes nothing; each result carries its diff.
	DryRun bool
	// StateFile keeps what setup did to the containers of each file (the
	// objects it created, the layout of empty ones it added to), so that
	// Remove undoes exactly that; default ConfigHome/convsearch/setup-state.json.
	StateFile string

	// backedUp are the files backed up in this run: a file edited twice
	// (an agent's MCP entry and hook in one settings file) keeps the copy
	// from before the first edit.
	backedUp map[string]bool
	// dryRun is each file as the edits of this dry run left it so far.
	dryRun map[string][]byte
	// marks are, per file, what setup did to its containers (see mark),
	// kept in StateFile between runs.
	marks      map[string][]mark
	marksDirty *bool
}

// Result is what happened to one file.
type Result struct {
	Agent  string `json:"agent"`
	Kind   string `json:"kind"` // mcp, hook or service
	File   string `json:"file,omitempty"`
	Action Action `json:"action"`
	Error  string `json:"error,omitempty"`
	// Diff is the unified diff of the change, with DryRun.
	Diff string `json:"diff,omitempty"`
	// Backup is the copy of the file as it was, when this change made one.
	Backup string `json:"backup,omitempty"`
}

// ErrFailed is returned by Run when some file could not be set up (its
// Result says why); the others were.
var ErrFailed = errors.New("some files could not be set up")

// Run sets up (or, with Remove, undoes) every agent found, the hooks and
// the service as asked, and returns one Result per file; a file that fails
// leaves the others to be done, and Run then returns ErrFailed.
func Run(o Options) ([]Result, error) {
	if o.Home == "" {
		return nil, errors.New("setup: no home folder")
	}
	if o.ConfigHome == "" || !filepath.IsAbs(o.ConfigHome) {
		o.ConfigHome = filepath.Join(o.Home, ".config")
	}
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	if !o.Remove && !filepath.IsAbs(o.Command) {
		return nil, fmt.Errorf("setup: the command to register must be an absolute path, not %q", o.Command)
	}
	o.backedUp, o.dryRun = map[string]bool{}, map[string][]byte{}
	if o.StateFile == "" {
		o.StateFile = filepath.Join(o.ConfigHome, "convsearch", "setup-state.json")
	}
	o.marks, o.marksDirty = map[string][]mark{}, new(bool)
	if b, err := os.ReadFile(o.StateFile); err == nil {
		if err := json.Unmarshal(b, &o.marks); err != nil {
			return nil, fmt.Errorf("setup: %s: %w", o.StateFile, err)
		}
	}
	var results []Result
	for _, a := range Agents(o) {
		results = append(results, o.apply(a.Name, "mcp", a.Marker, a.File, a.edit(o, o.Remove), a.edit(o, true)))
	}
	if o.Hook || o.Remove {
		for _, h := range hooks(o) {
			results = append(results, o.apply(h.agent, "hook", h.marker, h.file, h.edit(o.Remove), h.edit(true)))
		}
	}
	if o.Service || o.Remove {
		results = append(results, o.service())
	}
	if o.Remove && !o.DryRun {
		// Each file undone is back to what the user made of it: no mark of
		// setup's is left to undo (the others' wait for a run that can).
		done := map[string]bool{}
		for _, r := range results {
			prev, seen := done[r.File]
			done[r.File] = (!seen || prev) && (r.Action == Removed || r.Action == Unchanged)
		}
		for file, ok := range done {
			if _, marked := o.marks[file]; ok && marked {
				o.setMarks(file, nil)
			}
		}
	}
	if *o.marksDirty && !o.DryRun {
		if err := o.saveMarks(); err != nil {
			results = append(results, Result{Agent: "convsearch", Kind: "state", File: o.StateFile, Action: Failed, Error: err.Error()})
		}
	}
	for i := range results { // one diff per file: its last result's
		for j := i + 1; j < len(results); j++ {
			if results[j].File == results[i].File && results[j].Diff != "" {
				results[i].Diff = ""
			}
		}
	}
	for _, r := range results {
		if r.Action == Failed {
			return results, ErrFailed
		}
	}
	return results, nil
}

// editFunc turns a file's content into what it should be, given the marks
// of what setup did to it before (JSON files), and returns the marks now.
type editFunc func(data []byte, marks []mark) ([]byte, []mark, error)

// apply runs edit on file when the agent's marker folder exists, and
// writes the result atomically (a backup of the old content beside it).
func (o Options) apply(agent, kind, marker, file string, edit, undo editFunc) Result {
	r := Result{Agent: agent, Kind: kind, File: file}
	if st, err := os.Stat(marker); err != nil || !st.IsDir() {
		r.Action, r.Error = Skipped, "not installed (no "+marker+")"
		return r
	}
	data, err := os.ReadFile(file)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return failed(r, err) // names the file
	}
	original := data
	if p, ok := o.dryRun[file]; ok { // edited (or deleted: nil) already in this dry run
		data, exists = p, p != nil
	}
	if !exists && o.Remove {
		r.Action = Unchanged
		return r
	}
	// A file setup created, or found empty ({} included), has no backup:
	// there was nothing in it to keep.
	backup := exists && !o.backedUp[file] && fileMark(o.marks[file]) < 0 && !blank(data)
	marks := slices.Clone(o.marks[file])
	if !o.Remove && fileMark(marks) < 0 {
		// Record that setup created the file, or found it empty, so that
		// Remove can give it back as it was.
		switch {
		case !exists:
			marks = append(marks, mark{Path: []string{}, Created: true})
		case blank(data):
			b := string(data)
			marks = append(marks, mark{Path: []string{}, Blank: &b})
		}
	}
	out := data // an empty file holds nothing to remove (nor is it made {})
	if !o.Remove || len(bytes.TrimSpace(data)) > 0 {
		if out, marks, err = edit(data, marks); err != nil {
			return failed(r, fmt.Errorf("%s: %w", file, err))
		}
		out = sameLineEnds(data, out)
	}
	del := false
	if i := fileMark(marks); o.Remove && i >= 0 {
		switch fm := marks[i]; {
		case blank(out) && fm.Created:
			// Nothing but setup's content was in the file it created: the
			// file goes (a link the user put there stays, emptied).
			if st, err := os.Lstat(file); err == nil && st.Mode()&fs.ModeSymlink == 0 {
				del = true
			}
			marks = nil
		case blank(out) && fm.Blank != nil:
			out, marks = []byte(*fm.Blank), nil
		}
	}
	if exists && !del && string(out) == string(data) {
		o.setMarks(file, marks)
		r.Action = Unchanged
		return r
	}
	switch {
	case o.Remove:
		r.Action = Removed
	case exists && !blank(data) && hasEntry(data, o.marks[file], undo):
		r.Action = Updated
	default:
		r.Action = Added
	}
	if del {
		out = nil
	}
	if o.DryRun {
		// One diff per file, of all its edits: the last result for the
		// file carries it (Run clears it from the earlier ones).
		o.dryRun[file] = out
		o.setMarks(file, marks) // for the next edit; a dry run saves none
		r.Diff = unifiedDiff(file, original, out)
		return r
	}
	if del {
		if err := os.Remove(file); err != nil {
			return failed(r, err)
		}
		o.setMarks(file, nil)
		return r
	}
	backupFile, err := write(file, data, backup, out)
	if err != nil {
		return failed(r, err)
	}
	r.Backup = backupFile
	o.backedUp[file] = true
	o.setMarks(file, marks)
	return r
}

// setMarks records file's marks after a write.
func (o Options) setMarks(file string, marks []mark) {
	if slices.EqualFunc(marks, o.marks[file], func(a, b mark) bool {
		return slices.Equal(a.Path, b.Path) && a.Created == b.Created && sameString(a.Closing, b.Closing) && sameString(a.Blank, b.Blank)
	}) {
		return
	}
	if len(marks) == 0 {
		delete(o.marks, file)
	} else {
		o.marks[file] = marks
	}
	*o.marksDirty = true
}

func sameString(a, b *string) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// saveMarks writes the marks to StateFile, or removes it when none are left.
func (o Options) saveMarks() error {
	if len(o.marks) == 0 {
		if err := os.Remove(o.StateFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	b, err := json.MarshalIndent(o.marks, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(o.StateFile), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(o.StateFile, append(b, '\n'), 0o600)
}

// sameLineEnds gives the lines setup wrote into out the line ends of old
// when all of old's lines end in CRLF.
func sameLineEnds(old, out []byte) []byte {
	n := bytes.Count(old, []byte("\n"))
	if n == 0 || bytes.Count(old, []byte("\r\n")) != n {
		return out
	}
	out = bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n"))
	return bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
}

// hasEntry tells an update from an addition: undoing changes the old
// content only when an entry of ours was in it.
func hasEntry(data []byte, marks []mark, undo editFunc) bool {
	out, _, err := undo(data, slices.Clone(marks))
	return err == nil && string(out) != string(data)
}

func failed(r Result, err error) Result {
	r.Action, r.Error = Failed, err.Error()
	return r
}

// write replaces file with out atomically, keeping its mode, after copying
// its old content to file+BackupSuffix when backup is set.
// A symbolic link (a dotfiles repository, stow) stays one: its target is
// written, and backed up beside the target.
func write(file string, old []byte, backup bool, out []byte) (backupFile string, err error) {
	if file, err = linkTarget(file); err != nil {
		return "", err
	}
	mode := fs.FileMode(0o600)
	st, err := os.Stat(file)
	if err == nil {
		mode = st.Mode().Perm()
		if backup {
			backupFile = file + BackupSuffix
			if err := atomicfile.WriteFile(backupFile, old, mode); err != nil {
				return "", fmt.Errorf("back up: %w", err)
			}
		}
	} else if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return "", err
	}
	return backupFile, atomicfile.WriteFile(file, out, mode)
}

// linkTarget is the file a symbolic link at file points to, followed to
// the end (even when that file is not there yet); file itself when it is
// not a link.
func linkTarget(file string) (string, error) {
	for range 40 {
		st, err := os.Lstat(file)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return file, nil
		}
		dest, err := os.Readlink(file)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(file), dest)
		}
		file = dest
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", file)
}

// Agent is one agent setup knows: where its MCP configuration is and how
// an entry looks there.
type Agent struct {
	Name string
	// Marker is the folder whose presence says the agent is installed.
	Marker string
	File   string
	// Path is the JSON path of the entry (JSON files); Table the TOML
	// table (TOML files).
	Path  []string
	Table tomlTable
	entry func(cmd string) any
}

// Agents lists the agents setup knows, with their files for o.
func Agents(o Options) []Agent {
	home, cfg := o.Home, o.ConfigHome
	stdio := func(cmd string) any { // the shape most agents share
		return object{{"command", cmd}, {"args", []string{"mcp"}}}
	}
	claudeDir := filepath.Join(home, ".claude")
	claudeFile := filepath.Join(home, ".claude.json")
	if d := o.Getenv("CLAUDE_CONFIG_DIR"); d != "" && filepath.IsAbs(d) {
		claudeDir, claudeFile = d, filepath.Join(d, ".claude.json")
	}
	codexDir := filepath.Join(home, ".codex")
	if d := o.Getenv("CODEX_HOME"); d != "" && filepath.IsAbs(d) {
		codexDir = d
	}
	// VS Code's folder, where the parsers look for it (%APPDATA% on
	// Windows included), with ConfigHome as the XDG folder.
	appData := parsers.ElectronAppData(o.GOOS, home, func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return cfg
		}
		return o.Getenv(k)
	})
	vscode := filepath.Join(appData, "Code", "User")
	opencode := filepath.Join(cfg, "opencode", "opencode.json")
	if _, err := os.Stat(filepath.Join(cfg, "opencode", "opencode.jsonc")); err == nil {
		opencode = filepath.Join(cfg, "opencode", "opencode.jsonc")
	}
	cline := filepath.Join(vscode, "globalStorage", "saoudrizwan.claude-dev")
	roo := filepath.Join(vscode, "globalStorage", "rooveterinaryinc.roo-cline")
	servers := func(name, marker, file string) Agent {
		return Agent{Name: name, Marker: marker, File: file, Path: []string{"mcpServers", "convsearch"}, entry: stdio}
	}
	return []Agent{
		{Name: "claude-code", Marker: claudeDir, File: claudeFile, Path: []string{"mcpServers", "convsearch"},
			entry: func(cmd string) any {
				return object{{"type", "stdio"}, {"command", cmd}, {"args", []string{"mcp"}}, {"env", object{}}}
			}},
		{Name: "codex", Marker: codexDir, File: filepath.Join(codexDir, "config.toml"), Table: tomlTable{"mcp_servers", "convsearch"}},
		servers("cursor", filepath.Join(home, ".cursor"), filepath.Join(home, ".cursor", "mcp.json")),
		servers("gemini", filepath.Join(home, ".gemini"), filepath.Join(home, ".gemini", "settings.json")),
		servers("qwen-code", filepath.Join(home, ".qwen"), filepath.Join(home, ".qwen", "settings.json")),
		{Name: "vscode", Marker: vscode, File: filepath.Join(vscode, "mcp.json"), Path: []string{"servers", "convsearch"},
			entry: func(cmd string) any {
				return object{{"type", "stdio"}, {"command", cmd}, {"args", []string{"mcp"}}}
			}},
		{Name: "copilot-cli", Marker: filepath.Join(home, ".copilot"), File: filepath.Join(home, ".copilot", "mcp-config.json"), Path: []string{"mcpServers", "convsearch"},
			entry: func(cmd string) any {
				return object{{"type", "local"}, {"command", cmd}, {"args", []string{"mcp"}}, {"tools", []string{"*"}}}
			}},
		servers("kiro", filepath.Join(home, ".kiro"), filepath.Join(home, ".kiro", "settings", "mcp.json")),
		servers("cline", cline, filepath.Join(cline, "settings", "cline_mcp_settings.json")),
		servers("roo-code", roo, filepath.Join(roo, "settings", "mcp_settings.json")),
		{Name: "opencode", Marker: filepath.Dir(opencode), File: opencode, Path: []string{"mcp", "convsearch"},
			entry: func(cmd string) any {
				return object{{"type", "local"}, {"command", []string{cmd, "mcp"}}, {"enabled", true}}
			}},
		{Name: "zed", Marker: filepath.Join(cfg, "zed"), File: filepath.Join(cfg, "zed", "settings.json"), Path: []string{"context_servers", "convsearch"},
			entry: func(cmd string) any {
				return object{{"command", cmd}, {"args", []string{"mcp"}}, {"env", object{}}}
			}},
		servers("windsurf", filepath.Join(home, ".codeium", "windsurf"), filepath.Join(home, ".codeium", "windsurf", "mcp_config.json")),
		servers("amazon-q", filepath.Join(home, ".aws", "amazonq"), filepath.Join(home, ".aws", "amazonq", "mcp.json")),
	}
}

// edit is the change to the agent's file: add (or update) its entry, or
// remove it.
func (a Agent) edit(o Options, remove bool) editFunc {
	if a.Table != nil {
		return func(data []byte, marks []mark) ([]byte, []mark, error) {
			var out []byte
			var err error
			if remove {
				out, err = removeTOML(data, a.Table)
			} else {
				out, err = setTOML(data, a.Table, o.Command)
			}
			return out, marks, err
		}
	}
	return func(data []byte, marks []mark) ([]byte, []mark, error) {
		d, err := parseJSON(data)
		if err != nil {
			return nil, nil, err
		}
		d.marks = marks
		if remove {
			d.remove(a.Path)
		} else if _, err := d.set(a.Path, a.entry(o.Command)); err != nil {
			return nil, nil, err
		}
		return d.bytes(), d.marks, nil
	}
}

// hook is a session-start hook in one agent's settings.
type hook struct {
	agent, marker, file string
	edit                func(remove bool) editFunc
}

// HookCommand is the command a session-start hook runs.
func HookCommand(binary string) string { return term.ShellQuote(binary) + " recall --hook" }

// isOurHook recognises a hook entry that runs convsearch recall; the
// user's hooks in the same group are not ours.
func isOurHook(v hujson.Value) bool {
	c := member(&v, "command")
	if c == nil {
		return false
	}
	lit, ok := c.Value.(hujson.Literal)
	// Whatever the binary is called (--command, a renamed copy):
	// `recall --hook` is convsearch's alone.
	return ok && strings.HasSuffix(lit.String(), " recall --hook")
}

func hooks(o Options) []hook {
	claudeDir := filepath.Join(o.Home, ".claude")
	if d := o.Getenv("CLAUDE_CONFIG_DIR"); d != "" && filepath.IsAbs(d) {
		claudeDir = d
	}
	cmd := HookCommand(o.Command)
	// Claude Code: timeout in seconds; stdout of a SessionStart hook (or
	// hookSpecificOutput.additionalContext) goes into the context.
	claudeEntry := object{{"type", "command"}, {"command", cmd}, {"timeout", 5}}
	claude := object{{"matcher", ""}, {"hooks", []any{claudeEntry}}}
	// Gemini CLI: the same shape, timeout in milliseconds, a name; its
	// lifecycle matchers are exact ("startup").
	geminiEntry := object{{"name", "convsearch-recall"}, {"type", "command"}, {"command", cmd}, {"timeout", 5000}}
	gemini := object{{"matcher", "startup"}, {"hooks", []any{geminiEntry}}}
	mk := func(agent, marker, file string, group, entry any) hook {
		path := []string{"hooks", "SessionStart"}
		return hook{agent: agent, marker: marker, file: file, edit: func(remove bool) editFunc {
			return func(data []byte, marks []mark) ([]byte, []mark, error) {
				d, err := parseJSON(data)
				if err != nil {
					return nil, nil, err
				}
				d.marks = marks
				if remove {
					d.removeHooks(path, isOurHook)
				} else if _, err := d.setHook(path, group, entry, isOurHook); err != nil {
					return nil, nil, err
				}
				return d.bytes(), d.marks, nil
			}
		}}
	}
	return []hook{
		mk("claude-code", claudeDir, filepath.Join(claudeDir, "settings.json"), claude, claudeEntry),
		mk("gemini", filepath.Join(o.Home, ".gemini"), filepath.Join(o.Home, ".gemini", "settings.json"), gemini, geminiEntry),
	}
}
