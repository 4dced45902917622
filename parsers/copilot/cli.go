package copilot

import (
	"bufio"
	"context"
	"io"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
)

// CLIName is the Copilot CLI family's name, used as Conversation.Source.
const CLIName = "copilot-cli"

// CLI reads GitHub Copilot CLI sessions: the event log
// session-state/<id>/events.jsonl (one event a line: session.start,
// user.message, assistant.message, tool.execution_complete, …; before
// version 0.0.400 or so, session-state/<id>.jsonl), with the session's name
// in workspace.yaml beside it, and the older one-object-per-session
// history-session-state/<id>.json (chatMessages in OpenAI chat shape, and
// a timeline).
type CLI struct{}

var (
	_ parsers.Parser      = (*CLI)(nil)
	_ parsers.Locator     = (*CLI)(nil)
	_ parsers.Companioned = (*CLI)(nil)
)

// NewCLI returns a Copilot CLI parser.
func NewCLI() *CLI { return &CLI{} }

// Info describes the family.
func (*CLI) Info() parsers.Info {
	return parsers.Info{
		Name:        CLIName,
		Description: "GitHub Copilot CLI sessions (session-state/<id>/events.jsonl, and the older history-session-state/<id>.json)",
		Detection:   `.jsonl whose first record (past leading NUL bytes and lines that are not JSON objects) has a dotted Copilot event type ("session.start", "user.message", …) and "data", named events.jsonl or under session-state/ or naming copilot-agent; a legacy session object whose root has "sessionId" with "chatMessages" or "timeline"; under any other name, a first line that is such an event naming copilot-agent, or a legacy session object`,
		Locations: []string{
			"$COPILOT_HOME/session-state, $COPILOT_HOME/history-session-state",
			"~/.copilot/session-state, ~/.copilot/history-session-state",
			"$XDG_CONFIG_HOME/.copilot/session-state (versions up to 0.0.421)",
		},
		Version: 3, // 3: records after a torn record on its line read; a history-session-state file read past a byte-order mark
	}
}

// DefaultRoots returns the session folders under $COPILOT_HOME (else
// ~/.copilot), and under $XDG_CONFIG_HOME/.copilot, which versions up to
// 0.0.421 used when the variable was set.
func (*CLI) DefaultRoots(home string, getenv func(string) string) []string {
	var bases []string
	if h := getenv("COPILOT_HOME"); h != "" {
		bases = append(bases, h)
	} else if home != "" {
		bases = append(bases, filepath.Join(home, ".copilot"))
	}
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) && runtime.GOOS != "windows" {
		bases = append(bases, filepath.Join(x, ".copilot"))
	}
	var roots []string
	for _, b := range bases {
		roots = append(roots, filepath.Join(b, "session-state"), filepath.Join(b, "history-session-state"))
	}
	return roots
}

// Companions names workspace.yaml beside an events.jsonl: it holds the
// session's name.
func (*CLI) Companions(path string) []string {
	if filepath.Base(path) != eventsFile {
		return nil
	}
	return []string{filepath.Join(filepath.Dir(path), workspaceFile)}
}

const (
	eventsFile    = "events.jsonl"
	workspaceFile = "workspace.yaml"
)

// eventNamespaces are the namespaces of Copilot CLI's event types, which
// are named namespace.event.
var eventNamespaces = map[string]bool{"session": true, "user": true, "assistant": true, "system": true, "tool": true, "hook": true, "subagent": true, "skill": true}

// isEventType reports whether typ is one of Copilot CLI's event types.
func isEventType(typ string) bool {
	ns, event, ok := strings.Cut(typ, ".")
	return ok && eventNamespaces[ns] && event != "" && strings.Trim(event, "abcdefghijklmnopqrstuvwxyz_") == ""
}

// fromCopilot reports whether the record names Copilot as its writer.
func fromCopilot(s jsonhead.Shape) bool {
	for _, k := range s.Keys {
		if k.Name == "copilotVersion" || k.Name == "producer" && k.Kind == '"' && k.Value == "copilot-agent" {
			return true
		}
	}
	return false
}

// Detect reports whether path is a Copilot CLI session: an event log whose
// first record is a Copilot event, or a legacy session object. Under
// another name than events.jsonl or .json (a session saved as .txt, say),
// the content decides: an event log whose first line is an event naming
// Copilot as its writer, or a legacy session object.
func (*CLI) Detect(path string, head []byte) bool {
	if parsers.HasExt(path, ".jsonl") {
		// Past leading damage (NUL bytes, a torn or garbage line): Parse
		// reads the log after it, and warns.
		s, ok := eventRecord(jsonhead.FirstObjectLine(head))
		return ok && (filepath.Base(path) == eventsFile || strings.Contains(filepath.ToSlash(path), "/session-state/") || fromCopilot(s)) || isLegacy(head)
	}
	if s, ok := eventRecord(jsonhead.LeadingObjectLine(head)); ok {
		return fromCopilot(s)
	}
	return isLegacy(head)
}

// eventRecord scans line and reports whether it is a Copilot CLI event record:
// a dotted event type and a data object.
func eventRecord(line []byte) (jsonhead.Shape, bool) {
	s := jsonhead.Scan(line)
	typ, _ := s.Value("", "type")
	data, _ := s.Kind("", "data")
	return s, s.Root == '{' && isEventType(typ) && data == '{'
}

// isLegacy reports whether head starts a legacy session object.
func isLegacy(head []byte) bool {
	s := jsonhead.Scan(head)
	return s.Root == '{' && s.Has("", "sessionId") && s.Has("", "chatMessages", "timeline")
}

// Parse reads one session, whatever its name: a legacy session object, or
// else an event log. An event log never starts like a legacy session: its
// root keys are type, data, id…
func (*CLI) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(parsers.HeadSize)
	if isLegacy(head) {
		return parseLegacy(ctx, path, br)
	}
	return parseEvents(ctx, path, br)
}
