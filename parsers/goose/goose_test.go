package goose

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
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
	"github.com/convsearch/convsearch/parsers/sqlitedb"
	"github.com/convsearch/convsearch/parsers/sqlitedb/sqlitetest"
)

// No session file or store written by goose itself could be found in a
// public repository under a permissive licence: the fixtures below were
// written from goose's Rust source (crates/goose/src/session/storage.rs,
// legacy.rs, session_manager.rs, conversation/message.rs,
// tool_result_serde.rs), and the store is built from testdata/store.json
// with goose's schema.
//
// The counts and roles were derived from the files, not from the parser:
//
//	python3 -c '
//	import json,sys
//	for f in sys.argv[1:]:
//	  r=""
//	  for l in open(f):
//	    try: o=json.loads(l)
//	    except ValueError: continue
//	    if o.get("role") not in ("user","assistant"): continue
//	    c=o.get("content") or []
//	    if o["role"]=="assistant": r+="a"
//	    else: r+="t" if c and all(b.get("type")=="toolResponse" for b in c) else "u"
//	  print(f,len(r),r)' testdata/*.jsonl
//
// and for the store, the same per session of store.json in sessions order
// then orphan session ids, skipping rows whose content_json is not JSON:
//
//	python3 -c '
//	import json
//	d=json.load(open("testdata/store.json"))
//	order=[s["id"] for s in d["sessions"]]
//	order+=[m["session_id"] for m in d["messages"] if m["session_id"] not in order]
//	for sid in dict.fromkeys(order):
//	  r=""
//	  for m in d["messages"]:
//	    if m["session_id"]!=sid: continue
//	    try: c=json.loads(m["content_json"])
//	    except ValueError: continue
//	    r+="a" if m["role"]=="assistant" else ("t" if c and all(b.get("type")=="toolResponse" for b in c) else "u")
//	  if r: print(sid,len(r),r)'
var cases = []parsertest.Case{
	{
		File: "testdata/20250612_143015.jsonl",
		Want: []parsertest.Want{{
			ID:       "20250612_143015",
			Title:    "Fix flaky invoice rounding test",
			Messages: 8,
			Roles:    "uatataua",
		}},
	},
	{
		// A cut line, a line that is no message, a role goose does not
		// write: three warnings, every other line read.
		File:     "testdata/quirks.jsonl",
		Warnings: 3,
		Want: []parsertest.Want{{
			ID:       "quirks",
			Title:    "Here is a screenshot of the broken header.",
			Messages: 11,
			Roles:    "uatatatuaau",
		}},
	},
	{
		// Metadata and no message: no conversation.
		File: "testdata/empty.jsonl",
	},
	{
		File:     storeFixture,
		ByPath:   true,
		Warnings: 1, // the cut content_json
		Want: []parsertest.Want{
			{ID: "20251020_1", Title: "Add retry to webhook sender", Messages: 4, Roles: "uata"},
			{ID: "20251020_2", Title: "Subagent: find webhook callers", Messages: 2, Roles: "ua"},
			{ID: "20251021_2", Title: "Write the daily report for yesterday's orders.", Messages: 2, Roles: "ua"},
			{ID: "20251019_7", Title: "What does the ERR_SSL_VERSION_OR_CIPHER_MISMATCH error mean?", Messages: 1, Roles: "u"},
		},
	},
}

const storeFixture = "testdata/" + StoreName

func TestSuite(t *testing.T) {
	if golden.Updating() {
		// Rebuilt with the goldens, in rollback-journal mode so reading it
		// leaves nothing beside it.
		os.Remove(storeFixture)
		buildStore(t, storeFixture, "DELETE", schemaLatest, loadStore(t))
	}
	parsertest.Run(t, New(), cases)
}

func FuzzParse(f *testing.F) {
	// quirks.jsonl less its 150 KB tool output: the fuzzer crawls over
	// large inputs.
	var small [][]byte
	for _, line := range bytes.SplitAfter(parsertest.ReadFile(f, "testdata/quirks.jsonl"), []byte("\n")) {
		if len(line) < 4096 {
			small = append(small, line)
		}
	}
	f.Add(bytes.Join(small, nil))
	parsertest.Fuzz(f, New(), "20250101_000000.jsonl", "testdata/20250612_143015.jsonl", "testdata/empty.jsonl")
}

// storeData is testdata/store.json: rows for the two tables.
type storeData struct {
	Sessions []map[string]any `json:"sessions"`
	Messages []map[string]any `json:"messages"`
}

