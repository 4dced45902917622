package opencode

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
	"github.com/convsearch/convsearch/parsers/sqlitedb/sqlitetest"
)

// No OpenCode storage written by the tool is committed under a permissive
// licence anywhere we could find, so testdata/storage was written from
// sst/opencode's source (session/index.ts Session.Info, message-v2.ts
// MessageV2.Info and Part, storage/storage.ts paths; session.sql.ts for the
// store's tables).
const (
	project = "testdata/storage/session/4b0ea68d7af9a6031a7ffda7ad66e0cb83315750/"
	s1      = project + "ses_6c1f2a3b4ffeAbCdEfGhIjKl01.json"
	s2      = project + "ses_6c1f2a3b5ffeAbCdEfGhIjKl02.json"
	s3      = project + "ses_6c1f2a3b6ffeAbCdEfGhIjKl03.json"
)

// The counts and roles below were derived from the files, not from the
// parser, with this script (one message per message file, by role):
//
//	python3 -c '
//	import json,os
//	st="testdata/storage"
//	for root,_,fs in sorted(os.walk(st+"/session")):
//	  for f in sorted(fs):
//	    sid=f[:-5]; d=st+"/message/"+sid
//	    ms=sorted(os.listdir(d)) if os.path.isdir(d) else []
//	    r="".join(json.load(open(d+"/"+m))["role"][0] for m in ms)
//	    print(sid,len(r),r)'
var want = []parsertest.Want{
	// One part file is cut short: a warning.
	{ID: "ses_6c1f2a3b4ffeAbCdEfGhIjKl01", Title: "Fix flaky retry test", Messages: 5, Roles: "uaaua"},
	// A sub-agent's session with OpenCode's placeholder title.
	{ID: "ses_6c1f2a3b5ffeAbCdEfGhIjKl02", Title: "Search the repository for other callers of backoff().", Messages: 2, Roles: "ua"},
	// A session opened and left.
	{ID: "ses_6c1f2a3b6ffeAbCdEfGhIjKl03", Title: "New session - 2025-09-02T09:00:00.000Z", Messages: 0},
}

var cases = []parsertest.Case{
	{File: s1, Golden: "s1.json", Want: want[:1], Warnings: 1},
	{File: s2, Golden: "s2.json", Want: want[1:2]},
	{File: s3, Golden: "s3.json", Want: want[2:]},
}

func TestFiles(t *testing.T) {
	parsertest.Run(t, New(), cases)
}

func TestStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), DBName)
	buildStore(t, db, "WAL")
	// The store holds the broken part too; a bad data column is skipped
	// without a warning (the row is OpenCode's, not a file to point at).
	parsertest.Run(t, New(), []parsertest.Case{{File: db, Golden: "store.json", Want: want}})
}

func TestSession(t *testing.T) {
	c := parsertest.ParseOne(t, New(), s1)
	if c.Project != "retry" || c.Model != "claude-sonnet-4-20250514" || c.Date.UnixMilli() != 1756800000000 || c.Updated.UnixMilli() != 1756800300000 {
		t.Errorf("project %q, model %q, date %v, updated %v", c.Project, c.Model, c.Date, c.Updated)
	}
	m := c.Messages
	if m[0].Content != "The retry test fails one run in ten. Find out why." || len(m[0].Attachments) != 1 ||
		m[0].Attachments[0] != (conversation.Attachment{Name: "ci.png", Type: "image/png", Size: 1080}) {
		t.Errorf("prompt %+v", m[0])
	}
	if m[1].Thinking == "" || m[1].Content != "Let me read the test." || len(m[1].ToolCalls) != 1 ||
		m[1].ToolCalls[0].Arguments != `{"filePath":"/home/kim/src/retry/retry_test.go"}` ||
		len(m[1].ToolResults) != 1 || !strings.Contains(m[1].ToolResults[0].Content, "func TestRetry") {
		t.Errorf("reply with a tool %+v", m[1])
	}
	if r := m[2].ToolResults; len(r) != 2 || !r[1].IsError || r[1].Content != "exit status 1" || r[1].Name != "bash" {
		t.Errorf("failed tool %+v", r)
	}
	if !strings.HasSuffix(m[2].Content, "text of a part kind to come") {
		t.Errorf("unknown part %q", m[2].Content)
	}
	if m[4].Content != "MessageAbortedError: The operation was aborted." {
		t.Errorf("aborted reply %q", m[4].Content)
	}
	if len(c.Notes) != 1 || c.Notes[0].Text != "/home/kim/src/retry/retry.go" {
		t.Errorf("notes %+v", c.Notes)
	}
	child := parsertest.ParseOne(t, New(), s2)
	if !child.Messages[0].Sidechain || len(child.RelatedConversations) != 1 || child.RelatedConversations[0] != c.ID {
		t.Errorf("child session %+v", child)
	}
}

