package all

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

// familyOf says which family must claim a file, from where it sits; ""
// means no family may claim it (side files, manifests, notes).
func familyOf(path string) string {
	p := filepath.ToSlash(path)
	base := filepath.Base(p)
	switch {
	case strings.Contains(p, "/aider/") && base == ".aider.chat.history.md":
		return "aider"
	case strings.HasSuffix(p, ".md"), strings.HasSuffix(base, ".meta.json"), base == "index.json",
		strings.Contains(p, "/rao/") && base != "conversation_log.json":
		return ""
	case strings.Contains(p, "/claude-code/"):
		return "claude-code"
	case strings.Contains(p, "/codex/"):
		return "codex"
	case strings.Contains(p, "/copilot-cli/"):
		return "copilot-cli"
	case strings.Contains(p, "/copilot-vscode/"):
		return "copilot-vscode"
	case strings.Contains(p, "/claude-ai/"):
		return "claude-ai"
	case strings.Contains(p, "/chatgpt/"):
		return "chatgpt"
	case strings.Contains(p, "/kiro-cli/"), strings.Contains(p, "/qcli/"):
		return "qcli"
	case strings.Contains(p, "/gemini-cli/"):
		return "gemini-cli"
	case strings.Contains(p, "/qwen-code/"):
		return "qwen-code"
	case strings.Contains(p, "/kiro-session/"):
		return "kiro-session"
	case strings.Contains(p, "/studio/"):
		return "studio"
	case strings.Contains(p, "/rao/"):
		return "rao"
	case strings.Contains(p, "/personalagent/"):
		return "personalagent"
	case strings.Contains(p, "/portable/"):
		return "portable"
	case strings.Contains(p, "/browser-export/"):
		return "browser-export"
	case strings.Contains(p, "/fnord/"):
		return "fnord"
	case strings.Contains(p, "/goose/"):
		return "goose"
	case strings.Contains(p, "/zed/"):
		return "zed"
	case strings.Contains(p, "/cursor-agent/"):
		return "cursor-agent"
	case strings.Contains(p, "/cursor/"):
		return "cursor"
	}
	return "?"
}

