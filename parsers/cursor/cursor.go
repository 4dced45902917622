// Package cursor reads the conversations Cursor keeps on disk. Two families
// live here because their files have nothing in common:
//
//   - "cursor" (IDE chats): the state.vscdb SQLite databases of Cursor's
//     globalStorage and workspaceStorage. Table cursorDiskKV holds one
//     composerData:<composerId> value per chat (name, times, the ordered
//     fullConversationHeadersOnly list, or an inline conversation in older
//     builds) and one bubbleId:<composerId>:<bubbleId> value per message
//     (type 1 user, 2 assistant; text or richText, thinking,
//     toolFormerData, codeBlocks). Older builds kept chats in ItemTable:
//     workbench.panel.aichat.view.aichat.chatdata (chat tabs) and
//     composer.composerData (composers with inline conversations). VS Code
//     writes state.vscdb files too; one without Cursor's keys gives no
//     conversation.
//   - "cursor-agent" (the agent's own records, from the cursor-agent CLI or
//     the IDE's agent): transcripts under ~/.cursor/projects/<workspace
//     slug>/agent-transcripts/ (<id>.jsonl, <id>/<id>.jsonl, sub-agents in
//     <id>/subagents/<child>.jsonl, and the older plain-text <id>.txt), and
//     the CLI's session store ~/.cursor/chats/<workspace hash>/<id>/store.db
//     (table meta: hex-encoded JSON with agentId, name, createdAt; table
//     blobs: JSON messages {role, content} among binary tree nodes).
//
// The same session can be in a transcript and in a database: transcripts,
// the lossy copy, get the id <session id>/transcript so they never replace
// the database's conversation in the index.
package cursor

import (
	"context"
	"io"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
	"github.com/convsearch/convsearch/parsers/loose"
	"github.com/convsearch/convsearch/parsers/personalagent"
	"github.com/convsearch/convsearch/parsers/sqlitedb"
)

// Names of the two families, used as Conversation.Source.
const (
	Name      = "cursor"
	AgentName = "cursor-agent"
)

// titleRunes is how long a derived title may be.
const titleRunes = 80

var (
	reQuery     = regexp.MustCompile(`(?s)<user_query>\s*(.*?)\s*</user_query>`)
	reStamp     = regexp.MustCompile(`(?s)^\s*<timestamp>(.*?)</timestamp>\s*`)
	reLeadTag   = regexp.MustCompile(`^<([A-Za-z_][A-Za-z0-9_\-]*)>`)
	reStampBody = regexp.MustCompile(`^(?:[A-Za-z]+, )?([A-Za-z]+ \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M)\s*(?:\((UTC|GMT)([+-]\d{1,2})?(?::(\d{2}))?\))?$`)
)

// prompt is a user message's text taken apart: Cursor wraps what the person
// typed in <user_query> and may put a <timestamp> and context blocks
// (<user_info>, <attached_files>, …) around it.
type prompt struct {
	text    string    // what the person typed, or the whole text
	context string    // injected text around the query
	when    time.Time // from <timestamp>
	hidden  bool      // injected context only, no query
}

func splitPrompt(s string) prompt {
	var p prompt
	if m := reStamp.FindStringSubmatchIndex(s); m != nil {
		p.when = stampTime(s[m[2]:m[3]])
		s = s[m[1]:]
	}
	if m := reQuery.FindStringSubmatchIndex(s); m != nil {
		p.text = s[m[2]:m[3]]
		p.context = strings.TrimSpace(s[:m[0]] + "\n" + s[m[1]:])
		return p
	}
	p.text = strings.TrimSpace(s)
	// A user turn that is only a tagged block is context Cursor injected.
	p.hidden = reLeadTag.MatchString(p.text)
	return p
}

// agentMessage starts the message of a role as the agent's records (store
// blobs, transcripts) name it: a system message is hidden; a role of
// another name is an assistant by that author.
func agentMessage(role string) conversation.Message {
	var m conversation.Message
	switch role {
	case "user":
		m.Role = conversation.RoleUser
	case "assistant":
		m.Role = conversation.RoleAssistant
	case "system":
		m.Role, m.Hidden = conversation.RoleSystem, true
	case "tool":
		m.Role = conversation.RoleTool
	default:
		m.Role, m.Author = conversation.RoleAssistant, role
	}
	return m
}

// joinText joins the pieces of a message's text, one a line, trimmed and
// cleaned.
func joinText(parts []string) string {
	return loose.Clean(strings.TrimSpace(strings.Join(parts, "\n")))
}

