package bench

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestGenerateIsDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	sa, err := Generate(a, GenOptions{Messages: 3000, ClaudeCodeDir: filepath.Join(a, "cc")})
	if err != nil {
		t.Fatal(err)
	}
	sb, err := Generate(b, GenOptions{Messages: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if sa.Messages != 3000 || sa.Files == 0 || sa.TextBytes < 3000*300 {
		t.Errorf("stats %+v: want 3000 messages of some hundred bytes each", sa)
	}
	if *sa != *sb {
		t.Errorf("two runs differ: %+v and %+v", sa, sb)
	}
	// Same bytes, file by file; planted words at their rates.
	counts := map[string]int{}
	err = filepath.WalkDir(a, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Dir(path) == filepath.Join(a, "cc") || bytes.Contains([]byte(path), []byte("/cc/")) {
			return err
		}
		rel, _ := filepath.Rel(a, path)
		x, _ := os.ReadFile(path)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between runs (%v)", rel, err)
		}
		counts[MediumTerm] += bytes.Count(x, []byte(MediumTerm))
		counts[PhraseA+" "+PhraseB] += bytes.Count(x, []byte(PhraseA+" "+PhraseB))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if counts[MediumTerm] != 3 || counts[PhraseA+" "+PhraseB] != 60 {
		t.Errorf("planted words: %v, want %s 3 times (1 in 1000) and the phrase 60 (1 in 50)", counts, MediumTerm)
	}
	if _, err := os.Stat(filepath.Join(a, "cc", "projects")); err != nil {
		t.Errorf("no Claude Code copy: %v", err)
	}
}