func loadStore(t testing.TB) storeData {
	t.Helper()
	var d storeData
	if err := json.Unmarshal(parsertest.ReadFile(t, "testdata/store.json"), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// Schemas of goose's store: the first (no name, session_type, metadata or
// message ids) and the one of goose 1.2x.
var (
	schemaFirst = []string{
		`CREATE TABLE sessions (id TEXT PRIMARY KEY, description TEXT NOT NULL DEFAULT '', working_dir TEXT NOT NULL,
			created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
			extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER,
			accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER,
			schedule_id TEXT, recipe_json TEXT)`,
		`CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
			role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL,
			timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER)`,
	}
	schemaLatest = []string{
		`CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP)`,
		`INSERT INTO schema_version (version) VALUES (13)`,
		`CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '',
			user_set_name BOOLEAN DEFAULT FALSE, session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL,
			created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
			extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER,
			accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER,
			schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT, provider_name TEXT, model_config_json TEXT,
			goose_mode TEXT NOT NULL DEFAULT 'auto', thread_id TEXT, archived_at TIMESTAMP, project_id TEXT, accumulated_cost REAL)`,
		`CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
			role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL,
			timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT, message_id TEXT)`,
		`CREATE INDEX idx_messages_session ON messages(session_id)`,
		`CREATE TABLE threads (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT 'New Chat', user_set_name BOOLEAN DEFAULT FALSE,
			working_dir TEXT, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
			archived_at TIMESTAMP, metadata_json TEXT DEFAULT '{}')`,
	}
)

// buildStore writes a store at path with schema, in the given journal mode,
// holding d's rows (columns the schema lacks are left out).
func buildStore(t testing.TB, path, journal string, schema []string, d storeData) {
	t.Helper()
	sqlitetest.Create(t, path, journal, schema, func(db *sql.DB) {
		for _, s := range d.Sessions {
			insert(t, db, "sessions", s)
		}
		for _, m := range d.Messages {
			insert(t, db, "messages", m)
		}
	})
}

type execer interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}

// insert adds row to table, keeping only the columns the table has.
func insert(t testing.TB, db execer, table string, row map[string]any) {
	t.Helper()
	ctx := context.Background()
	rs, err := db.QueryContext(ctx, "SELECT name FROM pragma_table_info(?)", table)
	if err != nil {
		t.Fatal(err)
	}
	has := map[string]bool{}
	for rs.Next() {
		var n string
		rs.Scan(&n)
		has[n] = true
	}
	rs.Close()
	var cols, marks []string
	var args []any
	for k, v := range row {
		if !has[k] {
			continue
		}
		cols = append(cols, k)
		marks = append(marks, "?")
		args = append(args, v)
	}
	if _, err := db.ExecContext(ctx, "INSERT INTO "+table+" ("+strings.Join(cols, ", ")+") VALUES ("+strings.Join(marks, ", ")+")", args...); err != nil {
		t.Fatal(err)
	}
}

func TestJSONLFields(t *testing.T) {
	c := parsertest.ParseOne(t, New(), "testdata/20250612_143015.jsonl")
	if c.Project != "billing-api" || c.Source != Name {
		t.Errorf("project %q source %q", c.Project, c.Source)
	}
	if want := time.Unix(1749738615, 0).UTC(); !c.Date.Equal(want) {
		t.Errorf("date %v, want %v", c.Date, want)
	}
	if want := time.Unix(1749738760, 0).UTC(); !c.Updated.Equal(want) {
		t.Errorf("updated %v, want %v", c.Updated, want)
	}
	m := c.Messages
	if len(m[1].ToolCalls) != 1 || m[1].ToolCalls[0].Name != "developer__shell" || !strings.Contains(m[1].ToolCalls[0].Arguments, `"command":"cd /home/lena`) {
		t.Errorf("tool call %+v", m[1].ToolCalls)
	}
	// A legacy result (a bare content array) and a CallToolResult.
	if r := m[2].ToolResults; len(r) != 1 || r[0].Name != "developer__shell" || r[0].CallID != "toolu_01Xv8s2" || !strings.Contains(r[0].Content, "want 100.00") {
		t.Errorf("legacy result %+v", r)
	}
	if r := m[4].ToolResults; len(r) != 1 || r[0].Name != "developer__text_editor" || !strings.HasPrefix(r[0].Content, "package invoice") {
		t.Errorf("result %+v", r)
	}
	if !strings.HasPrefix(m[3].Thinking, "The failure is intermittent") || m[3].Content != "The failure depends on order. I'll read the totals code." {
		t.Errorf("thinking %q content %q", m[3].Thinking, m[3].Content)
	}
	if m[0].ID != "msg_01" {
		t.Errorf("message id %q", m[0].ID)
	}
}

func TestQuirks(t *testing.T) {
	res := parsertest.ParseFile(t, New(), "testdata/quirks.jsonl")
	for i, line := range []int{4, 6, 15} {
		parsertest.CheckError(t, res.Warnings[i], "testdata/quirks.jsonl", line, []error{parsers.ErrSyntax, parsers.ErrShape, parsers.ErrShape}[i])
	}
	c := res.Conversations[0]
	m := c.Messages
	if a := m[0].Attachments; len(a) != 1 || a[0].Type != "image/png" || a[0].Size < 800 {
		t.Errorf("image attachment %+v", a)
	}
	if m[1].Thinking != "[redacted thinking]" || len(m[1].ToolCalls) != 1 || m[1].ToolCalls[0].Name != "browser__screenshot" {
		t.Errorf("message 1 %+v", m[1])
	}
	if r := m[2].ToolResults; len(r) != 1 || r[0].Content != "[image/png]\nscreenshot taken" {
		t.Errorf("image result %+v", r)
	}
	if tc := m[3].ToolCalls; len(tc) != 1 || tc[0].Name != "invalid" || !strings.Contains(tc[0].Arguments, "EOF while parsing") {
		t.Errorf("invalid call %+v", tc)
	}
	if r := m[4].ToolResults; len(r) != 1 || !r[0].IsError || r[0].Name != "invalid" {
		t.Errorf("error result %+v", r)
	}
	if r := m[6].ToolResults; len(r) != 1 || len(r[0].Content) < 100000 || r[0].Name != "developer__shell" {
		t.Errorf("huge result kept whole: %d bytes", len(r[0].Content))
	}
	if !m[7].Hidden || m[7].Role != conversation.RoleUser || !strings.HasPrefix(m[7].Content, "Here is a summary") {
		t.Errorf("agent-only summary %+v", m[7])
	}
	if m[8].Hidden || !strings.Contains(m[8].Content, "Conversation compacted") || !strings.Contains(m[8].Content, "Context limit reached") {
		t.Errorf("notifications %+v", m[8])
	}
	if !strings.HasPrefix(m[9].Content, "The header has") {
		t.Errorf("unknown block type spoiled the message: %q", m[9].Content)
	}
	if m[10].Role != conversation.RoleUser || m[10].Content != "" {
		t.Errorf("empty message %+v", m[10])
	}
	if c.Project != "site" || strings.Join(c.Tags, "|") != "cwd:/Users/sam/work/site|schedule:nightly-deps" {
		t.Errorf("project %q tags %q", c.Project, c.Tags)
	}
}

func TestStoreFields(t *testing.T) {
	path := filepath.Join(t.TempDir(), StoreName)
	buildStore(t, path, "WAL", schemaLatest, loadStore(t))
	res := parsertest.ParseValid(t, New(), path)
	if len(res.Conversations) != 4 || len(res.Warnings) != 1 {
		t.Fatalf("%d conversations, %d warnings: %v", len(res.Conversations), len(res.Warnings), res.Warnings)
	}
	if w := res.Warnings[0]; !strings.Contains(w.Error(), path) || !strings.Contains(w.Error(), `session "20251021_2"`) || !errors.Is(w, parsers.ErrShape) {
		t.Errorf("warning %v", w)
	}
	c := res.Conversations[0]
	if c.Model != "claude-sonnet-4-5" || c.Project != "hooks" {
		t.Errorf("model %q project %q", c.Model, c.Project)
	}
	if want := time.Date(2025, 10, 20, 9, 12, 4, 0, time.UTC); !c.Date.Equal(want) {
		t.Errorf("date %v, want created_at %v", c.Date, want)
	}
	if want := time.Date(2025, 10, 20, 9, 20, 51, 0, time.UTC); !c.Updated.Equal(want) {
		t.Errorf("updated %v, want updated_at %v", c.Updated, want)
	}
	if c.Messages[0].ID != "msg_20251020_1_1" || c.Messages[2].ToolResults[0].Name != "developer__text_editor" {
		t.Errorf("messages %+v", c.Messages[:3])
	}
	sub := res.Conversations[1]
	if !sub.Messages[0].Sidechain || !sub.Messages[0].Hidden || !strings.Contains(strings.Join(sub.Tags, " "), "session_type:sub_agent") {
		t.Errorf("sub-agent session %+v", sub)
	}
	if tags := strings.Join(res.Conversations[2].Tags, " "); !strings.Contains(tags, "session_type:scheduled") {
		t.Errorf("scheduled tags %q", tags)
	}
}

// TestFirstSchema reads a store of goose's first schema: no name,
// session_type, metadata_json or message_id columns.
func TestFirstSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), StoreName)
	d := loadStore(t)
	for _, s := range d.Sessions {
		s["description"] = s["name"]
	}
	buildStore(t, path, "DELETE", schemaFirst, d)
	res := parsertest.ParseValid(t, New(), path)
	if len(res.Conversations) != 4 {
		t.Fatalf("%d conversations", len(res.Conversations))
	}
	c := res.Conversations[0]
	if c.Title != "Add retry to webhook sender" || c.Messages[0].ID != "" || len(c.Messages) != 4 {
		t.Errorf("title %q, %d messages, first id %q", c.Title, len(c.Messages), c.Messages[0].ID)
	}
	// Without metadata_json nothing is hidden.
	if res.Conversations[1].Messages[0].Hidden {
		t.Error("message hidden without metadata")
	}
}