// takePrompt leaves a user message with what the person typed and the time
// of its <timestamp>, and returns the context around it as a hidden user
// message to go before it (none for other roles, or without context).
func takePrompt(m *conversation.Message) []conversation.Message {
	if m.Role != conversation.RoleUser {
		return nil
	}
	p := splitPrompt(m.Content)
	m.Content, m.Timestamp = p.text, p.when
	m.Hidden = m.Hidden || p.hidden
	if p.context == "" {
		return nil
	}
	return []conversation.Message{{Role: conversation.RoleUser, Content: p.context, Timestamp: p.when, Hidden: true}}
}

// hasBody reports whether a message holds anything to keep.
func hasBody(m conversation.Message) bool {
	return m.Content != "" || m.Thinking != "" || len(m.ToolCalls) > 0 || len(m.ToolResults) > 0 || len(m.Attachments) > 0
}

// withPrompt is a message of the agent's, its prompt taken apart: the
// context first, if any, then the message unless it is empty.
func withPrompt(m conversation.Message) []conversation.Message {
	out := takePrompt(&m)
	if hasBody(m) {
		out = append(out, m)
	}
	return out
}

// stampTime reads Cursor's <timestamp> text, "Tuesday, May 26, 2026, 10:57
// PM (UTC+2)", as UTC; the zero time when it cannot.
func stampTime(s string) time.Time {
	m := reStampBody.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return time.Time{}
	}
	var t time.Time
	var err error
	for _, layout := range []string{"Jan 2, 2006, 3:04 PM", "January 2, 2006, 3:04 PM"} {
		if t, err = time.Parse(layout, m[1]); err == nil {
			break
		}
	}
	if err != nil {
		return time.Time{}
	}
	off := 0
	if m[3] != "" {
		h := 0
		for _, c := range m[3][1:] {
			h = h*10 + int(c-'0')
		}
		mins := 0
		for _, c := range m[4] {
			mins = mins*10 + int(c-'0')
		}
		off = h*3600 + mins*60
		if m[3][0] == '-' {
			off = -off
		}
	}
	return t.Add(-time.Duration(off) * time.Second).UTC()
}

// cursorHome is ~/.cursor, or $CURSOR_CONFIG_DIR when set (the agent CLI
// reads its configuration from there).
func cursorHome(home string, getenv func(string) string) string {
	if d := getenv("CURSOR_CONFIG_DIR"); d != "" && filepath.IsAbs(d) {
		return d
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".cursor")
}

// AgentParser reads the agent's transcripts and the CLI's store.db.
type AgentParser struct{}

var (
	_ parsers.Parser      = (*AgentParser)(nil)
	_ parsers.Locator     = (*AgentParser)(nil)
	_ parsers.Companioned = (*AgentParser)(nil)
)

// NewAgent returns the cursor-agent parser.
func NewAgent() *AgentParser { return &AgentParser{} }

// Info describes the family.
func (*AgentParser) Info() parsers.Info {
	return parsers.Info{
		Name:        AgentName,
		Description: "Cursor agent sessions: agent-transcripts (.jsonl, .txt) and the cursor-agent CLI's store.db",
		Detection: `a .jsonl under agent-transcripts/ whose first record, past leading NUL bytes and lines that are not JSON objects, has "role" and "message" (or "content") at its top and none of Claude Code's or Qwen Code's session keys (sessionId, uuid, parentUuid), or is a turn_ended/metadata record, and not named as PersonalAgent names its files; ` +
			`a .txt under agent-transcripts/ starting with "user:"; a store.db in chats/<hash>/<id>/ starting with the SQLite magic`,
		Locations: []string{
			"~/.cursor/projects/<workspace>/agent-transcripts",
			"~/.cursor/chats/<workspace hash>/<session>/store.db",
			"$CURSOR_CONFIG_DIR/projects, $CURSOR_CONFIG_DIR/chats",
		},
		Version: 3, // 3: other tools' sessions under agent-transcripts/ left to them, so they are detected again; records after a torn record on its line read
	}
}

// DefaultRoots returns ~/.cursor/projects and ~/.cursor/chats (the same on
// Linux and macOS).
func (*AgentParser) DefaultRoots(home string, getenv func(string) string) []string {
	base := cursorHome(home, getenv)
	if base == "" {
		return nil
	}
	return []string{filepath.Join(base, "projects"), filepath.Join(base, "chats")}
}

// Companions lists store.db's write-ahead log; transcripts stand alone.
func (*AgentParser) Companions(path string) []string {
	if filepath.Base(path) == storeName {
		return []string{path + "-wal"}
	}
	return nil
}

func inTranscripts(path string) bool {
	p := filepath.ToSlash(path)
	return strings.Contains(p, "/agent-transcripts/") || strings.HasPrefix(p, "agent-transcripts/")
}