// TestEveryFileHasOneFamily walks the real corpus and the examples: every
// conversation file is claimed by its own family and by no other, and no
// side file or manifest is claimed at all.
func TestEveryFileHasOneFamily(t *testing.T) {
	reg := Registry()
	n := 0
	for _, root := range []string{"../../testdata/corpus", "../../examples"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			want := familyOf(path)
			if want == "?" {
				t.Errorf("%s: add it to familyOf", path)
				return nil
			}
			head, err := parsers.ReadHead(path)
			if err != nil {
				t.Fatal(err)
			}
			var claimed []string
			for _, p := range reg.Parsers() {
				if p.Detect(path, head) {
					claimed = append(claimed, p.Info().Name)
				}
			}
			switch {
			case want == "" && len(claimed) > 0:
				t.Errorf("%s: no family should claim it, claimed by %v", path, claimed)
			case want != "" && (len(claimed) != 1 || claimed[0] != want):
				t.Errorf("%s: claimed by %v, want only %s", path, claimed, want)
			}
			n++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 30 {
		t.Errorf("only %d files looked at", n)
	}
}

// TestDamagedFileHasOneFamily: a JSON Lines file of the corpus or the
// examples that a crash left with NUL bytes, a garbage or a torn line before
// its records is still claimed by its own family and by no other.
func TestDamagedFileHasOneFamily(t *testing.T) {
	reg := Registry()
	n := 0
	for _, root := range []string{"../../testdata/corpus", "../../examples"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !parsers.HasExt(path, ".jsonl") {
				return err
			}
			want := familyOf(path)
			if want == "" || want == "?" {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, dmg := range parsertest.Damage {
				damaged := append([]byte(dmg.Prefix), data...)
				head := damaged[:min(len(damaged), parsers.HeadSize)]
				var claimed []string
				for _, p := range reg.Parsers() {
					if p.Detect(path, head) {
						claimed = append(claimed, p.Info().Name)
					}
				}
				if len(claimed) != 1 || claimed[0] != want {
					t.Errorf("%s after a %s: claimed by %v, want only %s", path, dmg.Name, claimed, want)
				}
			}
			n++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 10 {
		t.Errorf("only %d files looked at", n)
	}
}

func TestFamiliesAreComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Registry().Parsers() {
		in := p.Info()
		if in.Name == "" || in.Description == "" || in.Detection == "" || in.Version < 1 {
			t.Errorf("%T: incomplete Info %+v", p, in)
		}
		if seen[in.Name] {
			t.Errorf("two families named %s", in.Name)
		}
		seen[in.Name] = true
	}
	for _, want := range []string{"rao", "studio", "personalagent", "portable", "browser-export", "qcli", "qcli-store", "fnord", "claude-code", "codex", "claude-ai", "chatgpt"} {
		if !seen[want] {
			t.Errorf("family %s is not registered", want)
		}
	}
}

func TestDefaultRootsHonourEnvironment(t *testing.T) {
	env := map[string]string{"CLAUDE_CONFIG_DIR": "/cfg/claude", "CODEX_HOME": "/cfg/codex"}
	getenv := func(k string) string { return env[k] }
	var roots []string
	for _, p := range Registry().Parsers() {
		if l, ok := p.(parsers.Locator); ok {
			roots = append(roots, l.DefaultRoots("/home/u", getenv)...)
		}
	}
	joined := strings.Join(roots, "\n")
	for _, want := range []string{"/cfg/claude/projects", "/cfg/codex/sessions"} {
		if !strings.Contains(joined, want) {
			t.Errorf("default roots lack %s:\n%s", want, joined)
		}
	}
}

// realFile is a conversation file of the corpus, the examples or a
// family's testdata, with the family that claims it where it lies.
type realFile struct {
	path, family string
	data         []byte
}

// realFiles lists every file some family claims in the corpus, the examples,
// the families' testdata and the shared corpus when it is there.
func realFiles(t *testing.T) []realFile {
	t.Helper()
	reg := Registry()
	roots := []string{"../../testdata/corpus", "../../examples", "/work/shared/corpus"}
	more, _ := filepath.Glob("../*/testdata")
	var files []realFile
	for _, root := range append(roots, more...) {
		if _, err := os.Stat(root); err != nil {
			continue
		}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			head, err := parsers.ReadHead(path)
			if err != nil {
				t.Fatal(err)
			}
			p, err := reg.Detect(path, head)
			if err != nil {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, realFile{path: path, family: p.Info().Name, data: data})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 100 {
		t.Fatalf("only %d files found", len(files))
	}
	return files
}

// claimers lists every family whose Detect claims path with head.
func claimers(reg *parsers.Registry, path string, head []byte) []string {
	var claimed []string
	for _, p := range reg.Parsers() {
		if p.Detect(path, head) {
			claimed = append(claimed, p.Info().Name)
		}
	}
	return claimed
}

// TestTranscriptFolderDoesNotClaimOthers: a file of another family moved
// into a folder named agent-transcripts/ (where cursor-agent keeps its
// transcripts) keeps its family: the folder's name does not outweigh the
// content.
func TestTranscriptFolderDoesNotClaimOthers(t *testing.T) {
	reg := Registry()
	for _, f := range realFiles(t) {
		if f.family == "cursor-agent" || f.family == "cursor" || !parsers.HasExt(f.path, ".jsonl", ".txt") {
			continue // cursor-agent reads only these under the folder
		}
		path := filepath.Join(filepath.Dir(f.path), "agent-transcripts", filepath.Base(f.path))
		head := f.data[:min(len(f.data), parsers.HeadSize)]
		if claimed := claimers(reg, path, head); len(claimed) != 1 || claimed[0] != f.family {
			t.Errorf("%s (%s) in agent-transcripts/: claimed by %v", f.path, f.family, claimed)
		}
	}
}