func TestCompanions(t *testing.T) {
	got := New().Companions(s1)
	if len(got) != 5+15 {
		t.Errorf("%d companions, want 5 messages and 15 parts: %q", len(got), got)
	}
	if got[0] != "testdata/storage/message/ses_6c1f2a3b4ffeAbCdEfGhIjKl01/msg_a001.json" || got[1] != "testdata/storage/part/msg_a001/prt_a001a.json" {
		t.Errorf("companions start %q", got[:2])
	}
	if got := New().Companions("/d/" + DBName); len(got) != 1 || got[0] != "/d/opencode.db-wal" {
		t.Errorf("store companions %q", got)
	}
}

// schema is OpenCode's (session.sql.ts, project.sql.ts), trimmed of the
// columns the parser does not read.
var schema = []string{
	`CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL)`,
	`CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL, directory TEXT NOT NULL,
		title TEXT NOT NULL, version TEXT NOT NULL, share_url TEXT, summary_additions INTEGER, time_created INTEGER NOT NULL,
		time_updated INTEGER NOT NULL, time_compacting INTEGER, time_archived INTEGER)`,
	`CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)`,
	`CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL)`,
}

// buildStore writes a store at path holding the JSON fixtures, the way
// OpenCode's migration copies them: ids and times in columns, the rest of
// each record in data.
func buildStore(t testing.TB, path, journal string) {
	t.Helper()
	sqlitetest.Create(t, path, journal, schema, func(db *sql.DB) { fillStore(t, db) })
}

// fillStore copies the JSON fixtures into db's tables.
func fillStore(t testing.TB, db *sql.DB) {
	t.Helper()
	exec := func(q string, args ...any) {
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	files := func(glob string) []string {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	for _, f := range files(project + "*.json") {
		var s struct {
			ID, ProjectID, Directory, ParentID, Title, Version string
			Time                                               struct{ Created, Updated int64 }
		}
		decode(t, f, &s)
		var parent any
		if s.ParentID != "" {
			parent = s.ParentID
		}
		exec(`INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?,?,?,?,?,?,?,?,?)`,
			s.ID, s.ProjectID, parent, "slug", s.Directory, s.Title, s.Version, s.Time.Created, s.Time.Updated)
		for _, mf := range files("testdata/storage/message/" + s.ID + "/*.json") {
			var m map[string]any
			decode(t, mf, &m)
			id := m["id"].(string)
			created := int64(m["time"].(map[string]any)["created"].(float64))
			delete(m, "id")
			delete(m, "sessionID")
			exec(`INSERT INTO message VALUES (?,?,?,?,?)`, id, s.ID, created, created, jsonText(t, m))
			for _, pf := range files("testdata/storage/part/" + id + "/*.json") {
				data, err := os.ReadFile(pf)
				if err != nil {
					t.Fatal(err)
				}
				pid := strings.TrimSuffix(filepath.Base(pf), ".json")
				exec(`INSERT INTO part VALUES (?,?,?,?,?,?)`, pid, id, s.ID, created, created, string(data))
			}
		}
	}
}

func decode(t testing.TB, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func jsonText(t testing.TB, v any) string {
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestWriterHoldsTransaction: OpenCode writing (a write transaction held
// open on another connection) neither fails the parse nor changes a byte of
// the store, in either journal mode.
func TestWriterHoldsTransaction(t *testing.T) {
	for _, journal := range []string{"WAL", "DELETE"} {
		t.Run(journal, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), DBName)
			buildStore(t, path, journal)
			before := sqlitetest.Sum(t, path)
			w := sqlitetest.Begin(t, path, "IMMEDIATE")
			w.Exec(t, `UPDATE session SET title = 'renamed' WHERE id = 'ses_6c1f2a3b4ffeAbCdEfGhIjKl01'`)
			w.Read(t, func() {
				res, err := New().Parse(context.Background(), path, nil)
				if err != nil {
					t.Fatalf("parse during a write: %v", err)
				}
				if len(res.Conversations) != 3 || res.Conversations[0].Title != "Fix flaky retry test" {
					t.Errorf("read uncommitted state: %d conversations, title %q", len(res.Conversations), res.Conversations[0].Title)
				}
			})
			w.Exec(t, "ROLLBACK")
			if after := sqlitetest.Sum(t, path); after != before {
				t.Error("the store changed")
			}
		})
	}
}

// TestStoreUntouched: a quiet WAL store is read without creating its
// -wal or -shm, and without changing it.
func TestStoreUntouched(t *testing.T) {
	path := filepath.Join(t.TempDir(), DBName)
	buildStore(t, path, "WAL")
	sqlitetest.ReadAtRest(t, path, func() {
		if _, err := New().Parse(context.Background(), path, nil); err != nil {
			t.Fatal(err)
		}
	})
}

func TestNotAStore(t *testing.T) {
	sqlitetest.NotAStore(t, New(), DBName)
	// Shorter than a database page.
	dir := t.TempDir()
	junk := filepath.Join(dir, DBName)
	if err := os.WriteFile(junk, []byte("SQLite format 3\x00 and then garbage, not a database page"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := New().Parse(context.Background(), junk, nil)
	if err == nil || !strings.Contains(err.Error(), junk) {
		t.Errorf("garbage store: %v", err)
	}
	empty := filepath.Join(t.TempDir(), DBName)
	sqlitetest.Create(t, empty, "DELETE", []string{`CREATE TABLE other (x)`}, nil)
	if _, err := New().Parse(context.Background(), empty, nil); !parsertest.CheckError(t, err, empty, 0, parsers.ErrShape) {
		t.Error("a database without OpenCode's tables")
	}
}

func TestErrors(t *testing.T) {
	for _, tt := range []struct {
		data string
		kind error
		line int
	}{
		{"", parsers.ErrSyntax, 0},
		{`{"id": "ses_x", "time": {`, parsers.ErrSyntax, 1},
		{`[1]`, parsers.ErrShape, 1},
	} {
		_, err := New().Parse(context.Background(), "/s/p/ses_x.json", strings.NewReader(tt.data))
		parsertest.CheckError(t, err, "/s/p/ses_x.json", tt.line, tt.kind)
	}
}

func TestCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), DBName)
	buildStore(t, path, "DELETE")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New().Parse(ctx, path, nil); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("cancelled store read: %v", err)
	}
	parsertest.CheckCancel(t, New(), path, nil) // and the error is context.Canceled
	parsertest.CheckCancel(t, New(), s1, mustRead(t, s1))
}

