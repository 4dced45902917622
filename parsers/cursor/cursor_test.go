package cursor

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
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

// No Cursor file written by Cursor itself with a permissive licence was
// found in public repositories, so every fixture here is written from the
// format as Cursor's readers (specstory's cursorcli, VibeLens, entire's
// cursor agent, cursor-history) describe it: the transcripts and the JSON
// sources of the two SQLite fixtures, which the builders below turn into
// committed databases when the goldens are updated (go test -update).
const (
	transcripts = "testdata/projects/home-dana-src-ratelimit/agent-transcripts/"
	session     = "7c1d2e3f-0a4b-4c5d-8e6f-1a2b3c4d5e6f"
	storeFile   = "testdata/chats/0a1b2c3d4e5f60718293a4b5c6d7e8f9/5d6e7f80-9102-4a3b-8c4d-5e6f70819203/" + storeName
	ideFile     = "testdata/workspaceStorage/a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6/" + vscdbName
)

func updating() bool { return golden.Updating() }

// The counts and roles below come from the fixtures' sources, not from the
// parsers, with the Python script below:
//
//	transcripts: per line with a role, a user line of only tool_result blocks
//	is t; else a user line gives u for the context around <user_query> (if
//	any) and u for the prompt; other roles give a/s/t unless they carry
//	nothing; a turn_ended line with status error gives s; bad JSON is a
//	warning. Text transcripts: one letter per "user:"/"assistant:" line.
//	store.db: per JSON blob with a role, in order (user: context u + u,
//	assistant a, tool t, system s); a blob that is not JSON is a warning.
//	state.vscdb: composers by key; bubbles in header order (a missing one
//	is a warning), else by createdAt; type 1 u, 2 a, empty bubbles skipped;
//	then ItemTable composers not seen, then chat tabs.
//
// Run in testdata/ (python3 counts.py), the script being:
//
//	import json,re,sys,glob
//	def split(t):
//	    t=re.sub(r'(?s)^\s*<timestamp>.*?</timestamp>\s*','',t)
//	    m=re.search(r'(?s)<user_query>\s*(.*?)\s*</user_query>',t)
//	    if m: return m.group(1), (t[:m.start()]+"\n"+t[m.end():]).strip(), False
//	    t=t.strip(); return t,"",bool(re.match(r'^<[A-Za-z_][A-Za-z0-9_\-]*>',t))
//	def jsonl(f):
//	    r="";bad=0
//	    for l in open(f):
//	        if not l.strip(): continue
//	        try:o=json.loads(l)
//	        except ValueError: bad+=1; continue
//	        if "role" not in o:
//	            if o.get("type")=="turn_ended" and o.get("status")=="error": r+="s"
//	            continue
//	        c=(o.get("message") or {}).get("content", o.get("content"))
//	        bl=c if isinstance(c,list) else []
//	        txt=" ".join(b.get("text","") for b in bl if b.get("type")=="text") if isinstance(c,list) else (c or "")
//	        other=[b for b in bl if b.get("type")!="text"]
//	        if o["role"]=="user":
//	            if bl and all(b.get("type")=="tool_result" for b in bl): r+="t"; continue
//	            p,ctx,_=split(txt)
//	            if ctx: r+="u"
//	            if p or other: r+="u"
//	        elif txt.strip() or other: r+={"assistant":"a","system":"s","tool":"t"}[o["role"]]
//	    return r,bad
//	def txt(f):
//	    r=""
//	    for l in open(f):
//	        l=l.strip().lower()
//	        if l=="user:": r+="u"
//	        elif l in("assistant:","a:"): r+="a"
//	    return r
//	def store(f):
//	    d=json.load(open(f));r="";bad=0
//	    for b in d["blobs"]:
//	        if "raw" in b: bad+=1; continue
//	        o=b.get("json")
//	        if not o or "role" not in o: continue
//	        c=o["content"]; bl=c if isinstance(c,list) else []
//	        t=" ".join(x.get("text","") for x in bl if x.get("type")=="text") if isinstance(c,list) else c
//	        if o["role"]=="user":
//	            p,ctx,_=split(t)
//	            if ctx: r+="u"
//	            r+="u"
//	        else: r+={"assistant":"a","system":"s","tool":"t"}[o["role"]]
//	    return r,bad
//	def vscdb(f):
//	    d=json.load(open(f));kv=d["cursorDiskKV"];out=[];bad=0
//	    def ok(b): return bool(b.get("text") or b.get("richText") or b.get("thinking") or b.get("toolFormerData") or b.get("codeBlocks") or b.get("images"))
//	    for k in sorted(x for x in kv if x.startswith("composerData:")):
//	        cid=k.split(":",1)[1]; v=kv[k]
//	        if isinstance(v,str): bad+=1; continue
//	        hs=v.get("fullConversationHeadersOnly") or []
//	        if hs:
//	            bs=[]
//	            for h in hs:
//	                key="bubbleId:%s:%s"%(cid,h["bubbleId"])
//	                if key not in kv: bad+=1; continue
//	                bs.append(kv[key])
//	        else:
//	            bs=sorted((kv[x] for x in kv if x.startswith("bubbleId:%s:"%cid)), key=lambda b:b.get("createdAt"))
//	        r="".join("ua"[b["type"]-1] for b in bs if ok(b))
//	        if r: out.append((cid,r))
//	    seen={c for c,_ in out}
//	    for c in d["ItemTable"]["composer.composerData"]["allComposers"]:
//	        if c["composerId"] in seen: continue
//	        out.append((c["composerId"],"".join("ua"[b["type"]-1] for b in c["conversation"] if b.get("text"))))
//	    for t in d["ItemTable"]["workbench.panel.aichat.view.aichat.chatdata"]["tabs"]:
//	        out.append((t["tabId"],"".join({"user":"u","ai":"a"}[b["type"]] for b in t["bubbles"] if b.get("text"))))
//	    return out,bad
//	for f in sorted(glob.glob("projects/**/*.jsonl",recursive=True)): print(f,*jsonl(f))
//	for f in sorted(glob.glob("projects/**/*.txt",recursive=True)): print(f,txt(f))
//	print("store",*store("store-blobs.json"))
//	print("vscdb",*vscdb("vscdb-rows.json"))
func TestAgentSuite(t *testing.T) {
	if updating() {
		buildStoreFixture(t, storeFile, "DELETE")
	}
	parsertest.Run(t, NewAgent(), []parsertest.Case{
		{
			File:     transcripts + session + "/" + session + ".jsonl",
			Warnings: 1, // the line cut short
			Want: []parsertest.Want{{
				ID: session + "/transcript", Title: "The limiter lets bursts through after idle periods. Can you find why?",
				Messages: 10, Roles: "uuaatauaus",
			}},
		},
		{
			File: transcripts + session + "/subagents/2b3c4d5e-6f70-4819-a2b3-c4d5e6f70819.jsonl",
			Want: []parsertest.Want{{ID: "2b3c4d5e-6f70-4819-a2b3-c4d5e6f70819/transcript", Messages: 3, Roles: "uaa"}},
		},
		{
			File: transcripts + "9e8d7c6b-5a49-4b3c-8d2e-1f0a9b8c7d6e.jsonl",
			Want: []parsertest.Want{{
				ID: "9e8d7c6b-5a49-4b3c-8d2e-1f0a9b8c7d6e/transcript", Title: "list the packages and their test coverage",
				Messages: 4, Roles: "uuaa",
			}},
		},
		{
			File: transcripts + "4f5e6d7c-8b9a-4c0d-9e1f-2a3b4c5d6e7f.txt",
			Want: []parsertest.Want{{
				ID: "4f5e6d7c-8b9a-4c0d-9e1f-2a3b4c5d6e7f/transcript", Title: "Design a sliding-window limiter for the API gateway, keyed per token",
				Messages: 6, Roles: "uaauaa",
			}},
			NoTruncate: true, // every prefix of a text transcript is one
		},
		{
			File:     storeFile,
			ByPath:   true, // a SQLite store is read at its path, not from the reader
			Warnings: 1,    // the blob cut short
			Want: []parsertest.Want{{
				ID: "5d6e7f80-9102-4a3b-8c4d-5e6f70819203", Title: "Cargo build fails on CI",
				Messages: 11, Roles: "suuatatauau",
			}},
		},
	})
}

