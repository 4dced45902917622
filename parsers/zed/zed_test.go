package zed

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/internal/golden"

	"github.com/klauspost/compress/zstd"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
	"github.com/convsearch/convsearch/parsers/sqlitedb"
	"github.com/convsearch/convsearch/parsers/sqlitedb/sqlitetest"
)

// Zed's own sources are GPL and no thread store written by Zed could be
// found in a public repository under a permissive licence, so the thread
// JSON under testdata/threads/ was written from Zed's source
// (crates/agent/src/db.rs, thread.rs, legacy_thread.rs), one file per
// serialized version, and testdata/threads.db is built from
// testdata/rows.json by buildStore, compressing with zstd as Zed does.
//
// The counts and roles were derived from the JSON, not from the parser,
// in the rows' updated_at order (0.3.0: User or "Resume" u, Agent a then t
// when it has tool_results; before: a user message holding tool_results t,
// an assistant a then t when it holds them):
//
//	python3 -c '
//	import json
//	rows=json.load(open("testdata/rows.json"))
//	for r in sorted(rows,key=lambda r:(r["updated_at"],r["id"])):
//	  if "file" not in r: continue
//	  t=json.load(open("testdata/"+r["file"])); s=""
//	  for m in t["messages"]:
//	    if m=="Resume" or "User" in m: s+="u"
//	    elif "Agent" in m: s+="a"+("t" if m["Agent"].get("tool_results") else "")
//	    elif m["role"]=="assistant": s+="a"+("t" if m.get("tool_results") else "")
//	    elif m["role"]=="system": s+="s"
//	    else: s+="t" if m.get("tool_results") else "u"
//	  if s: print(r["id"],len(s),s)'
var cases = []parsertest.Case{{
	File:     fixture,
	ByPath:   true,
	Warnings: 2, // the cut zstd frame, the unknown data_type
	Want: []parsertest.Want{
		{ID: "0f0e0d0c-0b0a-4909-8807-060504030201", Title: "Regex for ISO dates", Messages: 2, Roles: "ua"},
		{ID: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d", Title: "List the migrations", Messages: 4, Roles: "uata"},
		{ID: "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", Title: "Postgres connection pool exhaustion", Messages: 6, Roles: "uataua"},
		{ID: "3a3b3c3d-3e3f-4a4b-8c4d-4e4f5a5b5c5d", Title: "Find every place the cache is constructed and report file and line.", Messages: 2, Roles: "ua"},
		{ID: "2f5e8c1a-6b7d-4c1e-9a3b-1d2e3f4a5b6c", Title: "Fix the flaky LRU eviction test", Messages: 9, Roles: "uatatuaua"},
	},
}}

const fixture = "testdata/" + FileName

func TestSuite(t *testing.T) {
	if golden.Updating() {
		os.Remove(fixture)
		buildStore(t, fixture, "DELETE", loadRows(t))
	}
	parsertest.Run(t, New(), cases)
}

// FuzzThread fuzzes the thread decoder, the part that reads what Zed wrote;
// the store around it is SQLite's. A store is a file Parse opens by path,
// which Fuzz cannot vary.
func FuzzThread(f *testing.F) {
	for _, r := range loadRows(f) {
		if r.File != "" {
			f.Add(parsertest.ReadFile(f, "testdata/"+r.File))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := decodeThread(data)
		if err != nil {
			return
		}
		c.ID = "x"
		finish(c)
		if err := parsertest.Invariants(&parsers.Result{Conversations: []*conversation.Conversation{c}}); err != nil {
			t.Error(err)
		}
	})
}

// FuzzParse runs the shared fuzz target over stores: arbitrary bytes in a
// threads.db must give an error naming the file or a valid result.
func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, storeParser{New()}, FileName, fixture)
}

// storeParser writes the fuzzer's bytes to the file it parses, since a
// store is read from its path.
type storeParser struct{ *Parser }

func (p storeParser) Parse(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return nil, err
	}
	return p.Parser.Parse(ctx, path, r)
}

// row is a row of testdata/rows.json.
type fixtureRow struct {
	ID          string `json:"id"`
	Summary     string `json:"summary"`
	UpdatedAt   string `json:"updated_at"`
	CreatedAt   string `json:"created_at"`
	DataType    string `json:"data_type"`
	File        string `json:"file"`
	Raw         string `json:"raw"` // base64 of bytes stored as they are
	ParentID    string `json:"parent_id"`
	FolderPaths string `json:"folder_paths"`
}

