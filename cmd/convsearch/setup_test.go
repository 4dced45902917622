package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetupCommandPath: the binary setup registers. An explicit --command
// is kept as given (a link into a versioned folder is not resolved) and
// must be an executable file; by default this binary by the stable name
// $PATH finds it at, and never a temporary binary of go run.
func TestSetupCommandPath(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	cellar := filepath.Join(dir, "Cellar", "convsearch", "1.2.0", "bin", "convsearch")
	brewBin := filepath.Join(dir, "bin", "convsearch")
	goRun := filepath.Join(tmp, "go-build123", "b001", "exe", "convsearch")
	other := filepath.Join(dir, "other", "convsearch")
	for _, f := range []string{cellar, goRun, other} {
		must(t, os.MkdirAll(filepath.Dir(f), 0o755))
		must(t, os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755))
	}
	must(t, os.MkdirAll(filepath.Dir(brewBin), 0o755))
	must(t, os.Symlink(cellar, brewBin))
	plain := filepath.Join(dir, "plain.txt")
	must(t, os.WriteFile(plain, nil, 0o644))

	exe := func(p string) func() (string, error) { return func() (string, error) { return p, nil } }
	look := func(p string) func(string) (string, error) {
		return func(string) (string, error) {
			if p == "" {
				return "", errors.New("not found")
			}
			return p, nil
		}
	}
	tests := []struct {
		name, explicit, exe, onPath string
		want                        string
		usage                       bool
	}{
		{"explicit link kept", brewBin, other, "", brewBin, false},
		{"explicit missing", filepath.Join(dir, "no", "such"), other, "", "", true},
		{"explicit not executable", plain, other, "", "", true},
		{"explicit folder", dir, other, "", "", true},
		{"default: PATH's name for this binary", "", cellar, brewBin, brewBin, false},
		{"default: PATH has another binary", "", cellar, other, cellar, false},
		{"default: not on PATH", "", cellar, "", cellar, false},
		{"go run", "", goRun, "", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := setupCommand(tt.explicit, exe(tt.exe), look(tt.onPath), tmp)
			var ue *usageError
			if tt.usage {
				if !errors.As(err, &ue) {
					t.Fatalf("got %q, %v; want a usage error", got, err)
				}
				if tt.name == "go run" && !strings.Contains(err.Error(), "go install") {
					t.Errorf("no advice: %v", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
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

// TestSetupSaysBackupsOnlyWhenMade: the line about backups comes only when
// setup made one; a failure is not "nothing to change".
func TestSetupSaysBackupsOnlyWhenMade(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "convsearch")
	must(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
	tests := []struct {
		name    string
		files   map[string]string // "" : a folder
		want    []string
		wantNot []string
	}{
		{"new files only", map[string]string{".codex": ""}, []string{"restart the agents"}, []string{"backups"}},
		{"a file changed", map[string]string{".cursor": "", ".cursor/mcp.json": "{\"x\": 1}\n"}, []string{"backups of changed files"}, nil},
		{"an empty file changed", map[string]string{".cursor": "", ".cursor/mcp.json": "{}\n"}, []string{"restart the agents"}, []string{"backups"}},
		{"a failure", map[string]string{".cursor": "", ".cursor/mcp.json": "[]\n"}, nil, []string{"nothing to change", "backups"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			for rel, content := range tt.files {
				p := filepath.Join(home, rel)
				if content == "" {
					must(t, os.MkdirAll(p, 0o755))
				} else {
					must(t, os.MkdirAll(filepath.Dir(p), 0o755))
					must(t, os.WriteFile(p, []byte(content), 0o644))
				}
			}
			r := cs(t, home, "setup", "--command", bin)
			for _, w := range tt.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, r.stdout)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(r.stdout, w) {
					t.Errorf("stdout says %q:\n%s", w, r.stdout)
				}
			}
		})
	}
}
