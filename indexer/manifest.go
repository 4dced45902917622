package indexer

import (
	"sort"
	"time"

	"github.com/convsearch/convsearch/internal/atomicfile"
)

// Manifest is index.json: the portable spec's lookup manifest
// (conversations: id, date, title, project, topics, file), extended with the
// state of every source file. It is derived from the index's own records and
// can always be written again from them.
type Manifest struct {
	Version       int                    `json:"version"`
	Generated     time.Time              `json:"generated"`
	Conversations []ManifestConversation `json:"conversations"`
	Files         []ManifestFile         `json:"files"`
}

// ManifestConversation is one entry of the portable manifest.
type ManifestConversation struct {
	ID       string   `json:"id"`
	Date     string   `json:"date"`
	Title    string   `json:"title"`
	Project  *string  `json:"project"`
	Topics   []string `json:"topics"`
	File     string   `json:"file"`
	Source   string   `json:"source"`
	Messages int      `json:"messages"`
}

// ManifestFile is the state of one source file.
type ManifestFile struct {
	Path          string    `json:"path"`
	Parser        string    `json:"parser"`
	ParserVersion int       `json:"parser_version"`
	Size          int64     `json:"size"`
	ModTime       time.Time `json:"mtime"`
	Hash          string    `json:"hash,omitempty"`
	Companions    []string  `json:"companions,omitempty"`
	Conversations []string  `json:"conversations"`
	Messages      int       `json:"messages"`
	Error         string    `json:"error,omitempty"`
	Warnings      []string  `json:"warnings,omitempty"`
	Indexed       time.Time `json:"indexed,omitzero"`
}

// BuildManifest derives the manifest from the index's file records.
func (ix *Index) BuildManifest() *Manifest {
	m := &Manifest{Version: FormatVersion, Generated: time.Now().UTC(), Conversations: []ManifestConversation{}, Files: []ManifestFile{}}
	for _, f := range ix.Files() {
		if f.Parser == "" && f.Error == "" {
			continue // not a conversation file
		}
		mf := ManifestFile{
			Path: f.Path, Parser: f.Parser, ParserVersion: f.ParserVersion, Size: f.Size, ModTime: f.ModTime,
			Hash: f.Hash, Conversations: []string{}, Messages: f.Messages, Error: f.Error, Warnings: f.Warnings, Indexed: f.Indexed,
		}
		for _, c := range f.Companions {
			if !c.Missing {
				mf.Companions = append(mf.Companions, c.Path)
			}
		}
		for _, c := range f.Conversations {
			mf.Conversations = append(mf.Conversations, c.ID)
			mc := ManifestConversation{ID: c.ID, Title: c.Title, Topics: c.Topics, File: f.Path, Source: c.Source, Messages: c.Messages}
			if mc.Topics == nil {
				mc.Topics = []string{}
			}
			if !c.Date.IsZero() {
				// The portable spec's dates are ISO 8601 without a zone.
				mc.Date = c.Date.UTC().Format("2006-01-02T15:04:05")
			}
			if c.Project != "" {
				p := c.Project
				mc.Project = &p
			}
			m.Conversations = append(m.Conversations, mc)
		}
		m.Files = append(m.Files, mf)
	}
	sort.SliceStable(m.Conversations, func(i, j int) bool {
		a, b := m.Conversations[i], m.Conversations[j]
		if a.Date != b.Date {
			return a.Date < b.Date
		}
		return a.ID < b.ID
	})
	return m
}

// WriteManifest writes index.json atomically: a temp file in the same
// folder, fsync, rename, fsync the folder.
func (ix *Index) WriteManifest() error {
	ix.mu.Lock()
	skip := ix.building || ix.opts.ReadOnly // the manifest follows the index in place
	ix.mu.Unlock()
	if skip {
		return nil
	}
	if err := WriteFileAtomic(ManifestPath(ix.opts.Dir), ix.BuildManifest()); err != nil {
		return err
	}
	ix.mu.Lock()
	ix.dirty = false
	ix.mu.Unlock()
	return nil
}

// WriteFileAtomic writes v as indented JSON to path so that a reader (or a
// crash) sees either the old file or the new one, never a part.
func WriteFileAtomic(path string, v any) error {
	return atomicfile.WriteJSON(path, v, 0o600)
}