func loadRows(t testing.TB) []fixtureRow {
	t.Helper()
	var rows []fixtureRow
	if err := json.Unmarshal(parsertest.ReadFile(t, "testdata/rows.json"), &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

const schema = `CREATE TABLE threads (
	id TEXT PRIMARY KEY,
	summary TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	data_type TEXT NOT NULL,
	data BLOB NOT NULL,
	parent_id TEXT,
	folder_paths TEXT,
	folder_paths_order TEXT,
	created_at TEXT)`

// buildStore writes a store at path as Zed does: the thread JSON
// compressed with zstd at level 3 when data_type is zstd.
func buildStore(t testing.TB, path, journal string, rows []fixtureRow) {
	t.Helper()
	sqlitetest.Create(t, path, journal, []string{schema}, func(db *sql.DB) {
		for _, r := range rows {
			insertRow(t, db, r)
		}
	})
}

func insertRow(t testing.TB, db interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, r fixtureRow) {
	t.Helper()
	data := rowData(t, r)
	var created, parent, folders any
	if r.CreatedAt != "" {
		created = r.CreatedAt
	}
	if r.ParentID != "" {
		parent = r.ParentID
	}
	if r.FolderPaths != "" {
		folders = r.FolderPaths
	}
	if _, err := db.ExecContext(context.Background(), `INSERT INTO threads (id, parent_id, folder_paths, summary, updated_at, data_type, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, parent, folders, r.Summary, r.UpdatedAt, r.DataType, data, created); err != nil {
		t.Fatal(err)
	}
}

func rowData(t testing.TB, r fixtureRow) []byte {
	t.Helper()
	if r.File == "" {
		data, err := base64.StdEncoding.DecodeString(r.Raw)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	data := parsertest.ReadFile(t, "testdata/"+r.File)
	if r.DataType != "zstd" {
		return data
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(3)), zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(data, nil)
}

func byID(res *parsers.Result) map[string]*conversation.Conversation {
	m := map[string]*conversation.Conversation{}
	for _, c := range res.Conversations {
		m[c.ID] = c
	}
	return m
}

func TestAgentThread(t *testing.T) {
	res := parsertest.ParseValid(t, New(), fixture)
	c := byID(res)["2f5e8c1a-6b7d-4c1e-9a3b-1d2e3f4a5b6c"]
	if c.Model != "claude-sonnet-4-5" || c.Project != "cache" || strings.Join(c.Tags, "|") != "cwd:/home/ana/src/cache" {
		t.Errorf("model %q project %q tags %q", c.Model, c.Project, c.Tags)
	}
	if want := time.Date(2025, 11, 3, 10, 30, 12, 1e6, time.UTC); !c.Date.Equal(want) {
		t.Errorf("date %v, want created_at %v", c.Date, want)
	}
	if want := time.Date(2025, 11, 3, 10, 41, 7, 512e6, time.UTC); !c.Updated.Equal(want) {
		t.Errorf("updated %v, want %v", c.Updated, want)
	}
	m := c.Messages
	if m[0].Content != "TestEvictOldest fails now and then. Look at @/home/ana/src/cache/lru.go and tell me why." {
		t.Errorf("user content %q", m[0].Content)
	}
	if len(c.Notes) != 1 || c.Notes[0].Title != "/home/ana/src/cache/lru.go" || !strings.HasPrefix(c.Notes[0].Text, "package cache") {
		t.Errorf("notes %+v", c.Notes)
	}
	if !strings.HasPrefix(m[1].Thinking, "Eviction picks") || len(m[1].ToolCalls) != 1 || m[1].ToolCalls[0].Arguments != `{"path":"cache/lru_test.go"}` {
		t.Errorf("agent message %+v", m[1])
	}
	if r := m[2].ToolResults; len(r) != 1 || r[0].Name != "read_file" || !strings.HasPrefix(r[0].Content, "func TestEvictOldest") {
		t.Errorf("results %+v", r)
	}
	if r := m[4].ToolResults; len(r) != 2 || r[0].CallID != "toolu_01B" || r[1].Name != "terminal" || !r[1].IsError || !strings.Contains(r[1].Content, "exit code 1") {
		t.Errorf("results in order %+v", r)
	}
	if !m[5].Hidden || m[5].Content != resumeText {
		t.Errorf("resume %+v", m[5])
	}
	if a := m[7].Attachments; len(a) != 1 || a[0].Type != "image" || a[0].Size < 800 {
		t.Errorf("image %+v", a)
	}
	if m[8].Thinking != "[redacted thinking]" {
		t.Errorf("redacted thinking %q", m[8].Thinking)
	}
	if len(c.Summaries) != 1 || !strings.HasPrefix(c.Summaries[0], "Replaced map-order") {
		t.Errorf("summaries %q", c.Summaries)
	}
	sub := byID(res)["3a3b3c3d-3e3f-4a4b-8c4d-4e4f5a5b5c5d"]
	if !sub.Messages[0].Sidechain || len(sub.RelatedConversations) != 1 || sub.RelatedConversations[0] != c.ID {
		t.Errorf("sub-agent thread %+v", sub)
	}
}

func TestLegacyThreads(t *testing.T) {
	res := parsertest.ParseValid(t, New(), fixture)
	v2 := byID(res)["9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"]
	if v2.Model != "claude-3-7-sonnet-latest" || len(v2.Summaries) != 1 || len(v2.Notes) != 1 || !strings.Contains(v2.Notes[0].Text, "SetMaxOpenConns") {
		t.Errorf("0.2.0: model %q summaries %q notes %+v", v2.Model, v2.Summaries, v2.Notes)
	}
	if r := v2.Messages[2].ToolResults; len(r) != 1 || r[0].Name != "grep" || !strings.HasPrefix(r[0].Content, "Found 3 matches") {
		t.Errorf("0.2.0 results %+v", r)
	}
	if v2.Messages[5].Thinking != "[redacted thinking]" || v2.Messages[5].Content != "Glad it helped." {
		t.Errorf("0.2.0 last %+v", v2.Messages[5])
	}
	v1 := byID(res)["a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"]
	if m := v1.Messages[2]; m.Role != conversation.RoleTool || m.Content != "Here are the tool results." || len(m.ToolResults) != 1 || m.ToolResults[0].Name != "list-directory" {
		t.Errorf("0.1.0 result message %+v", m)
	}
	v0 := byID(res)["0f0e0d0c-0b0a-4909-8807-060504030201"]
	if !strings.HasPrefix(v0.Messages[1].Content, "`^\\d{4}") {
		t.Errorf("unversioned %q", v0.Messages[1].Content)
	}
	// No created_at column value: updated_at stands in.
	if want := time.Date(2025, 1, 20, 12, 0, 0, 0, time.UTC); !v0.Date.Equal(want) {
		t.Errorf("date %v", v0.Date)
	}
	for _, w := range res.Warnings {
		if !strings.Contains(w.Error(), fixture) || !strings.Contains(w.Error(), "thread ") {
			t.Errorf("warning %v", w)
		}
	}
	if !errors.Is(res.Warnings[0], parsers.ErrSyntax) || !errors.Is(res.Warnings[1], parsers.ErrShape) {
		t.Errorf("warnings %v", res.Warnings)
	}
}

// TestWriterHoldsTransaction parses while Zed holds an open write
// transaction: the parse neither waits nor fails, sees the committed
// threads, changes no byte, and Zed can still commit.
func TestWriterHoldsTransaction(t *testing.T) {
	rows := loadRows(t)
	for _, journal := range []string{"DELETE", "WAL"} {
		t.Run(journal, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			buildStore(t, path, journal, rows[:2])
			w := sqlitetest.Begin(t, path, "IMMEDIATE")
			insertRow(t, w.Conn(), rows[2])
			w.Read(t, func() {
				if n := len(parsertest.ParseValid(t, New(), path).Conversations); n != 2 {
					t.Errorf("%d threads while the writer is open, want the 2 committed", n)
				}
			})
			w.Commit(t)
			if n := len(parsertest.ParseValid(t, New(), path).Conversations); n != 3 {
				t.Errorf("%d threads after the commit, want 3", n)
			}
		})
	}
}

// TestWALAtRest reads a WAL store Zed has closed: nothing may be created
// beside it.
func TestWALAtRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	buildStore(t, path, "WAL", loadRows(t)[:2])
	sqlitetest.ReadAtRest(t, path, func() {
		if n := len(parsertest.ParseValid(t, New(), path).Conversations); n != 2 {
			t.Errorf("%d threads", n)
		}
	})
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("%d files beside the read store, want the store alone", len(entries))
	}
}