func TestIDESuite(t *testing.T) {
	if updating() {
		buildIDEFixture(t, ideFile, "DELETE")
	}
	parsertest.Run(t, New(), []parsertest.Case{{
		File:     ideFile,
		ByPath:   true, // a SQLite store is read at its path, not from the reader
		Warnings: 2,    // composer c-400 is not JSON; c-100 lists a bubble not stored
		Want: []parsertest.Want{
			{ID: "c-100", Title: "Token bucket refill bug", Messages: 5, Roles: "uaaua"},
			{ID: "c-200", Title: "Should refill use time.Now or a monotonic clock?", Messages: 2, Roles: "ua"},
			{ID: "c-500", Title: "Remove the logging from the client", Messages: 2, Roles: "ua"},
			{ID: "t-1", Title: "Explain the limiter", Messages: 2, Roles: "ua"},
		},
	}})
}

// storeSource is testdata/store-blobs.json.
type storeSource struct {
	Meta  json.RawMessage `json:"meta"`
	Blobs []struct {
		ID   string          `json:"id"`
		JSON json.RawMessage `json:"json"`
		Bin  string          `json:"bin"`
		Raw  string          `json:"raw"`
	} `json:"blobs"`
}

// buildStoreFixture writes a store.db with the CLI's schema from
// testdata/store-blobs.json.
func buildStoreFixture(t testing.TB, path, journal string) {
	t.Helper()
	var src storeSource
	if err := json.Unmarshal(parsertest.ReadFile(t, "testdata/store-blobs.json"), &src); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.Remove(path)
	db := openWrite(t, path, journal)
	defer db.Close()
	exec(t, db, `CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB)`)
	exec(t, db, `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)`)
	exec(t, db, `INSERT INTO meta VALUES ('0', ?)`, hex.EncodeToString(src.Meta))
	for _, b := range src.Blobs {
		var data []byte
		switch {
		case b.Bin != "":
			data, _ = hex.DecodeString(b.Bin)
		case b.Raw != "":
			data = []byte(b.Raw)
		default:
			data = compact(t, b.JSON)
		}
		exec(t, db, `INSERT INTO blobs VALUES (?, ?)`, b.ID, data)
	}
}

