package portable

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/internal/atomicfile"
)

// Export writes conversations into a folder as portable-format files, one
// per conversation, with an index.json manifest of them (Close writes it).
// Into a folder that has an index.json already, from an earlier export,
// the manifest lists the earlier conversations too: a conversation written
// again replaces its entry, and an entry whose file is gone is dropped.
type Export struct {
	Dir string
	// Manifest is what Close writes: the earlier export's entries, then
	// the conversations Add wrote.
	Manifest Manifest
	// Written is how many conversations Add wrote.
	Written int
	from    map[string]string // file name -> the source file it came from
	entry   map[string]int    // conversation id -> its entry in Manifest
	earlier int               // Manifest's first entries, from index.json
	// extra are the earlier index.json's other top-level keys (a tool's
	// own, a version): written back as they were.
	extra map[string]json.RawMessage
}

// NewExport returns an Export into dir, creating it if needed. What it
// writes is readable by its owner only, like the data folder: exported
// conversations are as private as the index. An index.json in dir that is
// not a manifest is an error, not overwritten.
func NewExport(dir string) (*Export, error) {
	e := &Export{Dir: dir, Manifest: Manifest{Conversations: []ManifestEntry{}}, from: map[string]string{}, entry: map[string]int{}}
	index := filepath.Join(dir, "index.json")
	data, err := os.ReadFile(index)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("export: %w", err)
	default:
		var m Manifest
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("export: %s is not an index.json manifest (%v): export into another folder, or remove it", index, err)
		}
		for _, en := range m.Conversations {
			if _, dup := e.entry[en.ID]; dup || en.ID == "" {
				continue
			}
			e.entry[en.ID] = len(e.Manifest.Conversations)
			e.Manifest.Conversations = append(e.Manifest.Conversations, en)
		}
		e.earlier = len(e.Manifest.Conversations)
		if err := json.Unmarshal(data, &e.extra); err == nil {
			delete(e.extra, "conversations")
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return e, nil
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
	e.Written++
	en := NewManifestEntry(c, out)
	if i, ok := e.entry[c.ID]; ok {
		e.Manifest.Conversations[i] = en // exported again: its new entry, in its place
		return "", nil
	}
	e.entry[c.ID] = len(e.Manifest.Conversations)
	e.Manifest.Conversations = append(e.Manifest.Conversations, en)
	return "", nil
}

// Close writes the manifest, index.json, atomically. An earlier entry is
// kept while its file is still in the folder, under the name it has now.
func (e *Export) Close() error {
	kept := e.Manifest.Conversations[:0]
	for i, en := range e.Manifest.Conversations {
		if i < e.earlier && e.from[filepath.Base(en.File)] == "" {
			file := filepath.Join(e.Dir, filepath.Base(en.File))
			if _, err := os.Stat(file); err != nil {
				continue // removed since, or not written there
			}
			en.File = file
		}
		kept = append(kept, en)
	}
	e.Manifest.Conversations = kept
	e.entry = nil // positions are stale
	var out any = e.Manifest
	if len(e.extra) > 0 {
		m := make(map[string]any, len(e.extra)+1)
		for k, v := range e.extra {
			m[k] = v
		}
		m["conversations"] = e.Manifest.Conversations
		out = m
	}
	return atomicfile.WriteJSON(filepath.Join(e.Dir, "index.json"), out, 0o600)
}
