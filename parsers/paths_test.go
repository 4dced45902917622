package parsers

import (
	"path/filepath"
	"testing"
)

func TestElectronAppData(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		goos, home string
		vars       map[string]string
		want       string
	}{
		{"darwin", "/Users/a", nil, filepath.Join("/Users/a", "Library", "Application Support")},
		{"ios", "/Users/a", nil, filepath.Join("/Users/a", "Library", "Application Support")},
		{"darwin", "", nil, ""},
		{"windows", `C:\Users\a`, map[string]string{"APPDATA": `D:\roam`}, `D:\roam`},
		{"windows", "/home/a", nil, filepath.Join("/home/a", "AppData", "Roaming")},
		{"linux", "/home/a", map[string]string{"XDG_CONFIG_HOME": "/cfg"}, "/cfg"},
		{"linux", "/home/a", map[string]string{"XDG_CONFIG_HOME": "rel/cfg"}, filepath.Join("/home/a", ".config")},
		{"linux", "", nil, ""},
	}
	for _, c := range cases {
		if got := ElectronAppData(c.goos, c.home, env(c.vars)); got != c.want {
			t.Errorf("%s %q %v: %q, want %q", c.goos, c.home, c.vars, got, c.want)
		}
	}
}

func TestLocalDataDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	cases := []struct {
		goos, home string
		vars       map[string]string
		want       string
	}{
		{"darwin", "/Users/a", nil, filepath.Join("/Users/a", "Library", "Application Support")},
		{"ios", "/Users/a", map[string]string{"XDG_DATA_HOME": "/data"}, filepath.Join("/Users/a", "Library", "Application Support")},
		{"darwin", "", nil, ""},
		{"windows", `C:\Users\a`, map[string]string{"LOCALAPPDATA": `D:\local`}, `D:\local`},
		{"windows", "/home/a", nil, filepath.Join("/home/a", "AppData", "Local")},
		{"windows", "", nil, ""},
		{"linux", "/home/a", map[string]string{"XDG_DATA_HOME": "/data"}, "/data"},
		{"freebsd", "/home/a", map[string]string{"XDG_DATA_HOME": "rel/data"}, filepath.Join("/home/a", ".local", "share")},
		{"linux", "", nil, ""},
	}
	for _, c := range cases {
		if got := LocalDataDir(c.goos, c.home, env(c.vars)); got != c.want {
			t.Errorf("%s %q %v: %q, want %q", c.goos, c.home, c.vars, got, c.want)
		}
	}
}

func TestInFolder(t *testing.T) {
	cases := []struct {
		path, name string
		want       bool
	}{
		{"/home/a/.local/share/goose/sessions/x.jsonl", "goose", true},
		{"/home/a/.local/share/Goose/sessions/x.jsonl", "goose", true},
		{"/home/a/notes/goose.jsonl", "goose", false}, // the file's own name does not count
		{"/home/a/geese/x.jsonl", "goose", false},
	}
	for _, c := range cases {
		if got := InFolder(c.path, c.name); got != c.want {
			t.Errorf("InFolder(%q, %q) = %v, want %v", c.path, c.name, got, c.want)
		}
	}
}