func TestFixtureUnchanged(t *testing.T) {
	sqlitetest.ReadAtRest(t, fixture, func() { parsertest.ParseValid(t, New(), fixture) })
}

func TestNotAStore(t *testing.T) {
	sqlitetest.NotAStore(t, New(), FileName)
	other := filepath.Join(t.TempDir(), FileName)
	sqlitetest.Create(t, other, "DELETE", []string{`CREATE TABLE notes (id TEXT)`}, nil)
	if _, err := New().Parse(context.Background(), other, nil); err == nil || !strings.Contains(err.Error(), other) {
		t.Errorf("a database without the tables: error %v, want one naming the file", err)
	}
}

func TestCancelled(t *testing.T) {
	parsertest.CheckCancel(t, New(), fixture, nil) // read by path, not from the bytes
}

func TestDetect(t *testing.T) {
	p := New()
	db := []byte(sqlitedb.Magic + "\x10\x00")
	tests := []struct {
		path string
		head []byte
		want bool
	}{
		{"/home/u/.local/share/zed/threads/threads.db", db, true},
		{"/Users/u/Library/Application Support/Zed/threads/threads.db", db, true},
		{"/x/threads/threads.db", db, false},
		{"/x/threads/threads.db", append(db, []byte("CREATE TABLE threads (data_type TEXT)")...), true},
		{"/home/u/.local/share/zed/threads/threads.db", []byte(`{"a":1}`), false},
		{"/home/u/.local/share/zed/threads/other.db", db, false},
	}
	for _, tt := range tests {
		if got := p.Detect(tt.path, tt.head); got != tt.want {
			t.Errorf("Detect(%s) = %v, want %v", tt.path, got, tt.want)
		}
	}
	parsertest.DetectTree(t, p, func(string) bool { return false }, "../../testdata/corpus", "../../examples")
}

