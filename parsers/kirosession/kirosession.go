// Package kirosession reads Kiro CLI's session store (kiro-cli 1.2x and
// later): ~/.kiro/sessions/cli/<id>.jsonl, one event per line, with its
// metadata (title, cwd, times, model) in the companion <id>.json.
//
// An event is {"version": "v1", "kind": K, "data": {message_id, content,
// meta}}: K is Prompt (what the user sent), AssistantMessage (a reply:
// text, thinking and toolUse blocks) or ToolResults (toolResult blocks,
// each {toolUseId, content: [{kind: text|json, data}], status}). A content
// block is {kind, data}: data is a string for text and an object for the
// other kinds. Prompt events carry meta.timestamp (epoch seconds); the
// others carry no time. A Clear event marks a /clear: the model forgets
// what came before, but nothing is deleted from the file, and nothing is
// dropped here either. Other kinds carry no message and are skipped.
//
// The shapes come from the readers other projects wrote against files the
// tool wrote (kiro-cli 2.14.1 among them); no file written by the tool is
// public, so the fixtures under testdata/ are built from those shapes.
package kirosession

import (
	"context"
	"io"
	"path/filepath"
	"strings"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
)

// Name is the family name, used as Conversation.Source.
const Name = "kiro-session"

// Parser reads Kiro CLI sessions.
type Parser struct{}

var (
	_ parsers.Parser      = (*Parser)(nil)
	_ parsers.Companioned = (*Parser)(nil)
	_ parsers.Locator     = (*Parser)(nil)
)

// New returns a Kiro CLI session parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "Kiro CLI sessions: sessions/cli/<id>.jsonl events (Prompt, AssistantMessage, ToolResults) with a <id>.json companion (title, cwd, times, model)",
		Detection:   `.jsonl whose first record (past leading NUL bytes and lines that are not JSON objects) is {"version": "v…", "kind": "Prompt" | "AssistantMessage" | "ToolResults" | "Clear" …}, or an empty .jsonl, or one of nothing but such damage, under sessions/cli; the .json is read as a companion, never on its own`,
		Locations:   []string{"$KIRO_HOME/sessions/cli", "~/.kiro/sessions/cli"},
		Version:     3, // 3: records after a torn record on its line read
	}
}

// DefaultRoots returns $KIRO_HOME/sessions/cli when KIRO_HOME is set (the
// tool keeps its state there instead of ~/.kiro), else
// ~/.kiro/sessions/cli.
func (*Parser) DefaultRoots(home string, getenv func(string) string) []string {
	if h := getenv("KIRO_HOME"); h != "" {
		return []string{filepath.Join(h, "sessions", "cli")}
	}
	return []string{filepath.Join(home, ".kiro", "sessions", "cli")}
}

// Companions returns the <id>.json beside an <id>.jsonl.
func (*Parser) Companions(path string) []string {
	if !strings.HasSuffix(path, ".jsonl") {
		return nil
	}
	return []string{metaPath(path)}
}

func metaPath(path string) string { return strings.TrimSuffix(path, ".jsonl") + ".json" }

// eventKinds are the kinds of Kiro's session events.
var eventKinds = map[string]bool{"Prompt": true, "AssistantMessage": true, "ToolResults": true, "Clear": true, "Compaction": true, "Summary": true}

// Detect claims .jsonl files whose first record is a Kiro event. The kind
// and version keys come first on the line, so a long prompt does not push
// them out of the head.
func (*Parser) Detect(path string, head []byte) bool {
	if !parsers.HasExt(path, ".jsonl") {
		return false
	}
	// Past leading damage (NUL bytes, a torn or garbage line): Parse reads
	// the session after it, and warns.
	h := jsonhead.FirstObjectLine(head)
	if len(h) == 0 {
		// A session created and not yet written to, or one of nothing but
		// damage: only the place can tell.
		return strings.Contains(filepath.ToSlash(path), "/sessions/cli/")
	}
	s := jsonhead.Scan(h)
	kind, _ := s.Value("", "kind")
	version, _ := s.Value("", "version")
	return s.Root == '{' && eventKinds[kind] && (isVersion(version) || s.Has("", "data"))
}

// Parse reads one session.
func (*Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	return parse(ctx, path, r)
}

// isVersion reports whether v is an event format version: v1, v2, ….
func isVersion(v string) bool {
	n, ok := strings.CutPrefix(v, "v")
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}