// buildIDEFixture writes a state.vscdb with Cursor's tables from
// testdata/vscdb-rows.json; a string value is stored as it is.
func buildIDEFixture(t testing.TB, path, journal string) {
	t.Helper()
	var src map[string]map[string]json.RawMessage
	if err := json.Unmarshal(parsertest.ReadFile(t, "testdata/vscdb-rows.json"), &src); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.Remove(path)
	db := openWrite(t, path, journal)
	defer db.Close()
	for _, table := range []string{"ItemTable", "cursorDiskKV"} {
		exec(t, db, `CREATE TABLE `+table+` (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`)
		for k, v := range src[table] {
			var s string
			if json.Unmarshal(v, &s) == nil {
				exec(t, db, `INSERT INTO `+table+` VALUES (?, ?)`, k, s)
				continue
			}
			exec(t, db, `INSERT INTO `+table+` VALUES (?, ?)`, k, compact(t, v))
		}
	}
}

func compact(t testing.TB, raw json.RawMessage) []byte {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return out
}

func openWrite(t testing.TB, path, journal string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path+"?_pragma=journal_mode("+journal+")&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func exec(t testing.TB, db interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, q string, args ...any) {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func TestTranscriptFields(t *testing.T) {
	c := parsertest.ParseOne(t, NewAgent(), transcripts+session+"/"+session+".jsonl")
	m := c.Messages
	if !m[0].Hidden || !strings.Contains(m[0].Content, "attached_files") || m[1].Hidden {
		t.Errorf("context %+v, prompt %+v: want the context hidden before the prompt", m[0], m[1])
	}
	if want := time.Date(2026, 5, 26, 20, 57, 0, 0, time.UTC); !m[1].Timestamp.Equal(want) || !c.Date.Equal(want) {
		t.Errorf("timestamp %v, date %v, want %v", m[1].Timestamp, c.Date, want)
	}
	if m[2].Thinking == "" || len(m[2].ToolCalls) != 1 || m[2].ToolCalls[0].Name != "Read" || !strings.Contains(m[2].ToolCalls[0].Arguments, "limiter.go") {
		t.Errorf("assistant %+v", m[2])
	}
	if len(m[4].ToolResults) != 2 || m[4].ToolResults[1].Content != "ok  ratelimit 0.012s" {
		t.Errorf("tool results %+v", m[4].ToolResults)
	}
	if a := m[6].Attachments; len(a) != 1 || a[0].Type != "image/png" || a[0].Size != 768 {
		t.Errorf("attachments %+v", a)
	}
	if !m[7].Cancelled || m[9].Role != conversation.RoleSystem || !m[9].Hidden {
		t.Errorf("aborted %+v, error %+v", m[7], m[9])
	}
	if c.Project != "home-dana-src-ratelimit" || len(c.Summaries) != 1 {
		t.Errorf("project %q summaries %q", c.Project, c.Summaries)
	}
	sub := parsertest.ParseOne(t, NewAgent(), transcripts+session+"/subagents/2b3c4d5e-6f70-4819-a2b3-c4d5e6f70819.jsonl")
	if !sub.Messages[0].Sidechain {
		t.Error("sub-agent messages not marked as a side chain")
	}
	txt := parsertest.ParseOne(t, NewAgent(), transcripts+"4f5e6d7c-8b9a-4c0d-9e1f-2a3b4c5d6e7f.txt")
	plan := txt.Messages[2]
	if len(plan.ToolCalls) != 1 || !strings.Contains(plan.ToolCalls[0].Arguments, "ZREMRANGEBYSCORE") || len(plan.ToolResults) != 1 {
		t.Errorf("plan turn %+v", plan)
	}
	if r := txt.Messages[4]; r.Thinking == "" || r.ToolResults[0].Content != "package limiter" {
		t.Errorf("read turn %+v", r)
	}
}