func TestRoots(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		goos, home string
		env        map[string]string
		want       string
	}{
		{"linux", "/home/u", nil, "/home/u/.local/share/zed/threads/threads.db"},
		{"linux", "/home/u", map[string]string{"XDG_DATA_HOME": "/d"}, "/d/zed/threads/threads.db"},
		{"linux", "/home/u", map[string]string{"XDG_DATA_HOME": "rel"}, "/home/u/.local/share/zed/threads/threads.db"},
		{"linux", "/home/u", map[string]string{"FLATPAK_XDG_DATA_HOME": "/f", "XDG_DATA_HOME": "/d"}, "/f/zed/threads/threads.db"},
		{"darwin", "/Users/u", nil, "/Users/u/Library/Application Support/Zed/threads/threads.db"},
		{"windows", "/h", map[string]string{"LOCALAPPDATA": "/l"}, "/l/Zed/threads/threads.db"},
		{"linux", "", nil, ""},
	}
	for _, tt := range tests {
		if got := strings.Join(roots(tt.goos, tt.home, env(tt.env)), "|"); got != tt.want {
			t.Errorf("roots(%s, %s, %v) = %q, want %q", tt.goos, tt.home, tt.env, got, tt.want)
		}
	}
}

// TestProject: the project is the first folder's last element, for a
// folder of Windows as of Unix, wherever the store is read.
func TestProject(t *testing.T) {
	data := []byte(`{"version":"0.3.0","messages":[{"User":{"id":"u1","content":[{"Text":"hi"}]}}]}`)
	for folders, want := range map[string]string{
		"/home/ana/src/cache\n/home/ana/src/other": "cache",
		`C:\src\cache`: "cache",
		"/":            "",
	} {
		c, err := decodeRow("/z/threads.db", &row{id: "t1", dataType: "json", data: data, folderPaths: folders}, nil)
		if err != nil || c == nil {
			t.Fatalf("%q: %v %v", folders, c, err)
		}
		if c.Project != want {
			t.Errorf("folder_paths %q: project %q, want %q", folders, c.Project, want)
		}
	}
}
