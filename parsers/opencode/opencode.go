// Package opencode reads the sessions of OpenCode (sst/opencode).
//
// Versions before 1.2 keep them as JSON files under
// $XDG_DATA_HOME/opencode/storage/: session/<projectID>/<sessionID>.json
// (id, title, directory, parentID, time.created/updated),
// message/<sessionID>/<messageID>.json (role, time, modelID, …) and
// part/<messageID>/<partID>.json (text, reasoning, tool with its state's
// input and output, file, step-start, …). The session file is the primary
// file; its messages and parts are companions read by path. Identifiers
// sort in creation order.
//
// Later versions keep the same records in a SQLite database,
// $XDG_DATA_HOME/opencode/opencode.db: tables session, message and part,
// whose data columns hold the message and part JSON. It is read read-only,
// as parsers/qclistore reads its store.
package opencode

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/jsonhead"
	"github.com/convsearch/convsearch/parsers/sqlitedb"
)

// Name is the family name, used as Conversation.Source.
const Name = "opencode"

// DBName is the SQLite store's file name.
const DBName = "opencode.db"

// Parser reads OpenCode's JSON storage and its SQLite store.
type Parser struct{}

var (
	_ parsers.Parser      = (*Parser)(nil)
	_ parsers.Companioned = (*Parser)(nil)
	_ parsers.Locator     = (*Parser)(nil)
)

// New returns an OpenCode parser.
func New() *Parser { return &Parser{} }

// Info describes the family.
func (*Parser) Info() parsers.Info {
	return parsers.Info{
		Name:        Name,
		Description: "OpenCode sessions: storage/session/<project>/<session>.json with its storage/message and storage/part files, or the opencode.db SQLite store",
		Detection:   `a .json file two folders below a "session" folder whose head has a session's "id", "time" and "projectID"/"directory"/"title" keys; or a file named opencode.db that starts with the SQLite magic`,
		Locations: []string{
			"$XDG_DATA_HOME/opencode/storage/session/<projectID>/<sessionID>.json (~/.local/share/opencode/…, on macOS too)",
			"$XDG_DATA_HOME/opencode/opencode.db (OpenCode 1.2 and later)",
		},
		Version: 3, // 3: a session read past a byte-order mark
	}
}

// DefaultRoots returns OpenCode's data folder: xdg-basedir's data home, which
// OpenCode uses on macOS as on Linux.
func (*Parser) DefaultRoots(home string, getenv func(string) string) []string {
	return roots(runtime.GOOS, home, getenv)
}

// roots is DefaultRoots for a given GOOS; xdg-basedir gives the same
// answer on every one, Windows included (~/.local/share there too).
func roots(_, home string, getenv func(string) string) []string {
	var base string
	if x := getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		base = x
	} else if home != "" {
		base = filepath.Join(home, ".local", "share")
	}
	if base == "" {
		return nil
	}
	return []string{
		filepath.Join(base, "opencode", "storage", "session"),
		filepath.Join(base, "opencode", DBName),
	}
}

// Detect reports whether path is a session file or the store.
func (*Parser) Detect(path string, head []byte) bool {
	if filepath.Base(path) == DBName {
		return sqlitedb.IsSQLite(head)
	}
	if !parsers.HasExt(path, ".json") || filepath.Base(filepath.Dir(filepath.Dir(path))) != "session" {
		return false
	}
	h := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(h) == 0 || h[0] != '{' {
		return false
	}
	keys := jsonhead.Scan(h)
	return keys.Anywhere("id") && keys.Anywhere("time") && keys.Anywhere("projectID", "directory", "title")
}

// Companions lists the files Parse reads beside a session file: every
// message file of the session and every part file of those messages, as
// they are now (a new message also changes the session's time.updated, so
// the session file itself changes). The store's companion is its -wal.
func (*Parser) Companions(path string) []string {
	if filepath.Base(path) == DBName {
		return []string{path + "-wal"}
	}
	var out []string
	for _, m := range messageFiles(path) {
		out = append(out, m)
		out = append(out, partFiles(path, strings.TrimSuffix(filepath.Base(m), ".json"))...)
	}
	return out
}

// storageDir is the storage folder of a session file:
// <storage>/session/<projectID>/<sessionID>.json.
func storageDir(path string) string {
	return filepath.Dir(filepath.Dir(filepath.Dir(path)))
}

// messageFiles lists a session's message files in id order, in the
// current layout (storage/message/<sessionID>/) and the oldest one
// (storage/session/message/<sessionID>/).
func messageFiles(path string) []string {
	id := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	st := storageDir(path)
	for _, dir := range []string{filepath.Join(st, "message", id), filepath.Join(st, "session", "message", id)} {
		if files := jsonFiles(dir); len(files) > 0 {
			return files
		}
	}
	return nil
}

// partFiles lists a message's part files in id order.
func partFiles(path, messageID string) []string {
	return jsonFiles(filepath.Join(storageDir(path), "part", messageID))
}

// jsonFiles lists the .json files of dir, sorted by name.
func jsonFiles(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".json") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(out)
	return out
}

// Parse reads the session file at path with its message and part files,
// or every session of the store.
func (*Parser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	if filepath.Base(path) == DBName {
		return parseStore(ctx, path)
	}
	return parseFiles(ctx, path, r)
}
