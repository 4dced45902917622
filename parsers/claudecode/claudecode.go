// Package claudecode reads Claude Code session logs:
// ~/.claude/projects/<project>/<session>.jsonl, one JSON record per line.
//
// Records of type user and assistant are messages; an assistant reply that
// Claude Code split over several lines sharing message.id becomes one message.
// A user line that carries only tool results becomes a message of role tool,
// so the user role holds what a person (or Claude Code for them) sent. system
// records are kept as hidden system messages. summary, custom-title and
// ai-title records give the title and summaries; file-history-snapshot
// records name the files the session changed. Other record types (progress,
// queue-operation, …) carry no message and are skipped.
package claudecode

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
)

// Name is the family name, used as Conversation.Source.
const Name = "claude-code"

// Parser reads Claude Code session logs.
type Parser struct{}

var (
	_ parsers.Parser  = (*Parser)(nil)
	_ parsers.Locator = (*Parser)(nil)
)

// New returns a Claude Code parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "Claude Code session logs (one .jsonl per session, under ~/.claude/projects/<project>/)",
		Detection:   `a file (of any name; past damage only in a .jsonl) whose first record has Claude Code keys ("sessionId" with "parentUuid"/"uuid") or is a summary, file-history-snapshot, custom-title or queue-operation record; leading NUL bytes and lines that are not JSON objects are skipped, and a head of nothing else is claimed under .claude/projects/<project>/`,
		Locations:   []string{"$CLAUDE_CONFIG_DIR/projects", "~/.claude/projects"},
		Version:     4, // 4: records after a torn record on its line read
	}
}

// DefaultRoots returns $CLAUDE_CONFIG_DIR/projects when the variable is set,
// else ~/.claude/projects.
func (*Parser) DefaultRoots(home string, getenv func(string) string) []string {
	if dir := getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return []string{filepath.Join(dir, "projects")}
	}
	return []string{filepath.Join(home, ".claude", "projects")}
}

// Detect reports whether path is a Claude Code session log: a .jsonl file
// whose first record (possibly cut short in head, possibly after damage)
// holds Claude Code's keys.
// Record types that only Claude Code writes come with a key of their own;
// codex and personalagent records have neither sessionId nor uuid.
//
// Under another name than .jsonl (a session saved or downloaded as .json or
// .txt) the content alone decides, from the file's first line: damage is
// looked past only in a .jsonl, so that notes quoting a record are not
// taken for a session.
func (*Parser) Detect(path string, head []byte) bool {
	var first []byte
	if parsers.HasExt(path, ".jsonl") {
		// Skip leading damage (NUL bytes, a torn or garbage line) so a
		// session hurt by a crash is still read, and warned about, by Parse.
		first = jsonhead.FirstObjectLine(head)
		if first == nil {
			// Nothing but damage to judge: only the place can tell.
			return len(bytes.TrimSpace(head)) > 0 && inProjects(path)
		}
	} else if first = jsonhead.LeadingObjectLine(head); first == nil {
		return false
	}
	s := jsonhead.Scan(first)
	if s.Root != '{' {
		return false
	}
	switch typ, _ := s.Value("", "type"); typ {
	case "summary":
		return s.Has("", "leafUuid")
	case "file-history-snapshot":
		return s.Has("", "messageId", "snapshot")
	case "custom-title", "ai-title", "agent-name", "queue-operation":
		return s.Has("", "sessionId", "customTitle", "aiTitle", "agentName")
	}
	// Qwen Code's records share sessionId, uuid and parentUuid, but carry
	// the Gemini API's parts (or a systemPayload), which Claude Code never
	// writes.
	return s.Has("", "sessionId") && s.Has("", "parentUuid", "uuid") && !s.Anywhere("parts", "systemPayload")
}

// inProjects reports whether path lies in a project folder of a projects
// folder under .claude, where Claude Code keeps its session logs and no other
// family (Qwen Code uses .qwen/projects) writes .jsonl files.
func inProjects(path string) bool {
	p := "/" + filepath.ToSlash(path)
	const dir = "/.claude/projects/"
	i := strings.LastIndex(p, dir)
	return i >= 0 && strings.Contains(p[i+len(dir):], "/")
}

// Parse reads one session log. A log that holds no message at all (only
// snapshots or summaries) yields no conversation and no error.
func (*Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	return parse(ctx, path, r)
}
