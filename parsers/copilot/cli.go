package copilot

import (
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
		Detection:   `.jsonl whose first record (past leading NUL bytes and lines that are not JSON objects) has a dotted Copilot event type ("session.start", "user.message", …) and "data", named events.jsonl or under session-state/ or naming copilot-agent; .json whose root has "sessionId" with "chatMessages" or "timeline"`,
		Locations: []string{
			"$COPILOT_HOME/session-state, $COPILOT_HOME/history-session-state",
			"~/.copilot/session-state, ~/.copilot/history-session-state",
			"$XDG_CONFIG_HOME/.copilot/session-state (versions up to 0.0.421)",
		},
		Version: 2, // 2: JSON arguments and results with their escapes undone
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
// first record is a Copilot event, or a legacy session object.
func (*CLI) Detect(path string, head []byte) bool {
	switch {
	case parsers.HasExt(path, ".jsonl"):
		// Past leading damage (NUL bytes, a torn or garbage line): Parse
		// reads the log after it, and warns.
		s := jsonhead.Scan(jsonhead.FirstObjectLine(head))
		typ, _ := s.Value("", "type")
		if data, _ := s.Kind("", "data"); s.Root != '{' || !isEventType(typ) || data != '{' {
			return false
		}
		return filepath.Base(path) == eventsFile || strings.Contains(filepath.ToSlash(path), "/session-state/") || fromCopilot(s)
	case parsers.HasExt(path, ".json"):
		s := jsonhead.Scan(head)
		return s.Root == '{' && s.Has("", "sessionId") && s.Has("", "chatMessages", "timeline")
	}
	return false
}

// Parse reads one session.
func (*CLI) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	if parsers.HasExt(path, ".json") {
		return parseLegacy(ctx, path, r)
	}
	return parseEvents(ctx, path, r)
}