func TestEmptyTranscripts(t *testing.T) {
	for _, in := range []string{"", "\n\n", `{"type":"turn_ended","status":"success"}` + "\n"} {
		res, err := NewAgent().Parse(context.Background(), "/p/agent-transcripts/x.jsonl", strings.NewReader(in))
		if err != nil || len(res.Conversations) != 0 || len(res.Warnings) != 0 {
			t.Errorf("%q: %v %+v", in, err, res)
		}
	}
	res, err := NewAgent().Parse(context.Background(), "/p/agent-transcripts/x.txt", strings.NewReader(""))
	if err != nil || len(res.Conversations) != 0 {
		t.Errorf("empty text transcript: %v %+v", err, res)
	}
}

func TestStoreFields(t *testing.T) {
	c := parsertest.ParseOne(t, NewAgent(), storeFile)
	if c.Model != "claude-4.5-sonnet" || !c.Date.Equal(time.UnixMilli(1767276300000).UTC()) {
		t.Errorf("model %q date %v", c.Model, c.Date)
	}
	m := c.Messages
	if !m[0].Hidden || !m[1].Hidden || m[2].Hidden || !m[10].Hidden || len(c.Summaries) != 1 {
		t.Errorf("hidden flags %v %v %v %v, summaries %q", m[0].Hidden, m[1].Hidden, m[2].Hidden, m[10].Hidden, c.Summaries)
	}
	if m[3].Thinking == "" || m[3].ToolCalls[0].ID != "toolu_01" || m[4].ToolResults[0].CallID != "toolu_01" {
		t.Errorf("call %+v result %+v", m[3], m[4])
	}
	if a := m[8].Attachments; len(a) != 1 || a[0].Type != "image/png" || a[0].Size != 1024 {
		t.Errorf("attachments %+v", a)
	}
}

