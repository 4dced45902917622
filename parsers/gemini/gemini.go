// Package gemini reads the chat recordings of Gemini CLI and of Qwen Code,
// its fork, which kept the same files for a while and then went its own way.
//
// Gemini CLI keeps, per project, ~/.gemini/tmp/<project>/ with
//
//   - chats/session-<time>-<id8>.json: one JSON document per session
//     ({sessionId, projectHash, startTime, lastUpdated, summary, messages}),
//     what versions up to early 2026 write;
//   - chats/session-<time>-<id8>.jsonl: the same session as an append-only
//     log, what later versions write: a metadata line {sessionId,
//     projectHash, …}, then message records (a record written again with
//     the same id replaces the first), {"$set": {…}} metadata updates and
//     {"$rewindTo": id} rewinds. A resumed .json session is copied whole into
//     a .jsonl beside it, which supersedes it. Sub-agent sessions sit in
//     chats/<parent session id>/<session id>.jsonl;
//   - logs.json: a JSON array of every prompt typed in the project
//     ({sessionId, messageId, type, message, timestamp}).
//
// <project> is a SHA-256 of the project's path in older versions and a short
// name in newer ones. Qwen Code wrote the same .json sessions and logs.json
// under ~/.qwen/tmp/<hash>/; current versions write
// ~/.qwen/projects/<cwd with every non-alphanumeric as ->/chats/<id>.jsonl,
// one record per line in the shape of Claude Code's logs ({uuid,
// parentUuid, sessionId, timestamp, type: user | assistant | tool_result |
// system, message: {role, parts}}), read by qwen.go.
//
// The package has two parser values, New (gemini-cli) and NewQwen
// (qwen-code): the two tools keep their files in different homes under
// different environment variables, and a conversation's Source should name
// the tool that wrote it. The shapes both tools wrote are told apart by
// where the file sits (under a .qwen folder or not); Qwen's own JSON Lines
// shape is Qwen's wherever it is.
package gemini

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
)

// Names of the two families, used as Conversation.Source.
const (
	Name     = "gemini-cli"
	QwenName = "qwen-code"
)

// Parser reads Gemini CLI or Qwen Code files.
type Parser struct {
	qwen bool
}

var (
	_ parsers.Parser      = (*Parser)(nil)
	_ parsers.Locator     = (*Parser)(nil)
	_ parsers.Companioned = (*Parser)(nil)
)

// New returns the Gemini CLI parser.
func New() *Parser { return &Parser{} }

// NewQwen returns the Qwen Code parser.
func NewQwen() *Parser { return &Parser{qwen: true} }

// Info describes the family.
func (p *Parser) Info() parsers.Info {
	if p.qwen {
		return parsers.Info{
			Name:        QwenName,
			Description: "Qwen Code sessions: projects/<cwd>/chats/<id>.jsonl records, and the Gemini-shaped tmp/<hash>/chats/session-*.json and logs.json of older versions",
			Detection:   `.jsonl whose first record (past leading NUL bytes and lines that are not JSON objects) has "uuid" and "sessionId" with Gemini "parts" or a "systemPayload"; or, under a .qwen folder, the Gemini CLI shapes (session-*.json, session .jsonl, logs.json)`,
			Locations: []string{
				"$QWEN_RUNTIME_DIR/projects, $QWEN_HOME/projects (~/.qwen/projects)",
				"$QWEN_HOME/tmp (~/.qwen/tmp), older versions",
			},
			Version: 4, // 4: a torn session-*.json or logs.json keeps what was written whole; records after a torn record on its line read; a session-*.json or logs.json read past a byte-order mark
		}
	}
	return parsers.Info{
		Name:        Name,
		Description: "Gemini CLI chat recordings: tmp/<project>/chats/session-*.json or .jsonl, and the prompts of tmp/<project>/logs.json whose session has no chats file",
		Detection:   `session-*.json holding "sessionId" with "projectHash" or "messages", or a file of any other name (not .jsonl) whose root holds "sessionId" and a "messages" array; .jsonl whose first record (past leading NUL bytes and lines that are not JSON objects) holds "sessionId" and "projectHash" and no "uuid"; logs.json holding a JSON array of {"sessionId", "messageId"}; not under a .qwen folder`,
		Locations:   []string{"$GEMINI_CLI_HOME/.gemini/tmp", "~/.gemini/tmp"},
		Version:     3, // 3: a torn session-*.json or logs.json keeps what was written whole; records after a torn record on its line read; a session-*.json or logs.json read past a byte-order mark
	}
}

// DefaultRoots returns where the tool keeps its recordings. Gemini CLI puts
// .gemini in $GEMINI_CLI_HOME instead of the home folder when it is set;
// Qwen Code uses $QWEN_HOME for ~/.qwen and puts its runtime output
// (sessions included) in $QWEN_RUNTIME_DIR when that is set.
func (p *Parser) DefaultRoots(home string, getenv func(string) string) []string {
	if p.qwen {
		qwenHome := filepath.Join(home, ".qwen")
		if h := getenv("QWEN_HOME"); h != "" {
			qwenHome = h
		}
		roots := []string{}
		if rt := getenv("QWEN_RUNTIME_DIR"); rt != "" {
			roots = append(roots, filepath.Join(rt, "projects"))
		}
		return append(roots, filepath.Join(qwenHome, "projects"), filepath.Join(qwenHome, "tmp"))
	}
	if h := getenv("GEMINI_CLI_HOME"); h != "" {
		home = h
	}
	return []string{filepath.Join(home, ".gemini", "tmp")}
}

