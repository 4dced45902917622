package browserexport

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

// Counts and roles were read from the files with python's json module.
// IDs are sha256("browser:"+thread id) as the spec's generate_id computes
// them, with the thread's (or first branch's) createdAt in UTC.
func TestSuite(t *testing.T) {
	parsertest.Run(t, New(), []parsertest.Case{
		{File: "testdata/documented.json", Want: []parsertest.Want{
			{ID: "20251127-e1882f45", Title: "Go context in struct fields", Messages: 4, Roles: "uaua"},
			{ID: "20251129-b6d15a54", Title: "sed in-place on macOS", Messages: 2, Roles: "ua"},
		}},
		{File: "testdata/chat-backup-2025-12-01.json", Want: []parsertest.Want{
			// Two branches: 4 + 5 messages, the shared prefix kept in both.
			{ID: "20251130-d5025a4e", Title: "Choosing a hash for content-addressed blobs", Messages: 9, Roles: "uauauauau"},
			{ID: "00000000-223e9495", Title: "Empty thread", Messages: 0},
			{ID: "20251201-a693f340", Title: "Prompt with a system note", Messages: 3, Roles: "usa"},
		}},
		// threads as an object, numeric id and epoch-ms createdAt, blocks,
		// a null and a bare-string message, a non-object thread, id-less
		// twins, a bare-array branch, branches that are not a list.
		{File: "testdata/quirks.json", Warnings: 3, Want: []parsertest.Want{
			{ID: "20251201-9fadfc55", Title: "First question, as blocks", Messages: 4, Roles: "uaau"},
			{ID: "20251202-752144ff", Title: "No id", Messages: 2, Roles: "ua"},
			{Title: "No id", Messages: 2, Roles: "ua"},
			{Messages: 0},
		}},
		{File: "../../examples/browser-export/chat-export-2025-12-12.json", Want: []parsertest.Want{
			{ID: "20251212-3ce3a718", Title: "Primary keys: UUIDv7 or bigint identity", Messages: 6, Roles: "uauaua"},
			{ID: "20251212-9f769fa3", Title: "zstd level for nightly log archives", Messages: 4, Roles: "uaua"},
		}},
		{File: "../../examples/browser-export/chat-backup-2025-12-15.json", Want: []parsertest.Want{
			{ID: "20251215-e2341144", Title: "Webhook retry policy", Messages: 10, Roles: "uauauauaua"},
		}},
	})
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), "chat-backup-2025-12-01.json",
		"testdata/documented.json",
		"testdata/chat-backup-2025-12-01.json",
		"testdata/quirks.json",
	)
}