func mustRead(t testing.TB, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestRoots(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	got := roots("linux", "/home/u", getenv)
	if strings.Join(got, "|") != "/home/u/.local/share/opencode/storage/session|/home/u/.local/share/opencode/opencode.db" {
		t.Errorf("roots %q", got)
	}
	if got := roots("darwin", "/Users/u", getenv); got[1] != "/Users/u/.local/share/opencode/opencode.db" {
		t.Errorf("macOS roots %q", got)
	}
	if got := roots("windows", "/home/u", getenv); got[1] != "/home/u/.local/share/opencode/opencode.db" {
		t.Errorf("Windows roots %q", got)
	}
	env["XDG_DATA_HOME"] = "/xdg"
	if got := roots("linux", "/home/u", getenv); got[0] != "/xdg/opencode/storage/session" {
		t.Errorf("roots with XDG_DATA_HOME %q", got)
	}
	env["XDG_DATA_HOME"] = "relative"
	if got := roots("linux", "/home/u", getenv); got[0] != "/home/u/.local/share/opencode/storage/session" {
		t.Errorf("a relative XDG_DATA_HOME must be ignored: %q", got)
	}
}

func TestDetect(t *testing.T) {
	sess := `{"id":"ses_1","version":"0.15.8","projectID":"p","directory":"/x","title":"t","time":{"created":1,"updated":2}}`
	tests := []struct {
		name, path, head string
		want             bool
	}{
		{"session", "/d/storage/session/p/ses_1.json", sess, true},
		{"oldest layout", "/d/storage/session/info/ses_1.json", sess, true},
		{"message file", "/d/storage/message/ses_1/msg_1.json", `{"id":"msg_1","sessionID":"ses_1","role":"user","time":{"created":1}}`, false},
		{"part file", "/d/storage/part/msg_1/prt_1.json", `{"id":"prt_1","type":"text","text":"x","time":{}}`, false},
		{"not below session", "/d/ses_1.json", sess, false},
		{"store", "/d/" + DBName, "SQLite format 3\x00", true},
		{"other database", "/d/other.db", "SQLite format 3\x00", false},
		{"store name, not a database", "/d/" + DBName, "hello", false},
		{"session without keys", "/d/storage/session/p/ses_1.json", `{"id":"x"}`, false},
	}
	for _, tt := range tests {
		if got := New().Detect(tt.path, []byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect(%s) = %v, want %v", tt.name, tt.path, got, tt.want)
		}
	}
}

// TestDetectTree runs Detect over every real file and example of every
// family: only OpenCode's session files may be claimed.
func TestDetectTree(t *testing.T) {
	claimed := parsertest.DetectTree(t, New(), func(path string) bool {
		return strings.Contains(filepath.ToSlash(path), "storage/session/")
	}, "../../testdata/corpus", "../../examples", "testdata")
	if claimed != 3 {
		t.Errorf("claimed %d files, want 3", claimed)
	}
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), "ses_fuzz.json", s1, s2, s3)
}
