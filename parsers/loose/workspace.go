package loose

import (
	"encoding/json"
	"net/url"
)

// WorkspaceFolder is the folder (or .code-workspace file) a VS Code-style
// workspaceStorage folder belongs to, read from the workspace.json at path
// ({"folder": "file:///…"} or {"workspace": "file:///….code-workspace"}):
// the URI's path, or the value as it is when it has none. "" when the file
// is missing, unreadable or names neither. VS Code and its forks (Copilot
// Chat's sessions, Cursor's state.vscdb) all write it.
func WorkspaceFolder(path string) string {
	var w struct {
		Folder    json.RawMessage `json:"folder"`
		Workspace json.RawMessage `json:"workspace"`
	}
	if found, err := ReadSideFile(path, 1<<20, &w); !found || err != nil {
		return ""
	}
	s := String(w.Folder)
	if s == "" {
		s = String(w.Workspace)
	}
	if u, err := url.Parse(s); err == nil && u.Path != "" {
		return u.Path
	}
	return s
}
