package kirosession

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers/parsertest"
)

const dir = "testdata/sessions/cli/"

const (
	main  = dir + "b2f4c6d8-1a3e-4f5b-9c7d-2e4f6a8b0c1d.jsonl"
	sub   = dir + "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f.jsonl"
	empty = dir + "e5f6a7b8-0000-4111-8222-333344445555.jsonl"
)

// No session file written by kiro-cli is public: these fixtures are built
// from the event shapes other projects' readers document (see the package
// comment). The counts and roles below were derived from the files, not
// from the parser (one message per Prompt u, AssistantMessage a and
// ToolResults t line; malformed lines and other kinds skipped):
//
//	python3 -c '
//	import json,sys
//	for f in sys.argv[1:]:
//	  r=""
//	  for l in open(f):
//	    try: o=json.loads(l)
//	    except ValueError: continue
//	    r+={"Prompt":"u","AssistantMessage":"a","ToolResults":"t"}.get(o.get("kind"),"")
//	  print(f,len(r),r)' FILES
var cases = []parsertest.Case{
	{
		// A Clear, an image, a line cut short (a warning), a kind to come.
		File: main,
		Want: []parsertest.Want{{
			ID:       "b2f4c6d8-1a3e-4f5b-9c7d-2e4f6a8b0c1d",
			Title:    "Nightly build failure",
			Messages: 7,
			Roles:    "uatatua",
		}},
		Warnings: 1,
	},
	{
		// No title in its companion: the first prompt stands in.
		File: sub,
		Want: []parsertest.Want{{
			ID:       "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
			Title:    "List the TODO comments under store/",
			Messages: 2,
			Roles:    "ua",
		}},
	},
	{File: empty},
}

func TestCorpus(t *testing.T) {
	parsertest.Run(t, New(), cases)
}

func TestDetails(t *testing.T) {
	c := parsertest.ParseOne(t, New(), main)
	m := c.Messages
	if c.Project != "ledger" || c.Model != "claude-sonnet-4.5" || c.Date.Format("2006-01-02T15:04:05") != "2026-02-13T11:50:26" {
		t.Errorf("project %q model %q date %v", c.Project, c.Model, c.Date)
	}
	if len(m[1].ToolCalls) != 1 || m[1].ToolCalls[0].Name != "fs_read" || !strings.Contains(m[1].ToolCalls[0].Arguments, "build/ci.log") {
		t.Errorf("tool call %+v", m[1].ToolCalls)
	}
	if r := m[2].ToolResults; len(r) != 1 || r[0].Name != "fs_read" || !strings.Contains(r[0].Content, "owner_id") || r[0].IsError {
		t.Errorf("tool result %+v", r)
	}
	if r := m[4].ToolResults; len(r) != 1 || !r[0].IsError || !strings.Contains(r[0].Content, `"exit_status":"exit status: 1"`) {
		t.Errorf("failed tool result %+v", r)
	}
	if m[3].Thinking != "The migration adds owner_id after the test reads it." {
		t.Errorf("thinking %q", m[3].Thinking)
	}
	if a := m[5].Attachments; len(a) != 1 || a[0].Type != "image/png" || a[0].Size != 200 {
		t.Errorf("attachments %+v", a)
	}
	if m[0].Timestamp.IsZero() || !m[1].Timestamp.IsZero() {
		t.Errorf("timestamps %v %v: prompts have one, replies none", m[0].Timestamp, m[1].Timestamp)
	}
	s := parsertest.ParseOne(t, New(), sub)
	if len(s.RelatedConversations) != 1 || s.RelatedConversations[0] != c.ID {
		t.Errorf("related %v", s.RelatedConversations)
	}
}

func TestBadCompanion(t *testing.T) {
	d := t.TempDir()
	p := filepath.Join(d, "x.jsonl")
	if err := os.WriteFile(p, parsertest.ReadFile(t, sub), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "x.json"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := parsertest.ParseFile(t, New(), p)
	if len(res.Conversations) != 1 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), p) {
		t.Errorf("%d conversations, warnings %v: want 1 and one naming %s", len(res.Conversations), res.Warnings, p)
	}
}

