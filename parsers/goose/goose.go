// Package goose reads the sessions of Block's goose agent, CLI and Desktop.
//
// goose keeps them in its data folder's sessions/ subfolder in one of two
// forms, both read here:
//
//   - up to version 1.9, one <session id>.jsonl per session: a first line of
//     session metadata (working_dir, description, message_count, tokens)
//     then one goose Message per line (role, created, content[] of text,
//     toolRequest, toolResponse, thinking, image … blocks, metadata);
//   - from 1.10, the SQLite store sessions.db: table sessions (id, name,
//     working_dir, created_at, updated_at, session_type, …) and table
//     messages (session_id, role, content_json, created_timestamp,
//     metadata_json), content_json being the same content[] array.
//
// A user message that carries only tool responses is read as a tool
// message. Messages goose keeps from the user's view (metadata.userVisible
// false: injected context, compaction summaries) are marked hidden.
package goose

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"runtime"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
	"github.com/convsearch/convsearch/parsers/sqlitedb"
)

// Name is the family name, used as Conversation.Source.
const Name = "goose"

// StoreName is the SQLite store's file name.
const StoreName = "sessions.db"

// Parser reads goose session files and stores.
type Parser struct{}

var (
	_ parsers.Parser      = (*Parser)(nil)
	_ parsers.Locator     = (*Parser)(nil)
	_ parsers.Companioned = (*Parser)(nil)
)

// New returns a goose parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "goose (Block) sessions: the SQLite store sessions.db (goose 1.10 and later) and the older one-.jsonl-per-session files",
		Detection: `sessions.db starting with the SQLite magic, in a folder named goose or with goose's content_json column in its head; ` +
			`or .jsonl whose first record (past leading NUL bytes and lines that are not JSON objects) is goose session metadata ("description" and "message_count") or a goose message ("role", "created", "content") in a goose folder`,
		Locations: []string{
			"$GOOSE_PATH_ROOT/data/sessions",
			"$XDG_DATA_HOME/goose/sessions (~/.local/share/goose/sessions)",
			"~/Library/Application Support/Block/goose/sessions (macOS)",
			`%APPDATA%\Block\goose\data\sessions (Windows)`,
		},
		Version: 4, // 4: records after a torn record on its line read
	}
}

// DefaultRoots returns goose's sessions folder for this platform.
func (*Parser) DefaultRoots(home string, getenv func(string) string) []string {
	return roots(runtime.GOOS, home, getenv)
}

// roots is DefaultRoots for a given GOOS. goose resolves its folders with
// the etcetera crate's app strategy (XDG layout on Linux and macOS alike)
// unless GOOSE_PATH_ROOT, when absolute, moves them all under one root.
func roots(goos, home string, getenv func(string) string) []string {
	if r := getenv("GOOSE_PATH_ROOT"); r != "" && filepath.IsAbs(r) {
		return []string{filepath.Join(r, "data", "sessions")}
	}
	var out []string
	switch goos {
	case "windows":
		base := getenv("APPDATA")
		if base == "" && home != "" {
			base = filepath.Join(home, "AppData", "Roaming")
		}
		if base != "" {
			out = append(out, filepath.Join(base, "Block", "goose", "data", "sessions"))
		}
		return out
	}
	if x := getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		out = append(out, filepath.Join(x, "goose", "sessions"))
	} else if home != "" {
		out = append(out, filepath.Join(home, ".local", "share", "goose", "sessions"))
	}
	if (goos == "darwin" || goos == "ios") && home != "" {
		out = append(out, filepath.Join(home, "Library", "Application Support", "Block", "goose", "sessions"))
	}
	return out
}

// Companions lists the store's write-ahead log: in WAL mode new messages
// sit there, the main file unchanged, until a checkpoint.
func (*Parser) Companions(path string) []string {
	if filepath.Base(path) == StoreName {
		return []string{path + "-wal"}
	}
	return nil
}

// Detect reports whether path is a goose store or session file.
func (*Parser) Detect(path string, head []byte) bool {
	if filepath.Base(path) == StoreName {
		return sqlitedb.IsSQLite(head) && (parsers.InFolder(path, "goose") || bytes.Contains(head, []byte("content_json")))
	}
	if !parsers.HasExt(path, ".jsonl") {
		return false
	}
	// Past leading damage (NUL bytes, a torn or garbage line): Parse reads
	// the session after it, and warns.
	first := jsonhead.FirstObjectLine(head)
	if len(first) == 0 || first[0] != '{' {
		return false
	}
	keys := jsonhead.Scan(first)
	if keys.Anywhere("description") && keys.Anywhere("message_count") {
		return true
	}
	// A file whose metadata line was lost starts with a message: too
	// generic a shape to claim outside goose's own folder.
	return parsers.InFolder(path, "goose") && keys.Anywhere("role") && keys.Anywhere("created") && keys.Anywhere("content")
}

// Parse reads a session file, or every session of a store. A store is read
// from its path (SQLite needs the file and its -wal), not from r.
func (*Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	if filepath.Base(path) == StoreName {
		return parseStore(ctx, path)
	}
	return parseJSONL(ctx, path, r)
}
