package chatgpt_test

import (
	"path/filepath"
	"testing"

	"github.com/convsearch/convsearch/parsers/all"
)

// TestRegistryPicksChatGPT checks that no family tried before this one in
// the registry claims a ChatGPT export.
func TestRegistryPicksChatGPT(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	files = append(files, "../../examples/chatgpt/conversations.json")
	reg := all.Registry()
	for _, f := range files {
		p, err := reg.DetectFile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if got := p.Info().Name; got != "chatgpt" {
			t.Errorf("%s detected as %s", f, got)
		}
	}
}