func TestDetect(t *testing.T) {
	const prompt = `{"version":"v1","kind":"Prompt","data":{"message_id":"m"}}` + "\n"
	nuls := strings.Repeat("\x00", 1000)
	tests := []struct {
		path, head string
		want       bool
	}{
		{"/h/.kiro/sessions/cli/a.jsonl", `{"version":"v1","kind":"Prompt","data":{"message_id":"m"}}`, true},
		{"/x/a.jsonl", `{"kind":"AssistantMessage","data":{"content":[]}}`, true},
		{"/h/.kiro/sessions/cli/a.jsonl", "", true},
		{"/x/a.jsonl", "", false},
		{"/h/.kiro/sessions/cli/a.json", `{"session_id":"a","title":"t"}`, false},
		{"/x/a.json", `{"version":"v1","kind":"Prompt","data":{}}`, false},
		{"/x/a.jsonl", `{"type":"user","sessionId":"s","uuid":"u"}`, false},
		{"/x/a.jsonl", `{"kind":"Prompt"}`, false},
		// Leading damage (a crash, a preallocated file) is skipped and the
		// first record judged; look-alikes behind it are still refused.
		{"/x/a.jsonl", nuls + "\n" + prompt, true},
		{"/x/a.jsonl", nuls + prompt, true},
		{"/x/a.jsonl", "garbage\n" + prompt, true},
		{"/x/a.jsonl", `{"version":"v1",` + "\n" + prompt, true},
		{"/x/a.jsonl", "garbage\n" + `{"type":"user","sessionId":"s","uuid":"u"}`, false},
		{"/h/.kiro/sessions/cli/a.jsonl", "garbage\n" + `{"type":"user","sessionId":"s","uuid":"u"}`, false},
		// A head of damage only leaves nothing to judge: the place decides.
		{"/h/.kiro/sessions/cli/a.jsonl", strings.Repeat("\x00", 4096), true},
		{"/h/.kiro/sessions/cli/a.jsonl", "garbage\n", true},
		{"/x/a.jsonl", strings.Repeat("\x00", 4096), false},
		{"/x/a.jsonl", "garbage\n", false},
	}
	for _, tt := range tests {
		if got := New().Detect(tt.path, []byte(tt.head)); got != tt.want {
			t.Errorf("Detect(%s, %.40s) = %v, want %v", tt.path, tt.head, got, tt.want)
		}
	}
}

// TestLeadingDamage: a session that a crash left with NUL bytes, a torn or a
// garbage line before its events is claimed and read whole, and the damage
// is a warning naming the line.
func TestLeadingDamage(t *testing.T) {
	parsertest.CheckLeadingDamage(t, New(), main, parsertest.ReadFile(t, main))
	// A session of nothing but damage, claimed by its place, is an error
	// naming the file, not an empty session.
	for _, data := range []string{strings.Repeat("\x00", 4096), "garbage\n"} {
		if _, err := New().Parse(context.Background(), "/h/.kiro/sessions/cli/a.jsonl", strings.NewReader(data)); err == nil || !strings.Contains(err.Error(), "a.jsonl:1:") {
			t.Errorf("Parse(%.20q): error %v, want one naming the file and line 1", data, err)
		}
	}
}

func TestLocations(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := New().DefaultRoots("/home/u", getenv); len(got) != 1 || got[0] != "/home/u/.kiro/sessions/cli" {
		t.Errorf("roots %v", got)
	}
	env["KIRO_HOME"] = "/k"
	if got := New().DefaultRoots("/home/u", getenv); len(got) != 1 || got[0] != "/k/sessions/cli" {
		t.Errorf("roots with KIRO_HOME %v", got)
	}
	if got := New().Companions("/a/b.jsonl"); len(got) != 1 || got[0] != "/a/b.json" {
		t.Errorf("Companions %v", got)
	}
}

func TestCancel(t *testing.T) {
	parsertest.CheckCancel(t, New(), main, parsertest.ReadFile(t, main))
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), "b2f4c6d8-1a3e-4f5b-9c7d-2e4f6a8b0c1d.jsonl", main, sub)
}
