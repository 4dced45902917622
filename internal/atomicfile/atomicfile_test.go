package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteJSON(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.json")
	for i, tc := range []struct {
		v    any
		perm os.FileMode
		want string
	}{
		{map[string]int{"n": 1}, 0o600, "{\n  \"n\": 1\n}\n"},
		{[]string{"x"}, 0o644, "[\n  \"x\"\n]\n"}, // replaces the first
	} {
		if err := WriteJSON(path, tc.v, tc.perm); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil || string(b) != tc.want {
			t.Errorf("%d: %q, %v; want %q", i, b, err, tc.want)
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != tc.perm {
			t.Errorf("%d: mode %v, want %v", i, st.Mode().Perm(), tc.perm)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if err := WriteFile(filepath.Join(dir, "nope", "b"), nil, 0o600); err == nil {
		t.Error("writing into a missing folder succeeded")
	}
}

func TestWriteJSONUnencodable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.json")
	if err := WriteJSON(path, func() {}, 0o600); err == nil {
		t.Error("a func was encoded")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a file was written: %v", err)
	}
}