func TestIDEFields(t *testing.T) {
	res := parsertest.ParseFile(t, New(), ideFile)
	c := res.Conversations[0]
	if c.Project != "ratelimit" || c.Model != "claude-4.5-sonnet" || !c.Date.Equal(time.UnixMilli(1767340800000).UTC()) {
		t.Errorf("project %q model %q date %v", c.Project, c.Model, c.Date)
	}
	m := c.Messages
	if m[1].Thinking == "" || m[1].ToolCalls[0].Name != "read_file" || !strings.Contains(m[1].ToolResults[0].Content, "refill") {
		t.Errorf("tool bubble %+v", m[1])
	}
	if m[3].Content != "Write a test for the idle case" || len(m[3].Attachments) != 1 || m[3].Attachments[0].Name != "burst.png" {
		t.Errorf("rich text bubble %+v", m[3])
	}
	if !m[4].ToolResults[0].IsError {
		t.Errorf("failed command %+v", m[4])
	}
	for _, w := range res.Warnings {
		if !strings.Contains(w.Error(), "c-400") && !strings.Contains(w.Error(), "b-missing") {
			t.Errorf("warning %v", w)
		}
	}
}

// TestNotCursor: a VS Code state.vscdb, a database without any table, a
// store.db of another tool give nothing; garbage is an error naming the file.
func TestNotCursor(t *testing.T) {
	dir := t.TempDir()
	vs := filepath.Join(dir, "vscode", vscdbName)
	os.MkdirAll(filepath.Dir(vs), 0o755)
	db := openWrite(t, vs, "DELETE")
	exec(t, db, `CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`)
	exec(t, db, `INSERT INTO ItemTable VALUES ('workbench.panel.chat', '{"x":1}')`)
	db.Close()
	other := filepath.Join(dir, "chats", "h", "s", storeName)
	os.MkdirAll(filepath.Dir(other), 0o755)
	db = openWrite(t, other, "DELETE")
	exec(t, db, `CREATE TABLE notes (id TEXT)`)
	db.Close()
	for _, tc := range []struct {
		p    parsers.Parser
		path string
	}{{New(), vs}, {NewAgent(), other}} {
		res, err := tc.p.Parse(context.Background(), tc.path, nil)
		if err != nil || len(res.Conversations) != 0 || len(res.Warnings) != 0 {
			t.Errorf("%s: %v %+v", tc.path, err, res)
		}
	}
	garbage := filepath.Join(dir, "g", vscdbName)
	os.MkdirAll(filepath.Dir(garbage), 0o755)
	os.WriteFile(garbage, []byte(sqlitedb.Magic+strings.Repeat("x", 300)), 0o644)
	if _, err := New().Parse(context.Background(), garbage, nil); err == nil || !strings.Contains(err.Error(), garbage) {
		t.Errorf("garbage: %v", err)
	}
	missing := filepath.Join(dir, "none", vscdbName)
	if _, err := New().Parse(context.Background(), missing, nil); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing: %v", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("parsing a missing database created it")
	}
}

// TestWriterHoldsTransaction parses while another connection holds an open
// write transaction, in both journal modes: the parse must not fail or wait
// long, sees the committed state, leaves the writer able to commit, and
// changes no byte of the file.
func TestWriterHoldsTransaction(t *testing.T) {
	for _, journal := range []string{"DELETE", "WAL"} {
		for _, tc := range []struct {
			name  string
			p     parsers.Parser
			build func(testing.TB, string, string)
			path  string
			write string
			want  int // messages of the first conversation before the commit
		}{
			{"store", NewAgent(), buildStoreFixture, filepath.Join("chats", "h", "s", storeName),
				`INSERT INTO blobs VALUES ('ff', '{"role":"user","content":"uncommitted"}')`, 11},
			{"ide", New(), buildIDEFixture, filepath.Join("ws", vscdbName),
				`INSERT INTO cursorDiskKV VALUES ('bubbleId:c-200:new', '{"type":1,"text":"uncommitted","createdAt":1767427299000}')`, 2},
		} {
			t.Run(journal+"/"+tc.name, func(t *testing.T) {
				path := filepath.Join(t.TempDir(), tc.path)
				tc.build(t, path, journal)
				idx := 0
				if tc.name == "ide" {
					idx = 1 // c-200, whose bubbles are all read
				}
				// The store keeps the journal mode it was built with.
				w := sqlitetest.Begin(t, path, "IMMEDIATE")
				w.Exec(t, tc.write)
				ctx := context.Background()
				before := sqlitetest.Sum(t, path)
				// The writer holds its lock until Commit below: a parse that
				// waited for it would give up after the busy timeout with
				// an error, so no clock is needed to see that it did not.
				res, err := tc.p.Parse(ctx, path, nil)
				if err != nil {
					t.Fatalf("parse during a write: %v", err)
				}
				if got := len(res.Conversations[idx].Messages); got != tc.want {
					t.Errorf("%d messages while the writer is open, want %d", got, tc.want)
				}
				if sqlitetest.Sum(t, path) != before {
					t.Error("the parse changed the database")
				}
				w.Commit(t)
				res, err = tc.p.Parse(ctx, path, nil)
				if err != nil || len(res.Conversations[idx].Messages) != tc.want+1 {
					t.Errorf("after the commit: %v, want %d messages", err, tc.want+1)
				}
			})
		}
	}
}

