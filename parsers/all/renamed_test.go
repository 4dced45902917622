package all

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers"
)

// contentFamilies are recognised by their content under any name.
var contentFamilies = map[string]bool{
	"claude-code": true, "codex": true, "copilot-cli": true, "copilot-vscode": true, "gemini-cli": true,
	"claude-ai": true, "chatgpt": true, "qcli": true, "studio": true, "aider": true,
}

// byContent reports whether f must be recognised under any name. A few
// shapes of those families are trusted only under their own names, as
// README says: Codex's oldest rollouts (a bare {"id","timestamp"} header),
// Gemini's logs.json and .jsonl session logs.
func byContent(f realFile) bool {
	switch {
	case !contentFamilies[f.family]:
		return false
	case f.family == "codex":
		return !strings.HasPrefix(string(f.data), `{"id"`)
	case f.family == "aider":
		return strings.HasPrefix(strings.TrimLeft(string(f.data), "\n"), "# aider chat started at ")
	case f.family == "gemini-cli":
		return strings.HasSuffix(f.path, ".json") && filepath.Base(f.path) != "logs.json"
	}
	return true
}

// TestRenamedFileKeepsItsFamily copies every real file to other names: a
// family recognised by its content claims it and reads the same messages
// under each; no other family claims it, and none is claimed twice.
func TestRenamedFileKeepsItsFamily(t *testing.T) {
	reg := Registry()
	dir := t.TempDir()
	for i, f := range realFiles(t) {
		if strings.Contains(filepath.ToSlash(f.path), "/golden/") {
			continue // a parser's output, not a conversation file
		}
		orig, res, err := reg.ParseFile(context.Background(), f.path, nil)
		if err != nil {
			continue // the family's own tests look at files it refuses
		}
		want := messages(res)
		for _, name := range []string{"a.json", "a.txt", "a.jsonl", "notes.md", "conversations.json"} {
			if f.family == "gemini-cli" && name == "a.jsonl" {
				continue // a .jsonl is a Gemini session log, read line by line
			}
			// A folder each: a.jsonl beside a.json is a Gemini session's
			// companion.
			path := filepath.Join(dir, fmt.Sprint(i, name), name)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, f.data, 0o644); err != nil {
				t.Fatal(err)
			}
			head := f.data[:min(len(f.data), parsers.HeadSize)]
			claimed := claimers(reg, path, head)
			switch {
			case len(claimed) > 1:
				t.Errorf("%s as %s: claimed by %v", f.path, name, claimed)
			case len(claimed) == 1 && claimed[0] != f.family && !geminiShape(f, claimed[0]):
				t.Errorf("%s (%s) as %s: claimed by %s", f.path, f.family, name, claimed[0])
			case byContent(f) && len(claimed) == 0:
				t.Errorf("%s (%s) as %s: not recognised", f.path, f.family, name)
			case len(claimed) == 1:
				_, res, err := reg.ParseFile(context.Background(), path, nil)
				if err != nil {
					t.Errorf("%s (%s) as %s: %v", f.path, f.family, name, err)
				} else if got := messages(res); got != want {
					t.Errorf("%s (%s) as %s: %d messages, want %d as read by %s", f.path, f.family, name, got, want, orig.Info().Name)
				}
			}
		}
	}
}

// geminiShape reports whether f is a whole Qwen Code session, which is
// Gemini CLI's format under .qwen: only the place tells them apart, so
// under another name it is read as gemini-cli.
func geminiShape(f realFile, claimer string) bool {
	return f.family == "qwen-code" && claimer == "gemini-cli" && strings.HasPrefix(filepath.Base(f.path), "session-") && strings.HasSuffix(f.path, ".json")
}

func messages(res *parsers.Result) int {
	n := 0
	for _, c := range res.Conversations {
		n += len(c.Messages)
	}
	return n
}
