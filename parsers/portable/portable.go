// Package portable reads the portable JSON format of conversation-memory (one
// conversation per conversations/<id>.json, beside an index.json manifest),
// and writes it: Marshal is what `convsearch export` uses, so that any
// conversation convsearch has read can be handed to the tools of that
// ecosystem and read back without loss.
package portable

import (
	"context"
	"io"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
	"github.com/convsearch/convsearch/parsers/loose"
)

// Name is the family name, the Source of every conversation read here.
const Name = "portable"

// Parser reads portable conversation files.
type Parser struct{}

var _ parsers.Parser = (*Parser)(nil)

// New returns a portable parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "conversation-memory portable JSON: one conversation per conversations/<id>.json (id, date, title, messages, metadata with topics, decisions, artifacts), also written by convsearch export",
		Detection:   "a .json file holding one object with a \"messages\" array and an \"id\", \"title\", \"date\" or portable \"metadata\" key; index.json manifests ({\"conversations\": …}) are refused",
		Locations:   []string{"<conversation-memory store>/conversations/*.json", "the output folder of convsearch export"},
		Version:     3, // 3: a file cut short keeps the messages written whole before the tear
	}
}

// refused are root keys of other shapes: the manifest, browser exports, Kiro
// and Q CLI state, claude.ai exports and fnord's v1 store. A portable
// conversation has none of them.
var refused = []string{"conversations", "threads", "indexedDB", "history", "conversation_id", "chat_messages", "version", "memory", "tasks"}

// metadataKeys are keys only portable metadata is known to hold.
var metadataKeys = []string{"topics", "decisions", "related_conversations", "artifacts", "project"}

// Detect reports whether path looks like one portable conversation. It reads
// the root object's keys from the head: "messages" (an array, or null) with
// an id, title or date, or with portable metadata.
func (*Parser) Detect(path string, head []byte) bool {
	if !parsers.HasExt(path, ".json") {
		return false
	}
	s := jsonhead.Scan(head)
	if s.Root != '{' || s.Has("", refused...) {
		return false
	}
	ident := s.Has("", "id", "title", "date")
	meta := s.Has("metadata", metadataKeys...)
	kind, ok := s.Kind("", "messages")
	if !ok {
		// A writer that puts a long metadata first: the head may end
		// before "messages". Only a cut head gets this benefit of the doubt.
		return !s.Complete && len(head) >= parsers.HeadSize && ident && meta
	}
	if kind != '[' && kind != 'n' && kind != 0 {
		return false
	}
	// Messages, when the head shows one, must be role/content objects (or
	// a transcript's speaker turns), not another family's items.
	if s.Any("messages/[]") && !s.Has("messages/[]", "role", "content", "speaker") {
		return false
	}
	return ident || meta
}

// Parse reads one portable conversation.
func (*Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	data, err := loose.ReadAll(path, r)
	if err != nil {
		return nil, err
	}
	return parse(ctx, path, data)
}
