// Package cline reads the task folders of Cline and of the extensions forked
// from it, Roo Code and Kilo Code: <VS Code user dir>/globalStorage/<extension
// id>/tasks/<taskId>/ (and ~/.cline/data/tasks/<taskId>/ for the cline CLI).
//
// The primary file is api_conversation_history.json, the Anthropic-shaped
// messages sent to the model (role, content as a string or blocks: text,
// image, tool_use, tool_result, thinking). Beside it, ui_messages.json (the
// chat as shown: say/ask records with ts, text and reasoning),
// task_metadata.json (files in context, models used) and, in Roo Code,
// history_item.json (the task's history entry) complete it.
//
// Cline drives tools with XML in the assistant's text (<read_file><path>…),
// kept as text, and answers with user messages whose text blocks are
// "[tool for 'x'] Result:" followed by the output: such a message is read as
// a tool message with its results. The <environment_details> block Cline
// appends to every user message is injected context: it is kept out of the
// visible text, and a message made only of it is hidden.
package cline

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/convsearch/convsearch/parsers"
)

// Name is the family name. Conversations carry the name of the extension
// that wrote them as Source: cline, roo-code or kilo-code.
const Name = "cline"

// File names of a task folder (cline src/core/storage/disk.ts GlobalFileNames).
const (
	HistoryName  = "api_conversation_history.json"
	uiName       = "ui_messages.json"
	metadataName = "task_metadata.json"
	itemName     = "history_item.json" // Roo Code
)

// extensions maps each extension's id to the Source its tasks carry.
var extensions = []struct{ id, source string }{
	{"saoudrizwan.claude-dev", "cline"},
	{"rooveterinaryinc.roo-cline", "roo-code"},
	{"kilocode.kilo-code", "kilo-code"},
}

// editors are the VS Code builds whose user folder may hold the extensions.
var editors = []string{"Code", "Code - Insiders", "VSCodium", "Cursor", "Windsurf"}

// Parser reads Cline, Roo Code and Kilo Code task folders. It holds no state.
type Parser struct{}

var (
	_ parsers.Parser      = (*Parser)(nil)
	_ parsers.Companioned = (*Parser)(nil)
	_ parsers.Locator     = (*Parser)(nil)
)

// New returns a Cline parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "Cline, Roo Code and Kilo Code tasks (tasks/<taskId>/api_conversation_history.json with its ui_messages.json, task_metadata.json and history_item.json)",
		Detection:   "a file named api_conversation_history.json holding a JSON array, empty or of objects with a \"role\" key",
		Locations: []string{
			"~/.config/<Code|Cursor|VSCodium|Windsurf>/User/globalStorage/saoudrizwan.claude-dev/tasks/<taskId>/ (Cline, Linux; $XDG_CONFIG_HOME replaces ~/.config)",
			"~/Library/Application Support/<Code|Cursor|…>/User/globalStorage/saoudrizwan.claude-dev/tasks/<taskId>/ (Cline, macOS)",
			"…/globalStorage/rooveterinaryinc.roo-cline/tasks/<taskId>/ (Roo Code)",
			"…/globalStorage/kilocode.kilo-code/tasks/<taskId>/ (Kilo Code)",
			"~/.vscode-server/data/User/globalStorage/<extension>/tasks/ (VS Code remote)",
			"$CLINE_DIR/data/tasks/<taskId>/ (~/.cline/data/tasks, the cline CLI)",
		},
		Version: 3, // 2: Cline 3.x results joined to their calls, the spoken tool arguments in the text; 3: JSON arguments and results with their escapes undone
	}
}

// DefaultRoots returns the tasks folders of every extension in every editor
// of this platform, and the cline CLI's.
func (*Parser) DefaultRoots(home string, getenv func(string) string) []string {
	return roots(runtime.GOOS, home, getenv)
}

func roots(goos, home string, getenv func(string) string) []string {
	var out []string
	if b := parsers.ElectronAppData(goos, home, getenv); b != "" { // holds <editor>/User
		for _, ed := range editors {
			for _, ext := range extensions {
				out = append(out, filepath.Join(b, ed, "User", "globalStorage", ext.id, "tasks"))
			}
		}
	}
	if home != "" && goos != "windows" {
		for _, ext := range extensions {
			out = append(out, filepath.Join(home, ".vscode-server", "data", "User", "globalStorage", ext.id, "tasks"))
		}
	}
	if d := getenv("CLINE_DIR"); d != "" {
		out = append(out, filepath.Join(d, "data", "tasks"))
	} else if home != "" {
		out = append(out, filepath.Join(home, ".cline", "data", "tasks"))
	}
	return out
}

// Companions lists the side files of the task folder.
func (*Parser) Companions(path string) []string {
	dir := filepath.Dir(path)
	return []string{
		filepath.Join(dir, uiName),
		filepath.Join(dir, metadataName),
		filepath.Join(dir, itemName),
	}
}

// Detect reports whether path is a task's conversation history: the file
// name and a JSON array head, empty or of objects with a "role" key.
func (*Parser) Detect(path string, head []byte) bool {
	if filepath.Base(path) != HistoryName {
		return false
	}
	h := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(h) == 0 || h[0] != '[' {
		return false
	}
	rest := bytes.TrimLeft(h[1:], " \t\r\n")
	switch {
	case len(rest) == 0:
		return false
	case rest[0] == ']':
		return len(bytes.TrimSpace(rest[1:])) == 0
	case rest[0] != '{':
		return false
	}
	return bytes.Contains(rest, []byte(`"role"`))
}

// source names the extension that wrote the task at path, from the
// extension folder in the path; the cline CLI's tasks and copies kept
// elsewhere are Cline's.
func source(path string) string {
	p := strings.ToLower(filepath.ToSlash(path))
	for _, ext := range extensions {
		if strings.Contains(p, "/"+ext.id+"/") {
			return ext.source
		}
	}
	return "cline"
}

// Parse reads the history at path from r and the side files of its folder
// from disk.
func (*Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	return parse(ctx, path, r)
}
