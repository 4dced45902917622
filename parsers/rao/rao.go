// Package rao reads the conversations of Rao, the AI assistant built into
// RStudio. Each conversation is a folder conversation_N/ holding a one-line
// conversation_log.json (written by R's jsonlite) and side files: summaries,
// file changes, edit diffs, script history and attachments; the conversation
// names live in a conversation_names.csv beside the conversations/ folder.
package rao

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"

	"github.com/convsearch/convsearch/parsers"
)

// name is the family name, used as Conversation.Source.
const name = "rao"

// logName is the primary file of a conversation folder.
const logName = "conversation_log.json"

// The side files of a conversation folder that Parse reads.
const (
	summariesName = "summaries.json"
	changesName   = "file_changes.json"
	diffsName     = "conversation_diffs.json"
	attachName    = "attachments.csv"
	scriptsName   = "script_history.tsv"
	namesName     = "conversation_names.csv"
)

// Parser reads rao conversation folders. It holds no state.
type Parser struct{}

var (
	_ parsers.Parser      = (*Parser)(nil)
	_ parsers.Companioned = (*Parser)(nil)
	_ parsers.Locator     = (*Parser)(nil)
)

// New returns a rao parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        name,
		Description: "Rao (RStudio AI assistant) conversation folders: conversation_N/conversation_log.json with its summaries, file changes, diffs, script history, attachments and the conversation_names.csv titles",
		Detection:   "a file named conversation_log.json holding a JSON array of objects with rao keys (role, related_to, original_query, function_call, call_id, procedural), or an empty array",
		Locations: []string{
			"~/.local/share/R/rstudio-ai/conversations/conversation_N/ (Linux, tools::R_user_dir; $R_USER_DATA_DIR or $XDG_DATA_HOME replace ~/.local/share)",
			"~/.local/share/rstudio-ai/conversations/conversation_N/ (Linux, older R)",
			"~/Library/Application Support/org.R-project.R/R/rstudio-ai/conversations/conversation_N/ (macOS)",
			"%APPDATA%\\R\\data\\R\\rstudio-ai\\conversations\\conversation_N\\ (Windows)",
			"~/.rstudio/ai/conversations/conversation_N/ (early builds)",
		},
		Version: 3, // 3: a log cut short keeps the messages written whole before the tear
	}
}

// DefaultRoots returns the folders Rao may keep its data in on any platform:
// tools::R_user_dir("rstudio-ai", "data") and the fallbacks Rao uses when R
// lacks it. The walker finds the conversation logs below them.
func (*Parser) DefaultRoots(home string, getenv func(string) string) []string {
	var roots []string
	add := func(p string) {
		for _, r := range roots {
			if r == p {
				return
			}
		}
		roots = append(roots, p)
	}
	// tools::R_user_dir(pkg, "data") is <data home>/R/<pkg>.
	for _, env := range []string{"R_USER_DATA_DIR", "XDG_DATA_HOME"} {
		if d := getenv(env); d != "" {
			add(filepath.Join(d, "R", "rstudio-ai"))
		}
	}
	if d := getenv("XDG_DATA_HOME"); d != "" {
		add(filepath.Join(d, "rstudio-ai"))
	}
	if home != "" {
		add(filepath.Join(home, ".local", "share", "R", "rstudio-ai"))
		add(filepath.Join(home, ".local", "share", "rstudio-ai"))
		add(filepath.Join(home, "Library", "Application Support", "org.R-project.R", "R", "rstudio-ai"))
		add(filepath.Join(home, "Library", "Application Support", "rstudio-ai"))
		add(filepath.Join(home, ".rstudio", "ai"))
	}
	if d := getenv("APPDATA"); d != "" {
		add(filepath.Join(d, "R", "data", "R", "rstudio-ai"))
	}
	if d := getenv("LOCALAPPDATA"); d != "" {
		add(filepath.Join(d, "rstudio-ai"))
	}
	return roots
}

// Companions lists the side files Parse reads for the log at path. The names
// file sits beside the conversations/ folder in Rao's layout (the grandparent
// of the log); some builds and tests keep it next to the conversation folders
// (the parent), so both are read.
func (*Parser) Companions(path string) []string {
	dir := filepath.Dir(path)
	parent := filepath.Dir(dir)
	return []string{
		filepath.Join(dir, summariesName),
		filepath.Join(dir, changesName),
		filepath.Join(dir, diffsName),
		filepath.Join(dir, attachName),
		filepath.Join(dir, scriptsName),
		filepath.Join(parent, namesName),
		filepath.Join(filepath.Dir(parent), namesName),
	}
}

var (
	bom = []byte("\xef\xbb\xbf")
	// markers are keys only rao's log objects carry together with an array
	// head; one is enough since the file name is checked too.
	markers = [][]byte{
		[]byte(`"role"`), []byte(`"related_to"`), []byte(`"original_query"`),
		[]byte(`"function_call"`), []byte(`"call_id"`), []byte(`"procedural"`),
	}
)

// Detect reports whether path is a rao conversation log: the file name
// conversation_log.json and an array head, empty or of objects with rao keys.
func (*Parser) Detect(path string, head []byte) bool {
	if !strings.EqualFold(baseName(path), logName) {
		return false
	}
	h := bytes.TrimLeft(bytes.TrimPrefix(head, bom), " \t\r\n")
	if len(h) == 0 || h[0] != '[' {
		return false
	}
	rest := bytes.TrimLeft(h[1:], " \t\r\n")
	if len(rest) == 0 {
		return false
	}
	if rest[0] == ']' {
		return len(bytes.TrimSpace(rest[1:])) == 0 // a new log: "[]"
	}
	if rest[0] != '{' {
		return false
	}
	for _, m := range markers {
		if bytes.Contains(rest, m) {
			return true
		}
	}
	return false
}

// Parse reads the conversation log at path from r and the side files of its
// folder from disk. An empty log ("[]", or R's NULL "{}") yields no
// conversation.
func (*Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	return parse(ctx, path, r)
}
