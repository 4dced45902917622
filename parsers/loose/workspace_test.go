package loose

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWorkspaceFolder(t *testing.T) {
	dir := t.TempDir()
	tests := []struct{ json, want string }{
		{`{"folder": "file:///home/sam/src/tide%20tables"}`, "/home/sam/src/tide tables"},
		{`{"workspace": "file:///home/sam/all.code-workspace"}`, "/home/sam/all.code-workspace"},
		{`{"folder": "file:///a", "workspace": "file:///b.code-workspace"}`, "/a"},
		{`{"folder": "vscode-remote://ssh-remote+box/srv/app"}`, "/srv/app"},
		{`{"folder": "not a uri"}`, "not a uri"},
		{`{"folder": null, "workspace": ""}`, ""},
		{`{}`, ""},
		{`not json`, ""},
	}
	for i, tt := range tests {
		path := filepath.Join(dir, "w"+string(rune('a'+i))+".json")
		if err := os.WriteFile(path, []byte(tt.json), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := WorkspaceFolder(path); got != tt.want {
			t.Errorf("WorkspaceFolder(%s) = %q, want %q", tt.json, got, tt.want)
		}
	}
	if got := WorkspaceFolder(filepath.Join(dir, "missing.json")); got != "" {
		t.Errorf("a missing workspace.json: %q", got)
	}
}