func TestFixturesUnchanged(t *testing.T) {
	for _, tc := range []struct {
		p    parsers.Parser
		path string
	}{{NewAgent(), storeFile}, {New(), ideFile}} {
		before := sqlitetest.Sum(t, tc.path)
		parsertest.ParseFile(t, tc.p, tc.path)
		if sqlitetest.Sum(t, tc.path) != before {
			t.Errorf("%s changed", tc.path)
		}
		for _, side := range []string{"-wal", "-shm", "-journal"} {
			if _, err := os.Stat(tc.path + side); err == nil {
				t.Errorf("reading left %s behind", tc.path+side)
			}
		}
	}
}

func TestDetect(t *testing.T) {
	db := []byte(sqlitedb.Magic + "\x10\x00")
	line := []byte(`{"role":"user","message":{"content":[]}}`)
	nuls := strings.Repeat("\x00", 1000)
	tests := []struct {
		p    parsers.Parser
		path string
		head []byte
		want bool
	}{
		{NewAgent(), "/h/.cursor/projects/p/agent-transcripts/a/a.jsonl", line, true},
		{NewAgent(), "/h/.cursor/projects/p/agent-transcripts/a.jsonl", []byte(`{"type":"metadata","metadata":{}}`), true},
		{NewAgent(), "/h/elsewhere/a.jsonl", line, false},
		{NewAgent(), "/h/.cursor/projects/p/agent-transcripts/a.jsonl", []byte(`{"sessionId":"x","uuid":"y"}`), false},
		// Leading damage (a crash, a preallocated file) is skipped and the
		// first record judged; look-alikes behind it are still refused.
		{NewAgent(), "/h/.cursor/projects/p/agent-transcripts/a/a.jsonl", append([]byte(nuls+"\n"), line...), true},
		{NewAgent(), "/h/.cursor/projects/p/agent-transcripts/a/a.jsonl", append([]byte(nuls), line...), true},
		{NewAgent(), "/h/.cursor/projects/p/agent-transcripts/a/a.jsonl", append([]byte("garbage\n"), line...), true},
		{NewAgent(), "/h/.cursor/projects/p/agent-transcripts/a.jsonl", []byte("garbage\n" + `{"type":"turn_ended"}`), true},
		{NewAgent(), "/h/elsewhere/a.jsonl", append([]byte("garbage\n"), line...), false},
		{NewAgent(), "/h/.cursor/projects/p/agent-transcripts/a.jsonl", []byte(nuls + "\n" + `{"sessionId":"x","uuid":"y"}`), false},
		{NewAgent(), "/h/.cursor/projects/p/agent-transcripts/a.jsonl", []byte(strings.Repeat("\x00", 4096)), false},
		{NewAgent(), "/h/.cursor/projects/p/agent-transcripts/a.txt", []byte("user:\n<user_query>\nhi"), true},
		{NewAgent(), "/h/.cursor/projects/p/agent-transcripts/notes.txt", []byte("remember the milk"), false},
		{NewAgent(), "/h/.cursor/chats/abc/123/store.db", db, true},
		{NewAgent(), "/h/app/data/store.db", db, false},
		{NewAgent(), "/h/.cursor/chats/abc/123/store.db", []byte("{}"), false},
		{New(), "/h/.config/Cursor/User/globalStorage/state.vscdb", db, true},
		{New(), "/h/.config/Cursor/User/globalStorage/state.vscdb.backup", db, false},
		{New(), "/h/x/state.vscdb", []byte("SQLite format 3"), false},
	}
	for _, tt := range tests {
		if got := tt.p.Detect(tt.path, tt.head); got != tt.want {
			t.Errorf("%s.Detect(%s) = %v, want %v", tt.p.Info().Name, tt.path, got, tt.want)
		}
	}
	// No other family's file, real or example, is claimed.
	for _, p := range []parsers.Parser{New(), NewAgent()} {
		parsertest.DetectTree(t, p, func(string) bool { return false }, "../../testdata/corpus", "../../examples")
	}
}

