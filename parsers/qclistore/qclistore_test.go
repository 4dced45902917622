package qclistore

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/internal/golden"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
	"github.com/convsearch/convsearch/parsers/sqlitedb/sqlitetest"
)

const corpus = "../../testdata/corpus/kiro-cli/"

// storeRow is a row to put in a test store: table v2 or v1.
type storeRow struct {
	table            string
	key, id          string
	file             string // JSON file for the value, or
	value            string // the value itself
	created, updated int64  // Unix ms
}

func (r storeRow) valueBytes(t testing.TB) []byte {
	if r.file == "" {
		return []byte(r.value)
	}
	data, err := os.ReadFile(r.file)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// fixtureRows fill testdata/data.sqlite3: the five real Kiro values and the
// example in conversations_v2; in the old table, a legacy conversation, a
// broken value and the copy of a v2 conversation the v2 migration leaves.
var fixtureRows = []storeRow{
	{table: tableV2, key: "/tmp/gfxrepo", id: "aaaaaaaa-0000-4000-8000-000000000001", file: corpus + "conversation-graphify.json", created: 1760000001000, updated: 1760000101000},
	{table: tableV2, key: "/tmp/gfxrepo", id: "aaaaaaaa-0000-4000-8000-000000000002", file: corpus + "conversation-truncated.json", created: 1760000002000, updated: 1760000102000},
	{table: tableV2, key: "/tmp/gfxrepo", id: "aaaaaaaa-0000-4000-8000-000000000003", file: corpus + "conversation-no-result.json", created: 1760000003000, updated: 1760000103000},
	{table: tableV2, key: "/tmp/gfxrepo", id: "aaaaaaaa-0000-4000-8000-000000000004", file: corpus + "conversation-negative.json", created: 1760000004000, updated: 1760000104000},
	{table: tableV2, key: "/tmp/gfxrepo", id: "aaaaaaaa-0000-4000-8000-000000000005", file: corpus + "conversation-report-read.json", created: 1760000005000, updated: 1760000105000},
	{table: tableV2, key: "/Users/dana/src/platform-infra", id: "3f9d2b6e-8a41-4c7e-b2d5-6e1a9c0f7b38", file: "../../examples/qcli/terraform-state-split.json", created: 1741770843000, updated: 1741771491000},
	{table: tableV1, key: "/home/ravi/work/billing-api", file: "../qcli/testdata/legacy-pairs.json"},
	{table: tableV1, key: "/tmp/broken", value: `{"conversation_id": "cut-short", "history": [`},
	{table: tableV1, key: "/tmp/gfxrepo", file: corpus + "conversation-graphify.json"},
}

// buildStore writes a store at path with the tool's schema, in the given
// journal mode (DELETE or WAL).
func buildStore(t testing.TB, path, journal string, rows []storeRow) {
	t.Helper()
	sqlitetest.Create(t, path, journal, []string{
		`CREATE TABLE state (key TEXT PRIMARY KEY, value BLOB)`,
		`CREATE TABLE conversations (key TEXT PRIMARY KEY, value TEXT)`,
		`CREATE TABLE conversations_v2 (
			key TEXT NOT NULL,
			conversation_id TEXT NOT NULL,
			value TEXT NOT NULL,
			created_at INTEGER NOT NULL,
			updated_at INTEGER NOT NULL,
			PRIMARY KEY (key, conversation_id))`,
		`CREATE INDEX idx_conversations_v2_key_updated ON conversations_v2(key, updated_at DESC)`,
	}, func(db *sql.DB) {
		for _, r := range rows {
			insertRow(t, db, r)
		}
	})
}

func insertRow(t testing.TB, db interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, r storeRow) {
	t.Helper()
	ctx := context.Background()
	var err error
	if r.table == tableV2 {
		_, err = db.ExecContext(ctx, `INSERT INTO conversations_v2 (key, conversation_id, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
			r.key, r.id, string(r.valueBytes(t)), r.created, r.updated)
	} else {
		_, err = db.ExecContext(ctx, `INSERT INTO conversations (key, value) VALUES (?, ?)`, r.key, string(r.valueBytes(t)))
	}
	if err != nil {
		t.Fatal(err)
	}
}

const fixture = "testdata/" + FileName

func TestSuite(t *testing.T) {
	if golden.Updating() {
		// The committed fixture is rebuilt with the goldens; rollback
		// journal mode, so reading it leaves no -wal or -shm behind.
		os.Remove(fixture)
		buildStore(t, fixture, "DELETE", fixtureRows)
	}
	parsertest.Run(t, New(), []parsertest.Case{{
		File:     fixture,
		ByPath:   true,
		Warnings: 1, // the broken value
		Want: []parsertest.Want{
			{ID: "3f9d2b6e-8a41-4c7e-b2d5-6e1a9c0f7b38", Title: "terraform plan in platform-infra wants to destroy and recreate the staging RDS…", Messages: 15, Roles: "uatatauauatatua"},
			{ID: "aaaaaaaa-0000-4000-8000-000000000001", Title: "[content stripped — counts only]", Messages: 4, Roles: "uata"},
			{ID: "aaaaaaaa-0000-4000-8000-000000000002", Messages: 4, Roles: "uata"},
			{ID: "aaaaaaaa-0000-4000-8000-000000000003", Messages: 2, Roles: "ua"},
			{ID: "aaaaaaaa-0000-4000-8000-000000000004", Messages: 4, Roles: "uata"},
			{ID: "aaaaaaaa-0000-4000-8000-000000000005", Messages: 4, Roles: "uata"},
			{ID: "b7c1e2d4-5f60-4a8b-9c1d-2e3f4a5b6c7d", Messages: 9, Roles: "uatauatua"},
		},
	}})
}

func TestStoreFields(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	buildStore(t, path, "WAL", fixtureRows)
	res := parsertest.ParseValid(t, New(), path)
	if len(res.Conversations) != 7 || len(res.Warnings) != 1 {
		t.Fatalf("%d conversations, %d warnings (%v): want 7 and 1", len(res.Conversations), len(res.Warnings), res.Warnings)
	}
	w := res.Warnings[0]
	if !errors.Is(w, parsers.ErrSyntax) || !strings.Contains(w.Error(), path) || !strings.Contains(w.Error(), `key "/tmp/broken"`) {
		t.Errorf("warning %v: want a syntax error naming the file and the row", w)
	}
	byID := map[string]*conversation.Conversation{}
	for _, c := range res.Conversations {
		byID[c.ID] = c
		if c.Source != Name || c.File != path {
			t.Errorf("%s: source %q file %q", c.ID, c.Source, c.File)
		}
	}
	c := byID["aaaaaaaa-0000-4000-8000-000000000001"]
	// No message has a time: the row's times stand in.
	if want := time.UnixMilli(1760000001000).UTC(); !c.Date.Equal(want) {
		t.Errorf("date %v, want created_at %v", c.Date, want)
	}
	if want := time.UnixMilli(1760000101000).UTC(); !c.Updated.Equal(want) {
		t.Errorf("updated %v, want updated_at %v", c.Updated, want)
	}
	if c.Project != "gfxrepo" {
		t.Errorf("project %q", c.Project)
	}
	ex := byID["3f9d2b6e-8a41-4c7e-b2d5-6e1a9c0f7b38"]
	if want := time.Date(2025, 3, 12, 9, 14, 3, 512e6, time.UTC); !ex.Date.Equal(want) || ex.Project != "platform-infra" {
		t.Errorf("example: date %v project %q", ex.Date, ex.Project)
	}
	if legacy := byID["b7c1e2d4-5f60-4a8b-9c1d-2e3f4a5b6c7d"]; legacy == nil || legacy.Project != "billing-api" {
		t.Errorf("legacy row: %+v", legacy)
	}
}

func TestDedupe(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	v1 := `{"conversation_id":"same","history":[{"user":{"content":{"Prompt":{"prompt":"old copy"}}}}]}`
	v2old := `{"conversation_id":"same","history":[{"user":{"content":{"Prompt":{"prompt":"v2 under a"}}}}]}`
	v2new := `{"conversation_id":"same","history":[{"user":{"content":{"Prompt":{"prompt":"v2 under b"}}}}]}`
	noID := `{"history":[{"user":{"content":{"Prompt":{"prompt":"no id anywhere"}}}}]}`
	buildStore(t, path, "DELETE", []storeRow{
		{table: tableV1, key: "/p/a", value: v1},
		{table: tableV1, key: "/p/legacy", value: noID},
		{table: tableV2, key: "/p/a", id: "same", value: v2old, created: 1000, updated: 2000},
		{table: tableV2, key: "/p/b", id: "same", value: v2new, created: 1500, updated: 3000},
		// The value lost its id; the column still has it.
		{table: tableV2, key: "/p/c", id: "column-id", value: noID, created: 1, updated: 1},
	})
	res := parsertest.ParseValid(t, New(), path)
	var got []string
	for _, c := range res.Conversations {
		got = append(got, c.ID+"="+c.Title+"@"+c.Project)
	}
	want := []string{"same=v2 under b@b", "column-id=no id anywhere@c"}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || !strings.HasSuffix(got[2], "=no id anywhere@legacy") {
		t.Errorf("conversations %q, want %q then the legacy row", got, want)
	}
	// The legacy id depends on the directory, not on where the store is.
	moved := filepath.Join(t.TempDir(), "x", FileName)
	os.MkdirAll(filepath.Dir(moved), 0o755)
	data, _ := os.ReadFile(path)
	os.WriteFile(moved, data, 0o644)
	if again := parsertest.ParseValid(t, New(), moved); again.Conversations[2].ID != res.Conversations[2].ID {
		t.Errorf("legacy id changed with the store's place")
	}
}

// TestWriterHoldsTransaction parses while another connection holds an open
// write transaction: the parse must neither wait nor fail, must see the
// committed state, must change no byte, and must not stop the writer from
// committing.
func TestWriterHoldsTransaction(t *testing.T) {
	for _, journal := range []string{"DELETE", "WAL"} {
		t.Run(journal, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			buildStore(t, path, journal, fixtureRows[:3])

			w := sqlitetest.Begin(t, path, "IMMEDIATE")
			insertRow(t, w.Conn(), storeRow{table: tableV2, key: "/tmp/new", id: "uncommitted", file: corpus + "conversation-negative.json", created: 5, updated: 5})

			w.Read(t, func() {
				if res := parsertest.ParseValid(t, New(), path); len(res.Conversations) != 3 {
					t.Errorf("%d conversations while the writer is open, want the 3 committed", len(res.Conversations))
				}
			})

			w.Commit(t)
			if res := parsertest.ParseValid(t, New(), path); len(res.Conversations) != 4 {
				t.Errorf("%d conversations after the commit, want 4", len(res.Conversations))
			}
		})
	}
}

// TestFileUnchanged checks that parsing leaves the store byte for byte as
// it was, in both journal modes, and, in WAL mode, that a row still in the
// -wal is read.
func TestFileUnchanged(t *testing.T) {
	for _, journal := range []string{"DELETE", "WAL"} {
		t.Run(journal, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			buildStore(t, path, journal, fixtureRows[:2])
			// Keep a connection open with a committed row not yet
			// checkpointed, as the running tool would.
			tool, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer tool.Close()
			if journal == "WAL" {
				tool.Exec("PRAGMA wal_autocheckpoint=0")
			}
			insertRow(t, tool, storeRow{table: tableV2, key: "/tmp/w", id: "in-wal", file: corpus + "conversation-negative.json", created: 7, updated: 7})

			before := sqlitetest.Sum(t, path)
			var walBefore [32]byte
			if journal == "WAL" {
				walBefore = sqlitetest.Sum(t, path+"-wal")
			}
			res := parsertest.ParseValid(t, New(), path)
			if len(res.Conversations) != 3 {
				t.Errorf("%d conversations, want 3 (one only in the WAL)", len(res.Conversations))
			}
			if sqlitetest.Sum(t, path) != before {
				t.Error("the store changed while it was read")
			}
			if journal == "WAL" && sqlitetest.Sum(t, path+"-wal") != walBefore {
				t.Error("the -wal changed while it was read")
			}
		})
	}
}

// TestWALAtRest reads a WAL-mode store the tool has closed (no -wal, no
// -shm): nothing may be created beside it.
func TestWALAtRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	buildStore(t, path, "WAL", fixtureRows[:2])
	sqlitetest.ReadAtRest(t, path, func() {
		if res := parsertest.ParseValid(t, New(), path); len(res.Conversations) != 2 {
			t.Errorf("%d conversations, want 2", len(res.Conversations))
		}
	})
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("folder holds %q after the read, want the store alone", names)
	}
}

func TestFixtureUnchanged(t *testing.T) {
	sqlitetest.ReadAtRest(t, fixture, func() { parsertest.ParseValid(t, New(), fixture) })
}

func TestNotAStore(t *testing.T) {
	sqlitetest.NotAStore(t, New(), FileName)
	// A database without the tables: no conversations.
	path := filepath.Join(t.TempDir(), FileName)
	sqlitetest.Create(t, path, "DELETE", []string{`CREATE TABLE state (key TEXT PRIMARY KEY, value BLOB)`}, nil)
	if res := parsertest.ParseValid(t, New(), path); len(res.Conversations) != 0 || len(res.Warnings) != 0 {
		t.Errorf("no tables: %+v", res)
	}
}

func TestDetect(t *testing.T) {
	p := New()
	db := []byte("SQLite format 3\x00\x10\x00\x01\x01")
	tests := []struct {
		path string
		head []byte
		want bool
	}{
		{"/home/u/.local/share/amazon-q/data.sqlite3", db, true},
		{"data.sqlite3", db, true},
		{"/x/other.sqlite3", db, false},
		{"/x/data.sqlite3", []byte(`{"conversation_id":"x","history":[]}`), false},
		{"/x/data.sqlite3", []byte("SQLite format 3"), false},
		{"/x/data.sqlite3", nil, false},
	}
	for _, tt := range tests {
		if got := p.Detect(tt.path, tt.head); got != tt.want {
			t.Errorf("Detect(%s, %q) = %v, want %v", tt.path, tt.head, got, tt.want)
		}
	}
	// No other family's file, real or example, is claimed.
	parsertest.DetectTree(t, p, func(string) bool { return false }, "../../testdata/corpus", "../../examples")
}

func TestCompanions(t *testing.T) {
	got := New().Companions("/a/data.sqlite3")
	if len(got) != 1 || got[0] != "/a/data.sqlite3-wal" {
		t.Errorf("Companions = %q", got)
	}
}

func TestRoots(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		goos string
		home string
		env  map[string]string
		want []string
	}{
		{"linux", "/home/u", nil, []string{"/home/u/.local/share/amazon-q/data.sqlite3", "/home/u/.local/share/kiro-cli/data.sqlite3"}},
		{"linux", "/home/u", map[string]string{"XDG_DATA_HOME": "/data"}, []string{"/data/amazon-q/data.sqlite3", "/data/kiro-cli/data.sqlite3"}},
		{"freebsd", "/home/u", map[string]string{"XDG_DATA_HOME": "relative"}, []string{"/home/u/.local/share/amazon-q/data.sqlite3", "/home/u/.local/share/kiro-cli/data.sqlite3"}},
		{"darwin", "/Users/u", map[string]string{"XDG_DATA_HOME": "/ignored"}, []string{"/Users/u/Library/Application Support/amazon-q/data.sqlite3", "/Users/u/Library/Application Support/kiro-cli/data.sqlite3"}},
		{"windows", "/home/u", map[string]string{"LOCALAPPDATA": "/appdata"}, []string{"/appdata/amazon-q/data.sqlite3", "/appdata/kiro-cli/data.sqlite3"}},
		{"linux", "", nil, nil},
	}
	for _, tt := range tests {
		got := roots(tt.goos, tt.home, env(tt.env))
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("roots(%s, %s, %v) = %q, want %q", tt.goos, tt.home, tt.env, got, tt.want)
		}
	}
	if got := New().DefaultRoots("/h", env(nil)); len(got) != 2 {
		t.Errorf("DefaultRoots = %q", got)
	}
}

// TestPathNeedingEscapes: a store whose path needs escaping in the SQLite
// URI (see sqlitedb's TestDSN) really opens.
func TestPathNeedingEscapes(t *testing.T) {
	// A path that needs escaping really opens.
	dir := filepath.Join(t.TempDir(), "a b%c#d")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, FileName)
	buildStore(t, filepath.Join(dir, FileName), "DELETE", fixtureRows[:1])
	if res := parsertest.ParseValid(t, New(), path); len(res.Conversations) != 1 {
		t.Errorf("%d conversations from %s", len(res.Conversations), path)
	}
}

func TestCancelled(t *testing.T) {
	parsertest.CheckCancel(t, New(), fixture, nil) // read by path, not from the bytes
}

// FuzzDecodeRow fuzzes what the store adds to the qcli decoder: a row's
// value with its key and times.
func FuzzDecodeRow(f *testing.F) {
	for _, r := range fixtureRows {
		f.Add(r.key, r.id, r.valueBytes(f), r.created)
	}
	f.Fuzz(func(t *testing.T, key, id string, value []byte, created int64) {
		path := "/store/" + FileName
		r := row{table: tableV2, key: key, id: id, value: value, created: time.UnixMilli(created), updated: time.UnixMilli(created / 2)}
		c, warnings, err := decodeRow(context.Background(), path, r)
		for _, w := range append(warnings, err) {
			if w != nil && !strings.Contains(w.Error(), path) {
				t.Errorf("error does not name the store: %v", w)
			}
		}
		if err != nil {
			return
		}
		if c.ID == "" {
			t.Fatal("no id")
		}
		if c.Updated.Before(c.Date) {
			t.Errorf("updated %v before date %v", c.Updated, c.Date)
		}
		if err := parsertest.Invariants(&parsers.Result{Conversations: []*conversation.Conversation{c}}); err != nil {
			t.Error(err)
		}
	})
}
