// Package zed reads the agent threads of the Zed editor: the SQLite store
// threads/threads.db in Zed's data folder. Its table threads holds one row
// per thread (id, summary, updated_at, data_type, data, and in later
// versions parent_id, folder_paths, created_at); data is the thread's JSON,
// zstd-compressed when data_type is "zstd".
//
// Every serialized version is read: the first threads (no version,
// messages with a text), 0.1.0 and 0.2.0 (messages with role and segments,
// tool uses and results; in 0.1.0 results sit in the next user message),
// and 0.3.0, the agent's DbThread, whose messages are {"User": …},
// {"Agent": …} or "Resume". Tool results become a tool message after the
// assistant message that called them. Text a person attached by mention
// (files, symbols, fetched pages) is kept as a note, not as message text.
package zed

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"runtime"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/sqlitedb"
)

// Name is the family name, used as Conversation.Source.
const Name = "zed"

// FileName is the store's file name.
const FileName = "threads.db"

// Parser reads Zed's thread store.
type Parser struct{}

var (
	_ parsers.Parser      = (*Parser)(nil)
	_ parsers.Locator     = (*Parser)(nil)
	_ parsers.Companioned = (*Parser)(nil)
)

// New returns a Zed parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "Zed editor agent threads (SQLite store threads/threads.db, zstd-compressed thread JSON, versions up to 0.3.0)",
		Detection:   `threads.db starting with the SQLite magic, in a folder named zed or with the threads table's data_type column in its head`,
		Locations: []string{
			"$XDG_DATA_HOME/zed/threads/threads.db (~/.local/share/zed/threads/threads.db)",
			"~/Library/Application Support/Zed/threads/threads.db (macOS)",
			`%LOCALAPPDATA%\Zed\threads\threads.db (Windows)`,
		},
		Version: 2, // 2: JSON arguments and results with their escapes undone
	}
}

// DefaultRoots returns the store for this platform.
func (*Parser) DefaultRoots(home string, getenv func(string) string) []string {
	return roots(runtime.GOOS, home, getenv)
}

// roots is DefaultRoots for a given GOOS, after Zed's paths::data_dir:
// ~/Library/Application Support/Zed on macOS, $FLATPAK_XDG_DATA_HOME or
// $XDG_DATA_HOME (else ~/.local/share) /zed on Linux and the BSDs,
// %LOCALAPPDATA%\Zed on Windows.
func roots(goos, home string, getenv func(string) string) []string {
	base, name := parsers.LocalDataDir(goos, home, getenv), "Zed"
	switch goos {
	case "darwin", "ios", "windows":
	default:
		name = "zed"
		if f := getenv("FLATPAK_XDG_DATA_HOME"); filepath.IsAbs(f) {
			base = f
		}
	}
	if base == "" {
		return nil
	}
	return []string{filepath.Join(base, name, "threads", FileName)}
}

// Companions lists the write-ahead log, where new threads sit until a
// checkpoint.
func (*Parser) Companions(path string) []string {
	return []string{path + "-wal"}
}

// Detect reports whether path is Zed's thread store. Its single table's
// schema is on the first page, so the head shows the data_type column.
func (*Parser) Detect(path string, head []byte) bool {
	if filepath.Base(path) != FileName || !sqlitedb.IsSQLite(head) {
		return false
	}
	return parsers.InFolder(path, "zed") || bytes.Contains(head, []byte("data_type"))
}

// Parse reads every thread of the store at path. r is not read: SQLite
// needs the file itself, and its -wal beside it.
func (*Parser) Parse(ctx context.Context, path string, _ io.Reader) (*parsers.Result, error) {
	return parseStore(ctx, path)
}