func parse(t *testing.T, data string) *parsers.Result {
	t.Helper()
	res, err := New().Parse(context.Background(), "chat-backup-x.json", strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestBranches(t *testing.T) {
	res := parse(t, `{"indexedDB": {"threads": [{"id": "t", "name": "n", "messages": [{"text": "top", "sender": "Human"}],
		"branches": [{"createdAt": "2025-01-01T10:00:00Z", "messages": [{"text": "a", "sender": "Human"}]},
		             {"createdAt": "2025-01-01T09:00:00Z", "updatedAt": "2025-01-03T00:00:00Z", "messages": [{"text": "b", "sender": "Human"}, {"text": "c", "sender": "Assistant", "createdAt": "2025-01-02T00:00:00Z"}]}]}]}}`)
	c := res.Conversations[0]
	var got []string
	for _, m := range c.Messages {
		got = append(got, m.Branch+":"+m.Content)
	}
	if strings.Join(got, " ") != ":top 0:a 1:b 1:c" {
		t.Errorf("messages %q, want top on the main line, then branch 0, then branch 1", got)
	}
	if want := time.Date(2025, 1, 1, 10, 0, 0, 0, time.UTC); !c.Date.Equal(want) {
		t.Errorf("date %v, want the first branch's createdAt %v", c.Date, want)
	}
	if want := time.Date(2025, 1, 3, 0, 0, 0, 0, time.UTC); !c.Updated.Equal(want) {
		t.Errorf("updated %v, want %v", c.Updated, want)
	}
	if want := conversation.NewID("browser:t", c.Date); c.ID != want {
		t.Errorf("id %s, want %s", c.ID, want)
	}
}

func TestSenders(t *testing.T) {
	res := parse(t, `{"threads": [{"id": "t", "messages": [{"text": "1", "sender": "Human"}, {"text": "2", "sender": "Assistant"},
		{"text": "3", "sender": "user"}, {"text": "4", "sender": "AI"}, {"text": "5", "sender": "System"}, {"text": "6"}, {"text": "7", "role": "tool"}]}]}`)
	if got := parsertest.RoleLetters(res.Conversations[0].Messages); got != "uauasat" {
		t.Errorf("roles %q, want uauasat", got)
	}
}

func TestNoBase64(t *testing.T) {
	res := parse(t, `{"threads": [{"id": "t", "messages": [{"text": "x data:image/png;base64,iVBORw0KGgoAAAANSUhEUg== y", "sender": "Human"}]}]}`)
	if m := res.Conversations[0].Messages[0].Content; strings.Contains(m, "iVBOR") || !strings.Contains(m, "[image/png data") {
		t.Errorf("content %q", m)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, data string
		kind       error
		line       int
	}{
		{"empty", "", parsers.ErrSyntax, 0},
		{"cut", "{\"threads\": [\n{\"id\": \"x\", \"messages\": [", parsers.ErrSyntax, 2},
		{"array", `[{"threads": []}]`, parsers.ErrShape, 1},
		{"no threads", `{"conversations": []}`, parsers.ErrShape, 1},
		{"threads a string", "{\n\"threads\": \"x\"}", parsers.ErrShape, 2},
		{"indexedDB a list", "{\n\n\"indexedDB\": [1]}", parsers.ErrShape, 3},
		{"indexedDB without threads", `{"indexedDB": {"settings": []}}`, parsers.ErrShape, 1},
	}
	const path = "/backups/chat-backup-bad.json"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New().Parse(context.Background(), path, strings.NewReader(tt.data))
			parsertest.CheckError(t, err, path, tt.line, tt.kind)
		})
	}
	parsertest.CheckCancel(t, New(), path, []byte(`{"threads": []}`))
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name, path, head string
		want             bool
	}{
		{"documented", "export.json", `{"threads": [{"id": "t", "name": "n", "messages": [{"text": "x", "sender": "Human"}]}]}`, true},
		{"documented cut", "export.json", `{"threads": [{"id": "t", "name": "n", "messages": [`, true},
		{"no messages yet", "export.json", `{"threads": [{"id": "t", "name": "n", "createdAt": "2025`, true},
		{"indexedDB", "chat-backup-1.json", `{"indexedDB": {"threads": [{"id": "t", "branches": [`, true},
		{"indexedDB cut at threads", "backup.json", `{"indexedDB": {"threads": `, true},
		{"indexedDB other stores fill the head", "chat-backup-2.json", `{"indexedDB": {"settings": [{"k": "` + strings.Repeat("v", parsers.HeadSize), true},
		{"branch messages", "export.json", `{"threads": [{"id": "t", "branches": [{"messages": [{"sender": "Human"`, true},

		{"indexedDB other stores, other name", "backup.json", `{"indexedDB": {"settings": [{"k": "` + strings.Repeat("v", parsers.HeadSize), false},
		{"indexedDB without threads", "chat-backup-3.json", `{"indexedDB": {"settings": []}}`, false},
		{"forum dump", "forum.json", `{"threads": [{"id": 1, "title": "t", "posts": []}]}`, false},
		{"forum dump with names", "forum.json", `{"threads": [{"id": 1, "name": "t", "createdAt": "2025", "posts": []}]}`, false},
		{"forum dump with names, cut", "forum.json", `{"threads": [{"id": 1, "name": "t", "posts": [`, false},
		{"threads of other messages", "slack.json", `{"threads": [{"id": 1, "messages": [{"user": "U1", "body": "x"}]}]}`, false},
		{"threads a number", "a.json", `{"threads": 3}`, false},
		{"empty threads", "a.json", `{"threads": []}`, false},
		{"wrong extension", "a.txt", `{"threads": [{"id": "t", "messages": []}]}`, false},
		{"portable", "a.json", `{"id": "x", "messages": [{"role": "user"}]}`, false},
		{"nested threads", "a.json", `{"data": {"threads": [{"messages": []}]}}`, false},
		{"array", "a.json", `[{"threads": []}]`, false},
		{"empty", "a.json", ``, false},
	}
	for _, tt := range tests {
		if got := New().Detect(tt.path, []byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect(%s) = %v, want %v", tt.name, tt.path, got, tt.want)
		}
	}
}

// TestDetectOthers: no file of another family, real or example, is claimed;
// every file here and in examples/browser-export is.
func TestDetectOthers(t *testing.T) {
	if parsertest.DetectTree(t, New(), func(path string) bool {
		return strings.Contains(path, "examples/browser-export/") ||
			(strings.HasPrefix(path, "testdata/") && !strings.HasPrefix(path, "testdata/golden/") && filepath.Ext(path) == ".json")
	}, "../../testdata/corpus", "../../examples", "testdata") == 0 {
		t.Error("no file of this family under the roots: the test checked nothing")
	}
}