// underChats reports whether path is chats/<hash>/<id>/store.db.
func underChats(path string) bool {
	return filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(path)))) == "chats"
}

// Detect recognises the three file kinds by place, name and first bytes.
func (*AgentParser) Detect(path string, head []byte) bool {
	switch {
	case filepath.Base(path) == storeName:
		return underChats(path) && sqlitedb.IsSQLite(head)
	case !inTranscripts(path):
		return false
	case parsers.HasExt(path, ".jsonl"):
		// Past leading damage (NUL bytes, a torn or garbage line): Parse
		// reads the transcript after it, and warns.
		first := jsonhead.FirstObjectLine(head)
		if len(first) == 0 || first[0] != '{' {
			return false
		}
		// Cursor's message records carry role and message (or content) at
		// the top. Claude Code's and Qwen Code's records nest role inside
		// message and carry their session keys at the top: a session of
		// theirs in a folder named agent-transcripts is not Cursor's.
		// PersonalAgent's {role, content} lines are Cursor's shape too; its
		// names (YYYYMMDDHHMMSS###.jsonl) are not Cursor's (a uuid).
		keys := jsonhead.Scan(first)
		if keys.Has("", "sessionId", "uuid", "parentUuid") || personalagent.IsFileName(filepath.Base(path)) {
			return false
		}
		if keys.Has("", "role") && keys.Has("", "message", "content") {
			return true
		}
		return reMarkerType.Match(first)
	case parsers.HasExt(path, ".txt"):
		first := strings.TrimLeft(strings.TrimPrefix(string(head), "\xef\xbb\xbf"), " \t\r\n")
		if i := strings.IndexByte(first, '\n'); i >= 0 {
			first = first[:i]
		}
		return roleLine(first) == "user"
	}
	return false
}

var reMarkerType = regexp.MustCompile(`"type"\s*:\s*"(?:turn_ended|metadata)"`)

// Parse reads one transcript or store. A store is read from its path (SQLite
// needs the file itself); r is not read then.
func (*AgentParser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	switch {
	case filepath.Base(path) == storeName:
		return parseStore(ctx, path)
	case parsers.HasExt(path, ".txt"):
		return parseText(ctx, path, r)
	}
	return parseJSONL(ctx, path, r)
}

// IDE is the parser of Cursor's state.vscdb chats.
type IDE struct{}

var (
	_ parsers.Parser      = (*IDE)(nil)
	_ parsers.Locator     = (*IDE)(nil)
	_ parsers.Companioned = (*IDE)(nil)
)

// New returns the cursor (IDE chats) parser.
func New() *IDE { return &IDE{} }

// Info describes the family.
func (*IDE) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "Cursor IDE chats and composers in state.vscdb (SQLite tables cursorDiskKV and ItemTable)",
		Detection:   `a file named state.vscdb that starts with the SQLite magic; Parse checks for Cursor's tables and keys`,
		Locations: []string{
			"~/.config/Cursor/User/globalStorage/state.vscdb (Linux)",
			"~/.config/Cursor/User/workspaceStorage/<id>/state.vscdb (Linux)",
			"~/Library/Application Support/Cursor/User/globalStorage/state.vscdb (macOS)",
			"~/Library/Application Support/Cursor/User/workspaceStorage/<id>/state.vscdb (macOS)",
			`%APPDATA%\Cursor\User\globalStorage\state.vscdb (Windows)`,
		},
		Version: 2, // 2: JSON arguments and results with their escapes undone
	}
}

// DefaultRoots returns Cursor's User folder's two storages for this platform.
func (*IDE) DefaultRoots(home string, getenv func(string) string) []string {
	return ideRoots(runtime.GOOS, home, getenv)
}

func ideRoots(goos, home string, getenv func(string) string) []string {
	base := parsers.ElectronAppData(goos, home, getenv)
	if base == "" {
		return nil
	}
	user := filepath.Join(base, "Cursor", "User")
	return []string{filepath.Join(user, "globalStorage", vscdbName), filepath.Join(user, "workspaceStorage")}
}

// Companions lists the write-ahead log and, for a workspace database, the
// workspace.json that names its folder.
func (*IDE) Companions(path string) []string {
	return []string{path + "-wal", filepath.Join(filepath.Dir(path), "workspace.json")}
}

// Detect: the file name and the SQLite magic. Whether Cursor's tables are
// there is Parse's business: VS Code's own state.vscdb gives nothing.
func (*IDE) Detect(path string, head []byte) bool {
	return filepath.Base(path) == vscdbName && sqlitedb.IsSQLite(head)
}