// TestWriterHoldsTransaction parses while goose holds an open write
// transaction: the parse neither waits nor fails, sees the committed rows,
// changes no byte, and the writer can still commit.
func TestWriterHoldsTransaction(t *testing.T) {
	for _, journal := range []string{"DELETE", "WAL"} {
		t.Run(journal, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), StoreName)
			buildStore(t, path, journal, schemaLatest, loadStore(t))

			w := sqlitetest.Begin(t, path, "IMMEDIATE")
			insert(t, w.Conn(), "messages", map[string]any{"session_id": "20251020_1", "role": "user",
				"content_json": `[{"type":"text","text":"uncommitted"}]`, "created_timestamp": 1760960000})

			w.Read(t, func() {
				if n := len(parsertest.ParseValid(t, New(), path).Conversations[0].Messages); n != 4 {
					t.Errorf("%d messages while the writer is open, want the 4 committed", n)
				}
			})
			w.Commit(t)
			if n := len(parsertest.ParseValid(t, New(), path).Conversations[0].Messages); n != 5 {
				t.Errorf("%d messages after the commit, want 5", n)
			}
		})
	}
}

// TestExclusiveLock parses a store goose holds exclusively (a commit in
// rollback-journal mode): the parse fails with an error naming the file,
// for the ingester to retry, and the store is left as it was.
func TestExclusiveLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), StoreName)
	buildStore(t, path, "DELETE", schemaLatest, loadStore(t))
	sqlitetest.Begin(t, path, "EXCLUSIVE") // rolled back when the test ends
	before := sqlitetest.Sum(t, path)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := New().Parse(ctx, path, nil)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("error %v, want one naming the locked store", err)
	}
	if sqlitetest.Sum(t, path) != before {
		t.Error("the store changed")
	}
}

