package claudeai_test

import (
	"path/filepath"
	"testing"

	"github.com/convsearch/convsearch/parsers/all"
)

// TestRegistryPicksClaudeAI checks that no family tried before this one in
// the registry claims a claude.ai export.
func TestRegistryPicksClaudeAI(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	more, _ := filepath.Glob("../../testdata/corpus/claude-ai/*.json")
	files = append(files, more...)
	files = append(files, "../../examples/claude-ai/conversations.json")
	reg := all.Registry()
	for _, f := range files {
		p, err := reg.DetectFile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if got := p.Info().Name; got != "claude-ai" {
			t.Errorf("%s detected as %s", f, got)
		}
	}
}
