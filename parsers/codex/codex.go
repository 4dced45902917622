// Package codex reads OpenAI Codex CLI session rollouts:
// ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl, one
// {timestamp, type, payload} record per line.
//
// Codex records every user and assistant message twice: as a response_item
// (what the model saw) and as an event_msg (what the UI showed). The
// response_item is canonical; an event is kept only when no response_item
// matches it, so a message present in one stream only is never lost. The
// model's items between two user or tool turns are grouped as Claude Code
// groups them: one assistant message per reasoning step, holding its
// reasoning summary (Thinking), text and tool calls; each tool output is a
// message of role tool.
package codex

import (
	"context"
	"io"
	"path/filepath"
	"strings"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
)

// Name is the family name, used as Conversation.Source.
const Name = "codex"

// Parser reads Codex CLI rollouts.
type Parser struct{}

var (
	_ parsers.Parser  = (*Parser)(nil)
	_ parsers.Locator = (*Parser)(nil)
)

// New returns a Codex parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "OpenAI Codex CLI session rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl)",
		Detection:   `a file (of any name; past damage only in a .jsonl) whose first record is {"timestamp","type","payload"} with type session_meta, response_item, event_msg, turn_context or compacted; or a rollout-*.jsonl opening with the older bare session header {"id","timestamp",…}; leading NUL bytes and lines that are not JSON objects are skipped`,
		Locations:   []string{"$CODEX_HOME/sessions", "~/.codex/sessions", "~/.codex/archived_sessions"},
		Version:     5, // 5: records after a torn record on its line read
	}
}

// DefaultRoots returns $CODEX_HOME (else ~/.codex) sessions and
// archived_sessions folders: archived rollouts are conversations too.
func (*Parser) DefaultRoots(home string, getenv func(string) string) []string {
	dir := getenv("CODEX_HOME")
	if dir == "" {
		dir = filepath.Join(home, ".codex")
	}
	return []string{filepath.Join(dir, "sessions"), filepath.Join(dir, "archived_sessions")}
}

// Detect reports whether path is a Codex rollout, from its first record:
// leading damage (NUL bytes, a torn or garbage line) is skipped, so a
// rollout hurt by a crash is still read, and warned about, by Parse.
//
// Under another name than .jsonl (a rollout saved as .json or .txt) the
// content alone decides, from the file's first line: damage is looked past
// only in a .jsonl, so that notes quoting a record are not taken for a
// rollout.
func (*Parser) Detect(path string, head []byte) bool {
	jsonl := parsers.HasExt(path, ".jsonl")
	first := jsonhead.LeadingObjectLine(head)
	if jsonl {
		first = jsonhead.FirstObjectLine(head)
	}
	s := jsonhead.Scan(first)
	if s.Root != '{' {
		return false
	}
	typ, _ := s.Value("", "type")
	if s.Has("", "payload") {
		switch typ {
		case "session_meta":
			return true
		case "response_item", "event_msg", "turn_context", "compacted":
			return s.Has("", "timestamp")
		}
	}
	// Older rollouts open with the bare session header {"id", "timestamp",
	// …}: only trusted under Codex's own file name.
	key, _ := s.First("")
	return jsonl && strings.HasPrefix(filepath.Base(path), "rollout-") && key == "id" && s.Has("", "timestamp")
}

// Parse reads one rollout. A rollout that holds no message yields no
// conversation and no error.
func (*Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	return parse(ctx, path, r)
}