// Companions names what Parse reads besides path: the .jsonl that
// supersedes a .json session, and for logs.json the chats folder whose
// session files decide which prompts it still yields.
func (p *Parser) Companions(path string) []string {
	switch fileKind(path) {
	case kindLogs:
		return []string{filepath.Join(filepath.Dir(path), "chats")}
	case kindSession:
		return []string{path + "l"}
	}
	return nil
}

type kind int

const (
	kindNone    kind = iota
	kindLogs         // logs.json
	kindSession      // a whole-session .json
	kindLog          // a .jsonl: Gemini's session log or Qwen's records
)

// fileKind is what the name says a file may be; the content decides.
func fileKind(path string) kind {
	base := filepath.Base(path)
	switch {
	case base == "logs.json":
		return kindLogs
	case strings.HasSuffix(base, ".json") && strings.HasPrefix(base, "session-"):
		return kindSession
	case parsers.HasExt(path, ".jsonl"):
		return kindLog
	}
	return kindNone
}

// isQwenPath reports whether path lies under a .qwen folder.
func isQwenPath(path string) bool {
	p := filepath.ToSlash(path)
	return strings.Contains(p, "/.qwen/") || strings.HasPrefix(p, ".qwen/")
}

// shape says what head holds, given what the name allows.
func shape(path string, head []byte) kind {
	k := fileKind(path)
	h := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(h) == 0 {
		return kindNone
	}
	switch k {
	case kindNone:
		// A whole session saved under another name (Parse reads a file
		// of no kind as one): its root holds sessionId and a messages
		// array, which no other family's root holds together. The first
		// line of a session log holds sessionId but no messages.
		keys := jsonhead.Scan(h)
		if msgs, _ := keys.Kind("", "messages"); h[0] == '{' && keys.Has("", "sessionId") && msgs == '[' {
			return kindSession
		}
	case kindLogs:
		if h[0] != '[' {
			return kindNone
		}
		if rest := bytes.TrimSpace(h[1:]); len(rest) > 0 && rest[0] == ']' {
			return kindLogs // a project with no prompt yet
		}
		if keys := jsonhead.Scan(h); keys.Anywhere("sessionId") && keys.Anywhere("messageId") {
			return kindLogs
		}
	case kindSession:
		if keys := jsonhead.Scan(h); h[0] == '{' && keys.Anywhere("sessionId") && keys.Anywhere("projectHash", "messages") {
			return kindSession
		}
	case kindLog:
		// Past leading damage (NUL bytes, a torn or garbage line): Parse
		// reads the log after it, and warns.
		h = jsonhead.FirstObjectLine(h)
		keys := jsonhead.Scan(h)
		if len(h) == 0 || !keys.Anywhere("sessionId") {
			return kindNone
		}
		if keys.Anywhere("uuid", "parentUuid") {
			// Qwen writes the Gemini API's Content ({role, parts}) where
			// Claude Code writes Anthropic's ({role, content}), and system
			// records carry a systemPayload: either tells a Qwen record
			// from a Claude Code one.
			if keys.Anywhere("parts", "systemPayload") || isQwenPath(path) {
				return kindQwen
			}
			return kindNone // Claude Code's
		}
		if keys.Anywhere("projectHash") {
			return kindLog
		}
	}
	return kindNone
}

// kindQwen is Qwen's own JSON Lines records; only shape returns it.
const kindQwen kind = 100

// Detect claims the files of its tool: Qwen's own records for the Qwen
// parser wherever they are, and the shapes both tools wrote by where they
// sit.
func (p *Parser) Detect(path string, head []byte) bool {
	switch shape(path, head) {
	case kindNone:
		return false
	case kindQwen:
		return p.qwen
	}
	return p.qwen == isQwenPath(path)
}

// Parse reads one file: a whole session, a session log, Qwen's records, or
// logs.json.
func (p *Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	source := Name
	if p.qwen {
		source = QwenName
	}
	switch fileKind(path) {
	case kindLogs:
		return parseLogs(ctx, path, r, source)
	case kindLog:
		br := bufio.NewReaderSize(r, 64<<10)
		if isQwenLog(br) {
			return parseQwen(ctx, path, br)
		}
		return parseSessionLog(ctx, path, br, source)
	}
	return parseSessionJSON(ctx, path, r, source)
}

// isQwenLog peeks at the first record, past leading damage as shape does:
// Qwen's records carry a uuid, Gemini's metadata line does not.
func isQwenLog(br *bufio.Reader) bool {
	head, _ := br.Peek(parsers.HeadSize)
	return jsonhead.Scan(jsonhead.FirstObjectLine(head)).Anywhere("uuid", "parentUuid")
}