// TestLeadingDamage: a transcript that a crash left with NUL bytes, a torn
// or a garbage line before its records is claimed and read whole, and the
// damage is a warning naming the line.
func TestLeadingDamage(t *testing.T) {
	for _, file := range []string{transcripts + session + "/" + session + ".jsonl", transcripts + "9e8d7c6b-5a49-4b3c-8d2e-1f0a9b8c7d6e.jsonl"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			parsertest.CheckLeadingDamage(t, NewAgent(), "/h/.cursor/projects/p/agent-transcripts/"+filepath.Base(file), parsertest.ReadFile(t, file))
		})
	}
}

func TestRoots(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		goos string
		home string
		env  map[string]string
		want string
	}{
		{"linux", "/home/u", nil, "/home/u/.config/Cursor/User/globalStorage/state.vscdb|/home/u/.config/Cursor/User/workspaceStorage"},
		{"linux", "/home/u", map[string]string{"XDG_CONFIG_HOME": "/cfg"}, "/cfg/Cursor/User/globalStorage/state.vscdb|/cfg/Cursor/User/workspaceStorage"},
		{"darwin", "/Users/u", nil, "/Users/u/Library/Application Support/Cursor/User/globalStorage/state.vscdb|/Users/u/Library/Application Support/Cursor/User/workspaceStorage"},
		{"windows", "/home/u", map[string]string{"APPDATA": "/ad"}, "/ad/Cursor/User/globalStorage/state.vscdb|/ad/Cursor/User/workspaceStorage"},
		{"linux", "", nil, ""},
	}
	for _, tt := range tests {
		if got := strings.Join(ideRoots(tt.goos, tt.home, env(tt.env)), "|"); got != filepath.FromSlash(tt.want) && got != tt.want {
			t.Errorf("ideRoots(%s, %s) = %q, want %q", tt.goos, tt.home, got, tt.want)
		}
	}
	if got := strings.Join(NewAgent().DefaultRoots("/home/u", env(nil)), "|"); got != "/home/u/.cursor/projects|/home/u/.cursor/chats" {
		t.Errorf("agent roots %q", got)
	}
	if got := NewAgent().DefaultRoots("/home/u", env(map[string]string{"CURSOR_CONFIG_DIR": "/c"})); got[0] != "/c/projects" {
		t.Errorf("agent roots with CURSOR_CONFIG_DIR %q", got)
	}
	if got := New().Companions("/w/state.vscdb"); len(got) != 2 || got[1] != "/w/workspace.json" {
		t.Errorf("companions %q", got)
	}
}