func TestFixtureUnchanged(t *testing.T) {
	sqlitetest.ReadAtRest(t, storeFixture, func() { parsertest.ParseValid(t, New(), storeFixture) })
}

func TestNotAStore(t *testing.T) {
	sqlitetest.NotAStore(t, New(), StoreName)
	other := filepath.Join(t.TempDir(), StoreName)
	sqlitetest.Create(t, other, "DELETE", []string{`CREATE TABLE notes (id TEXT)`}, nil)
	if _, err := New().Parse(context.Background(), other, nil); err == nil || !strings.Contains(err.Error(), other) {
		t.Errorf("a database without the tables: error %v, want one naming the file", err)
	}
}

func TestJSONLErrors(t *testing.T) {
	parsertest.CheckCancel(t, New(), "testdata/quirks.jsonl", parsertest.ReadFile(t, "testdata/quirks.jsonl"))
	res, err := New().Parse(context.Background(), "/s/x.jsonl", strings.NewReader("not json\n"))
	if err != nil || len(res.Conversations) != 0 || len(res.Warnings) != 1 {
		t.Errorf("garbage: %v %+v", err, res)
	}
}

func TestDetect(t *testing.T) {
	p := New()
	db := []byte(sqlitedb.Magic + "\x10\x00")
	meta := []byte(`{"working_dir":"/x","description":"d","schedule_id":null,"message_count":2}` + "\n")
	msg := []byte(`{"role":"user","created":1,"content":[]}` + "\n")
	nuls := strings.Repeat("\x00", 1000)
	tests := []struct {
		path string
		head []byte
		want bool
	}{
		{"/home/u/.local/share/goose/sessions/sessions.db", db, true},
		{"/root/data/sessions/sessions.db", db, false},
		{"/root/data/sessions/sessions.db", append(db, []byte("CREATE TABLE messages (content_json TEXT)")...), true},
		{"/home/u/.local/share/goose/sessions/sessions.db", []byte("{}"), false},
		{"/home/u/.local/share/goose/sessions/threads.db", db, false},
		{"/a/20250101_000000.jsonl", meta, true},
		{"/a/20250101_000000.json", meta, false},
		{"/a/x.jsonl", msg, false},
		{"/home/u/.local/share/goose/sessions/x.jsonl", msg, true},
		{"/a/x.jsonl", []byte(`{"description":"a"}`), false},
		{"/a/x.jsonl", nil, false},
		// Leading damage (a crash, a preallocated file) is skipped and the
		// first record judged; look-alikes behind it are still refused.
		{"/a/20250101_000000.jsonl", append([]byte(nuls+"\n"), meta...), true},
		{"/a/20250101_000000.jsonl", append([]byte(nuls), meta...), true},
		{"/a/20250101_000000.jsonl", append([]byte("garbage\n"), meta...), true},
		{"/a/20250101_000000.jsonl", append([]byte(`{"description":`+"\n"), meta...), true},
		{"/home/u/.local/share/goose/sessions/x.jsonl", append([]byte("garbage\n"), msg...), true},
		{"/a/x.jsonl", append([]byte("garbage\n"), msg...), false},
		{"/home/u/.local/share/goose/sessions/x.jsonl", []byte(strings.Repeat("\x00", 4096)), false},
	}
	for _, tt := range tests {
		if got := p.Detect(tt.path, tt.head); got != tt.want {
			t.Errorf("Detect(%s, %.40q) = %v, want %v", tt.path, tt.head, got, tt.want)
		}
	}
	parsertest.DetectTree(t, p, func(string) bool { return false }, "../../testdata/corpus", "../../examples")
}

