package indexer

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"time"

	"github.com/convsearch/convsearch/conversation"
)

// Stamp is what is known of a file without reading it.
type Stamp struct {
	Path    string    `json:"path"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mtime"`
	// Missing marks a companion that did not exist when the unit was read.
	Missing bool `json:"missing,omitempty"`
}

// ConversationEntry is what the manifest knows of one conversation.
type ConversationEntry struct {
	ID       string    `json:"id"`
	Date     time.Time `json:"date,omitzero"`
	Title    string    `json:"title"`
	Project  string    `json:"project,omitempty"`
	Topics   []string  `json:"topics,omitempty"`
	Source   string    `json:"source"`
	Messages int       `json:"messages"`
	// Decisions is how many decision documents the conversation has; with
	// Messages and Topics it names every document (see FileState.DocIDs).
	Decisions int `json:"decisions,omitempty"`
	// Prefix and PrefixHash are the conversation's Prefix (see PrefixOf),
	// recorded for a file of one conversation: a later read of the file
	// that finds its first Prefix messages' documents unchanged writes only
	// the rest (see Change.Kept).
	Prefix     int    `json:"prefix,omitempty"`
	PrefixHash string `json:"prefix_hash,omitempty"`
}

// FileState is the index's record of one source file: its fingerprint, the
// documents it yielded and its last error. It is stored inside the Bleve
// index, in the same batch as the documents, so the two always agree.
type FileState struct {
	Path string `json:"path"`
	// Parser is the family that reads the file; "" for a file under a root
	// that is no conversation (remembered so it is not sniffed again).
	Parser string `json:"parser,omitempty"`
	// ParserVersion is the family's Version; for a file no family claimed,
	// the registry's Generation then, so that it is sniffed again when the
	// families change.
	ParserVersion int       `json:"parser_version,omitempty"`
	Size          int64     `json:"size"`
	ModTime       time.Time `json:"mtime"`
	Hash          string    `json:"hash,omitempty"` // sha256 of the file's bytes, hex
	Companions    []Stamp   `json:"companions,omitempty"`
	// Conversations are those the file yielded, under the keys they are
	// indexed with.
	Conversations []ConversationEntry `json:"conversations,omitempty"`
	Messages      int                 `json:"messages,omitempty"`
	Error         string              `json:"error,omitempty"`
	Warnings      []string            `json:"warnings,omitempty"`
	Indexed       time.Time           `json:"indexed,omitzero"`
}

// DocIDs returns the ids of every Bleve document the file yielded. They are
// derived from the conversation entries, not stored: a million message ids
// in the records made every open and every sync read and write them all.
func (f *FileState) DocIDs() []string {
	var ids []string
	for _, c := range f.Conversations {
		ids = append(ids, c.DocIDs()...)
	}
	return ids
}

// DocIDs returns the ids of every Bleve document of the conversation.
func (c *ConversationEntry) DocIDs() []string {
	ids := []string{ConversationDocID(c.ID)}
	for i := range c.Messages {
		ids = append(ids, MessageDocID(c.ID, i))
	}
	seen := map[string]bool{}
	for _, t := range c.Topics {
		if slug := conversation.Slug(t); slug != "" && !seen[slug] {
			seen[slug] = true
			ids = append(ids, TopicDocID(c.ID, slug))
		}
	}
	for n := range c.Decisions {
		ids = append(ids, DecisionDocID(c.ID, n))
	}
	return ids
}

// numShards splits the file records over this many internal keys, so a sync
// of one file rewrites one small record set rather than all of them.
const numShards = 64

func shardOf(path string) int {
	h := fnv.New32a()
	h.Write([]byte(path))
	return int(h.Sum32() % numShards)
}

func shardKey(n int) []byte { return []byte(fmt.Sprintf("files/%02d", n)) }

var metaKey = []byte("meta")

// meta is the index-wide record kept as an internal value.
type meta struct {
	FormatVersion int       `json:"format_version"`
	Created       time.Time `json:"created"`
	LastSync      time.Time `json:"last_sync,omitzero"`
	// Redaction is the rule set that kept secrets out of the documents
	// (see Options.Redaction).
	Redaction string `json:"redaction,omitempty"`
}

func encodeShard(files map[string]*FileState) ([]byte, error) {
	list := make([]*FileState, 0, len(files))
	for _, f := range files {
		list = append(list, f)
	}
	return json.Marshal(list)
}