func TestStampTime(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Tuesday, May 26, 2026, 10:57 PM (UTC+2)", "2026-05-26T20:57:00Z"},
		{"Saturday, Aug 01, 2026, 9:30 AM (UTC+8)", "2026-08-01T01:30:00Z"},
		{"Thursday, Jan 1, 2026, 9:05 AM (UTC-5:30)", "2026-01-01T14:35:00Z"},
		{"yesterday", "0001-01-01T00:00:00Z"},
	}
	for _, tt := range tests {
		if got := stampTime(tt.in).Format(time.RFC3339); got != tt.want {
			t.Errorf("stampTime(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, NewAgent(), "agent-transcripts/fuzz.jsonl",
		transcripts+session+"/"+session+".jsonl",
		transcripts+"9e8d7c6b-5a49-4b3c-8d2e-1f0a9b8c7d6e.jsonl")
}

func FuzzParseText(f *testing.F) {
	parsertest.Fuzz(f, NewAgent(), "agent-transcripts/fuzz.txt", transcripts+"4f5e6d7c-8b9a-4c0d-9e1f-2a3b4c5d6e7f.txt")
}

// FuzzDecode fuzzes what the two databases hold: a store blob and a
// composer's bubble.
func FuzzDecode(f *testing.F) {
	var src storeSource
	_ = json.Unmarshal(parsertest.ReadFile(f, "testdata/store-blobs.json"), &src)
	for _, b := range src.Blobs {
		f.Add([]byte(b.JSON))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var m blobMessage
		if json.Unmarshal(data, &m) == nil {
			msgs, _ := blobToMessages("user", &m)
			msgs2, _ := blobToMessages("assistant", &m)
			c := &conversation.Conversation{ID: "x", Messages: append(msgs, msgs2...)}
			c.Renumber()
			if err := parsertest.Invariants(&parsers.Result{Conversations: []*conversation.Conversation{c}}); err != nil {
				t.Error(err)
			}
		}
		var b bubble
		if json.Unmarshal(data, &b) == nil {
			if m, ok := bubbleMessage(&b); ok && !m.Role.Valid() {
				t.Errorf("role %q", m.Role)
			}
		}
		_ = richText(string(data))
	})
}

func TestWorkspaceProject(t *testing.T) {
	dir := t.TempDir()
	for i, tc := range []struct{ json, want string }{
		{`{"folder": "file:///home/dana/src/ratelimit"}`, "ratelimit"},
		{`{"folder": "file:///home/dana/src/ratelimit/"}`, "ratelimit"},
		{`{"workspace": "file:///home/dana/all.code-workspace"}`, "all"},
		{`{"folder": "file:///c%3A/Users/dana/web%20app"}`, "web app"},
		{`{"folder": "vscode-remote://ssh-remote%2Bbox/srv/api"}`, "api"},
		{`{}`, ""},
		{`not json`, ""},
	} {
		path := filepath.Join(dir, fmt.Sprintf("%d.json", i))
		if err := os.WriteFile(path, []byte(tc.json), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := workspaceProject(path); got != tc.want {
			t.Errorf("workspaceProject(%s) = %q, want %q", tc.json, got, tc.want)
		}
	}
	if got := workspaceProject(filepath.Join(dir, "missing.json")); got != "" {
		t.Errorf("missing workspace.json: %q, want \"\"", got)
	}
}

// TestTranscriptsFolderLeavesOtherFamilies: sessions of Claude Code, Qwen
// Code and PersonalAgent in a folder named agent-transcripts are not
// claimed by cursor-agent, which would read no message from them; and if
// it is asked to read one all the same, it says so.
func TestTranscriptsFolderLeavesOtherFamilies(t *testing.T) {
	tests := []struct {
		file string
		warn bool // Parse warns that it read no message
	}{
		{"../claudecode/testdata/renamed.jsonl", true},
		{"../claudecode/testdata/agent-a1b2c3d4.jsonl", true},
		{"../claudecode/testdata/sidechain-first.jsonl", true},
		{"../gemini/testdata/qwen/projects/-home-lin-src-kvstore/chats/6a1f0e2d-3c4b-4a59-8e7d-6c5b4a3f2e1d.jsonl", true},
		{"../personalagent/testdata/20250121193000001.jsonl", false},
		{"../personalagent/testdata/20250302141503417.jsonl", false},
	}
	for _, tt := range tests {
		data := parsertest.ReadFile(t, tt.file)
		path := "/h/.cursor/projects/p/agent-transcripts/" + filepath.Base(tt.file)
		if NewAgent().Detect(path, data[:min(len(data), parsers.HeadSize)]) {
			t.Errorf("%s: claimed under agent-transcripts/", tt.file)
		}
		res, err := NewAgent().Parse(context.Background(), path, strings.NewReader(string(data)))
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if got := len(res.Conversations) == 0 && len(res.Warnings) > 0; got != tt.warn {
			t.Errorf("%s: %d conversations, warnings %v", tt.file, len(res.Conversations), res.Warnings)
		}
	}
}