// TestLeadingDamage: a session file that a crash left with NUL bytes, a
// torn or a garbage line before its records is claimed and read whole, its
// metadata with it, and the damage is a warning naming the line.
func TestLeadingDamage(t *testing.T) {
	for _, file := range []string{"testdata/20250612_143015.jsonl", "testdata/quirks.jsonl"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			parsertest.CheckLeadingDamage(t, New(), "/a/"+filepath.Base(file), parsertest.ReadFile(t, file))
		})
	}
}

func TestRoots(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		goos, home string
		env        map[string]string
		want       string
	}{
		{"linux", "/home/u", nil, "/home/u/.local/share/goose/sessions"},
		{"linux", "/home/u", map[string]string{"XDG_DATA_HOME": "/data"}, "/data/goose/sessions"},
		{"linux", "/home/u", map[string]string{"GOOSE_PATH_ROOT": "/opt/g"}, "/opt/g/data/sessions"},
		{"linux", "/home/u", map[string]string{"GOOSE_PATH_ROOT": "rel"}, "/home/u/.local/share/goose/sessions"},
		{"darwin", "/Users/u", nil, "/Users/u/.local/share/goose/sessions|/Users/u/Library/Application Support/Block/goose/sessions"},
		{"windows", "/h", map[string]string{"APPDATA": "/ad"}, "/ad/Block/goose/data/sessions"},
		{"linux", "", nil, ""},
	}
	for _, tt := range tests {
		if got := strings.Join(roots(tt.goos, tt.home, env(tt.env)), "|"); got != tt.want {
			t.Errorf("roots(%s, %s, %v) = %q, want %q", tt.goos, tt.home, tt.env, got, tt.want)
		}
	}
}

func TestCompanions(t *testing.T) {
	if got := New().Companions("/g/sessions.db"); len(got) != 1 || got[0] != "/g/sessions.db-wal" {
		t.Errorf("store companions %q", got)
	}
	if got := New().Companions("/g/a.jsonl"); got != nil {
		t.Errorf("jsonl companions %q", got)
	}
}

// TestProject: the project is the working folder's last element, for a
// folder of Windows as of Unix, wherever the store is read.
func TestProject(t *testing.T) {
	for dir, want := range map[string]string{
		"/Users/sam/work/site/": "site",
		`C:\Users\sam\site`:     "site",
		"/":                     "",
	} {
		c := &conversation.Conversation{Messages: []conversation.Message{{Role: conversation.RoleUser, Content: "hi"}}}
		finish(c, dir)
		if c.Project != want {
			t.Errorf("working dir %q: project %q, want %q", dir, c.Project, want)
		}
	}
}
