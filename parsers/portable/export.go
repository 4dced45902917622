package portable

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/internal/atomicfile"
)

// Export writes conversations into a folder as portable-format files, one
// per conversation, with an index.json manifest of them (Close writes it).
type Export struct {
	Dir      string
	Manifest Manifest
	from     map[string]string // file name -> the source file it came from
}

// NewExport returns an Export into dir, creating it if needed. What it
// writes is readable by its owner only, like the data folder: exported
// conversations are as private as the index.
func NewExport(dir string) (*Export, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return &Export{Dir: dir, Manifest: Manifest{Conversations: []ManifestEntry{}}, from: map[string]string{}}, nil
}

// Add writes c, read from source. When a conversation with the same id was
// written already (one tree exported as JSON and XML), the first one read
// is kept: Add writes nothing and returns the source it came from.
func (e *Export) Add(c *conversation.Conversation, source string) (keptFrom string, err error) {
	name := FileName(c.ID)
	if prev, dup := e.from[name]; dup {
		return prev, nil
	}
	data, err := Marshal(c)
	if err != nil {
		return "", fmt.Errorf("export %s from %s: %w", c.ID, source, err)
	}
	out := filepath.Join(e.Dir, name)
	if err := os.WriteFile(out, data, 0o600); err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	e.from[name] = source
	e.Manifest.Conversations = append(e.Manifest.Conversations, NewManifestEntry(c, out))
	return "", nil
}

// Close writes the manifest, index.json, atomically.
func (e *Export) Close() error {
	return atomicfile.WriteJSON(filepath.Join(e.Dir, "index.json"), e.Manifest, 0o600)
}
