package claudeai

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

const (
	corpus   = "../../testdata/corpus/claude-ai/"
	examples = "../../examples/claude-ai/"
)

func TestSuite(t *testing.T) {
	parsertest.Run(t, New(), []parsertest.Case{
		{
			File: corpus + "artifacts.json",
			Want: []parsertest.Want{{
				ID: "91098bc8-f2c4-427b-b71b-1e25efa2e871", Title: "LLM Pricing Calculator",
				Messages: 20, Roles: strings.Repeat("ua", 10),
			}},
		},
		{
			File: corpus + "example.json",
			Want: []parsertest.Want{{
				ID: "1db4c66e-b369-4e3a-96a9-6c16f8301ee8", Title: "Bash Command for OpenAI API",
				Messages: 2, Roles: "ua",
			}},
		},
		{
			File: "testdata/newer.json",
			Want: []parsertest.Want{{
				ID: "5a1f0c2e-8d3b-4f7a-9c61-2e4b8d0f1a37", Title: "Postgres connection pool sizing",
				Messages: 6, Roles: "uauaua",
			}},
		},
		{
			File: "testdata/quirks.json",
			Want: []parsertest.Want{
				{ID: "c0ffee00-1111-4a2b-8c3d-000000000001", Title: "How do I keep the last 100 log lines in Go without the slice growing forever?", Messages: 4, Roles: "uaua"},
				{ID: "c0ffee00-1111-4a2b-8c3d-000000000002", Title: "Untitled draft", Messages: 0},
				{ID: "c0ffee00-1111-4a2b-8c3d-000000000003", Title: "Mixed bag", Messages: 1, Roles: "u"},
				{Title: "No id here", Messages: 2, Roles: "ua"},
			},
			Warnings: 2, // the "oops" element, and the 42 among chat_messages
		},
		{
			File: "testdata/single.json",
			Want: []parsertest.Want{{
				ID:       "7e3c9a10-4b2d-4e8f-a1c6-5d9e0f2b3a47",
				Title:    "Our nightly pg_dump of a 300 GB database takes 5 hours and blocks autovacuum on…",
				Messages: 2, Roles: "ua",
			}},
		},
		{
			File: examples + "conversations.json",
			Want: []parsertest.Want{
				{ID: "b7e2c4d1-93a0-4f6e-8b25-1c0d9e7f3a64", Title: "Local search index: Bleve or SQLite FTS5", Messages: 8, Roles: "uauauaua"},
				{ID: "4a8f2c6e-1d9b-4e07-b3a5-7c2e0f9d1b58", Title: "Webhook retry policy", Messages: 6, Roles: "uauaua"},
			},
			Golden: "example-conversations.json",
		},
	})
}

func parseString(s string) (*parsers.Result, error) {
	return New().Parse(context.Background(), "/x/conversations.json", strings.NewReader(s))
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name, head string
		want       bool
	}{
		{"export array", `[{"uuid": "a", "name": "n", "chat_messages": []}]`, true},
		{"single conversation", `{"uuid":"a","chat_messages":[`, true},
		{"byte order mark", "\xef\xbb\xbf\n[{\"uuid\":\"a\",\"chat_messages\":[]}]", true},
		{"cut before chat_messages", `[{"uuid": "a", "name": "n", "summary": "long…`, true},
		{"uuid first, no name", `[{"uuid": "a", "title": "n", "summary": "long…`, false},
		{"object, uuid first", `{"uuid": "a", "name": "n", "summary": "long…`, false},
		{"array of other objects", `[{"id": "a", "uuid": "b", "name": "n"}]`, false},
		{"cut before chat_messages, with account", `[{"uuid": "a", "name": "n", "created_at": "2024-01-01T00:00:00Z", "account": {"uuid": "b"}, "summary": "long…`, true},
		{"one message", `{"uuid": "m", "text": "hi", "sender": "human"}`, true},
		{"chatgpt export", `[{"title": "t", "create_time": 1.7e9, "mapping": {"r": {"id": "r", "message": null, "children": ["a"]}}, "current_node": "a", "chat_messages": 1}]`, false},
		{"portable browser export", `{"indexedDB": {"threads": [{"id": "uuid", "name": "T", "messages": [{"text": "hi", "sender": "Human"}]}]}}`, false},
		{"word as a value", `{"note": "chat_messages", "x": "uuid"}`, false},
		{"jsonl line", `{"type":"user","uuid":"u","message":{"role":"user","content":"hi"}}`, false},
		{"not json", `chat_messages: uuid sender`, false},
		{"empty", ``, false},
	}
	p := New()
	for _, tt := range tests {
		if got := p.Detect("conversations.json", []byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestDetectOthers makes sure no file of another family is claimed.
func TestDetectOthers(t *testing.T) {
	if parsertest.DetectTree(t, New(), func(path string) bool {
		return strings.Contains(filepath.ToSlash(path), "/claude-ai/")
	}, "../../testdata/corpus", "../../examples") == 0 {
		t.Error("no file of this family under the roots: the test checked nothing")
	}
}

func TestTimeOrder(t *testing.T) {
	res := parsertest.ParseFile(t, New(), "testdata/quirks.json")
	var ids []string
	for _, m := range res.Conversations[0].Messages {
		ids = append(ids, m.ID[len(m.ID)-1:])
	}
	// b and a share a time: file order (b first) decides; d has no time and
	// stays after c, which comes before it in the file.
	if got := strings.Join(ids, ""); got != "bacd" {
		t.Errorf("order %q, want bacd", got)
	}
	c := res.Conversations[0]
	if got := c.Messages[2].Timestamp.Format("15:04:05"); got != "10:05:00" {
		t.Errorf("message 2 at %s", got)
	}
	if !c.Messages[3].Timestamp.IsZero() {
		t.Errorf("a message with no time got %v", c.Messages[3].Timestamp)
	}
	if c.Messages[3].Role != conversation.RoleAssistant {
		t.Errorf("message with no sender: role %q, want assistant", c.Messages[3].Role)
	}
}

func TestMarkup(t *testing.T) {
	res := parsertest.ParseFile(t, New(), "testdata/quirks.json")
	c := res.Conversations[0]
	a := c.Messages[1]
	if want := "A fixed-size ring buffer does it.\n\n[artifact: Ring & buffer for log lines]\n\nEach Add overwrites the oldest line once the ring is full."; a.Content != want {
		t.Errorf("content %q, want %q", a.Content, want)
	}
	if a.Thinking != "Short, reusable code: an artifact fits." {
		t.Errorf("thinking %q", a.Thinking)
	}
	if len(c.Artifacts) != 2 {
		t.Fatalf("%d artifacts, want 2: %+v", len(c.Artifacts), c.Artifacts)
	}
	want := conversation.Artifact{
		Type: "application/vnd.ant.code", Title: "Ring & buffer for log lines",
		Description: "identifier: ring-buffer, language: go",
		Content:     "type Ring struct {\n\tlines []string\n\tnext  int\n\tfull  bool\n}", MessageIndex: 1,
	}
	if c.Artifacts[0] != want {
		t.Errorf("artifact\n got %+v\nwant %+v", c.Artifacts[0], want)
	}
	// Cut short: the artifact runs to the end of the text.
	cut := c.Artifacts[1]
	if cut.Title != "Cut short" || cut.MessageIndex != 3 || !strings.HasSuffix(cut.Content, "one element per") {
		t.Errorf("cut artifact %+v", cut)
	}
	if strings.Contains(c.Messages[3].Content, "# Ring notes") {
		t.Errorf("artifact text left in the message: %q", c.Messages[3].Content)
	}
}

func TestExtractMarkup(t *testing.T) {
	tests := []struct {
		in, content, thinking string
		arts                  int
	}{
		{"plain text", "plain text", "", 0},
		{"<antThinking>why</antThinking>answer", "answer", "why", 0},
		{"a <antThinking>one</antThinking> b <antThinking>two</antThinking> c", "a\n\nb\n\nc", "one\n\ntwo", 0},
		{"<antThinking>never closed", "", "never closed", 0},
		{`x <antArtifact title="T">body</antArtifact> y`, "x\n\n[artifact: T]\n\ny", "", 1},
		{`<antArtifact identifier="only-id">body</antArtifact>`, "[artifact: only-id]", "", 1},
		{`<antArtifact identifier="no end of tag`, `<antArtifact identifier="no end of tag`, "", 0},
	}
	for _, tt := range tests {
		content, thinking, arts := extractMarkup(tt.in)
		if content != tt.content || thinking != tt.thinking || len(arts) != tt.arts {
			t.Errorf("extractMarkup(%q) = %q, %q, %d artifacts; want %q, %q, %d", tt.in, content, thinking, len(arts), tt.content, tt.thinking, tt.arts)
		}
	}
}

func TestContentBlocks(t *testing.T) {
	c := parsertest.ParseFile(t, New(), "testdata/newer.json").Conversations[0]
	if len(c.Summaries) != 1 || !strings.Contains(c.Summaries[0], "PgBouncer in transaction mode") {
		t.Errorf("summaries %q", c.Summaries)
	}
	u := c.Messages[0]
	if !strings.HasPrefix(u.Content, "We run 40 replicas") || !strings.Contains(u.Content, "[attachment: pg_stat_activity.txt]\nstate   | count") {
		t.Errorf("user content %q: want the text, then the attachment's extracted content", u.Content)
	}
	if len(u.Attachments) != 1 || u.Attachments[0] != (conversation.Attachment{Name: "pg_stat_activity.txt", Type: "text/plain", Size: 412}) {
		t.Errorf("attachments %+v", u.Attachments)
	}
	if u.ParentID != "" {
		t.Errorf("first message has parent %q", u.ParentID)
	}

	a := c.Messages[1]
	want := "400 connections over 40 replicas leaves 10 per pod, minus headroom for migrations and psql. Most of yours are idle, so a pooler pays off.\n\nWith PgBouncer in transaction mode, give each pod a pool of 8 and let PgBouncer hold 150 server connections."
	if a.Content != want {
		t.Errorf("content from blocks\n got %q\nwant %q", a.Content, want)
	}
	if !strings.HasPrefix(a.Thinking, "400/40 = 10 per replica") {
		t.Errorf("thinking %q", a.Thinking)
	}
	if len(a.ToolCalls) != 1 || a.ToolCalls[0].Name != "web_search" || a.ToolCalls[0].Arguments != `{"query":"pgbouncer transaction mode prepared statements pgx"}` {
		t.Errorf("tool calls %+v", a.ToolCalls)
	}
	if len(a.ToolResults) != 1 || a.ToolResults[0].CallID != "toolu_01QbX3mWkP9eR2tYvN8sLhDc" ||
		!strings.HasPrefix(a.ToolResults[0].Content, "PgBouncer features\nhttps://www.pgbouncer.org/features.html\nTransaction pooling") {
		t.Errorf("tool results %+v", a.ToolResults)
	}
	if a.Model != "" || a.ParentID != u.ID {
		t.Errorf("assistant parent %q, want %q", a.ParentID, u.ID)
	}

	// No content blocks: the text is read.
	if got := c.Messages[3].Content; got != "You could, but a deploy doubles the pods for a minute and you would hit max_connections." {
		t.Errorf("text fallback %q", got)
	}
	// files and files_v2 name the same file once.
	if got := c.Messages[4].Attachments; len(got) != 1 || got[0].Name != "current-config.png" || got[0].Type != "image" {
		t.Errorf("files %+v", got)
	}

	// The artifacts tool: an artifact, a marker, and arguments without the text.
	last := c.Messages[5]
	if want := "Here is the configuration.\n\n[artifact: pgbouncer.ini for the orders service]\n\nDecision: PgBouncer in transaction mode, pool 8 per pod, because deploys double the pods."; last.Content != want {
		t.Errorf("content %q, want %q", last.Content, want)
	}
	if len(c.Artifacts) != 1 || c.Artifacts[0].MessageIndex != 5 || c.Artifacts[0].Type != "application/vnd.ant.code" ||
		!strings.Contains(c.Artifacts[0].Content, "pool_mode = transaction") || c.Artifacts[0].Description != "identifier: pgbouncer-ini, language: ini" {
		t.Errorf("artifacts %+v", c.Artifacts)
	}
	if strings.Contains(last.ToolCalls[0].Arguments, "pool_mode") || !strings.Contains(last.ToolCalls[0].Arguments, `"command":"create"`) {
		t.Errorf("artifact call arguments %q", last.ToolCalls[0].Arguments)
	}
}

func TestBranches(t *testing.T) {
	c := parsertest.ParseFile(t, New(), "testdata/newer.json").Conversations[0]
	var got []string
	for _, m := range c.Messages {
		got = append(got, m.Branch)
	}
	// The prompt "Could we skip PgBouncer" (and its answer) was replaced by
	// "Write the pgbouncer.ini then": both answer message 1.
	if want := []string{"", "", "1", "1", "", ""}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("branches %q, want %q", got, want)
	}
	if c.Messages[2].ParentID != c.Messages[1].ID || c.Messages[4].ParentID != c.Messages[1].ID {
		t.Errorf("parents %q, %q, want %q", c.Messages[2].ParentID, c.Messages[4].ParentID, c.Messages[1].ID)
	}
}

func TestConversationFields(t *testing.T) {
	res := parsertest.ParseFile(t, New(), "testdata/quirks.json")
	mixed := res.Conversations[2]
	if got := mixed.Date.Format("2006-01-02T15:04:05Z"); got != "2024-05-03T08:00:00Z" {
		t.Errorf("date from epoch seconds: %s", got)
	}
	if got := mixed.Messages[0].Content; got != "Is fsync on the folder needed after rename?" {
		t.Errorf("content given as a string: %q", got)
	}
	noID := res.Conversations[3]
	if !strings.HasPrefix(noID.ID, "20240504-") {
		t.Errorf("derived id %q, want the date prefix 20240504-", noID.ID)
	}
	// Attachments as {} and files as null are no attachments; a pasted text
	// with no name is still kept.
	c := res.Conversations[0]
	if len(c.Messages[2].Attachments) != 0 {
		t.Errorf("attachments %+v", c.Messages[2].Attachments)
	}
	if got := c.Messages[0].Content; !strings.HasSuffix(got, "[attachment: untitled]\n2024-05-01 09:59:58 worker 3: retrying upload (attempt 4)") {
		t.Errorf("pasted text %q", got)
	}
	if got := c.Messages[0].Attachments; len(got) != 1 || got[0].Size != 2048 || got[0].Type != "txt" {
		t.Errorf("attachment size given as a string: %+v", got)
	}
	if !c.Date.Equal(c.Messages[0].Timestamp.Add(-5e9)) || c.Updated.Format("15:04") != "10:06" {
		t.Errorf("date %v updated %v", c.Date, c.Updated)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, in string
		kind     error
		line     int
	}{
		{"empty", "", parsers.ErrSyntax, 0},
		{"blank", " \n\n ", parsers.ErrSyntax, 0},
		{"number", "\n\n42", parsers.ErrShape, 3},
		{"string", `"conversations"`, parsers.ErrShape, 1},
		{"bad value", "[\n  {\"uuid\": \"x\",\n   \"name\": oops}\n]", parsers.ErrSyntax, 3},
		{"cut in the first conversation", "[\n {\"uuid\": \"x\",\n  \"chat_messages\": [\n", parsers.ErrSyntax, 4},
		{"object cut", "{\"uuid\": \"x\",\n\"name\": \"n\"", parsers.ErrSyntax, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseString(tt.in)
			parsertest.CheckError(t, err, "/x/conversations.json", tt.line, tt.kind)
		})
	}
}

// TestCutExport: an export cut after its first conversation yields that one,
// with a warning placing the cut.
func TestCutExport(t *testing.T) {
	in := "[\n{\"uuid\": \"x\", \"name\": \"first\", \"chat_messages\": []},\n{\"uuid\": \"y\",\n\"chat_mess"
	res, err := parseString(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conversations) != 1 || res.Conversations[0].ID != "x" {
		t.Errorf("conversations %+v", res.Conversations)
	}
	if len(res.Warnings) != 1 || !errors.Is(res.Warnings[0], parsers.ErrSyntax) || !strings.Contains(res.Warnings[0].Error(), "conversations.json:4:") {
		t.Errorf("warnings %v", res.Warnings)
	}
}

// TestMissingComma: the damage is placed on the line of the element after
// the missing comma.
func TestMissingComma(t *testing.T) {
	res, err := parseString("[\n{\"uuid\": \"x\"}\n  {\"uuid\": \"y\"}]")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conversations) != 1 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), "conversations.json:3:") {
		t.Errorf("%d conversations, warnings %v", len(res.Conversations), res.Warnings)
	}
}

func TestDuplicateIDs(t *testing.T) {
	res, err := parseString(`[{"uuid":"x","name":"a"},{"uuid":"x","name":"b"},{"uuid":"x","name":"c"}]`)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range res.Conversations {
		ids = append(ids, c.ID)
	}
	if got := strings.Join(ids, " "); got != "x x~2 x~3" || len(res.Warnings) != 2 {
		t.Errorf("ids %q, warnings %v", got, res.Warnings)
	}
}

func TestEmptyArray(t *testing.T) {
	res, err := parseString("[]")
	if err != nil || len(res.Conversations) != 0 || len(res.Warnings) != 0 {
		t.Errorf("[] = %+v, %v", res, err)
	}
}

func TestWarningLine(t *testing.T) {
	res, err := parseString("[\n{\"uuid\": \"x\", \"chat_messages\": []},\n\n7,\n{\"uuid\": \"y\"}]")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conversations) != 2 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), "conversations.json:4:") {
		t.Errorf("%d conversations, warnings %v", len(res.Conversations), res.Warnings)
	}
}

func TestCancel(t *testing.T) {
	parsertest.CheckCancel(t, New(), "c.json", parsertest.ReadFile(t, examples+"conversations.json"))
}

func TestTitleShortening(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  short\n question  ", "short question"},
		{strings.Repeat("é", 81), strings.Repeat("é", 80) + "…"},
		{strings.Repeat("word ", 30), strings.TrimSpace(strings.Repeat("word ", 16)) + "…"},
	}
	for _, tt := range tests {
		if got := loose.Shorten(tt.in, 80); got != tt.want {
			t.Errorf("loose.Shorten(%q, 80) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), "conversations.json",
		corpus+"example.json", "testdata/newer.json", "testdata/quirks.json", "testdata/single.json")
}

// TestSourceAttachmentSize: a base64 payload counts its decoded bytes, its
// padding left out; other data counts as it is.
func TestSourceAttachmentSize(t *testing.T) {
	for src, want := range map[string]int64{
		`{"type": "base64", "media_type": "image/png", "data": "aGk="}`: 2,
		`{"type": "base64", "media_type": "image/png", "data": "aGk/"}`: 3,
		`{"type": "base64", "media_type": "image/png", "data": "aA=="}`: 1,
		`{"type": "text", "media_type": "text/plain", "data": "hello"}`: 5,
	} {
		a, ok := sourceAttachment(block{Type: []byte(`"image"`), Source: []byte(src)})
		if !ok || a.Size != want {
			t.Errorf("%s: size %d (ok %v), want %d", src, a.Size, ok, want)
		}
	}
}

// The artifacts tool's arguments, written again without the artifact's
// text, read as text: no "\u003c" for "<", no escapes the file had.
func TestToolArtifactArgumentsReadAsText(t *testing.T) {
	in := `{"command": "create", "id": "page", "title": "A <b> & na\u00efve", "type": "text/html", "content": "<p>x</p>"}`
	_, args, ok := toolArtifact("artifacts", json.RawMessage(in))
	if want := `{"command":"create","id":"page","title":"A <b> & naïve","type":"text/html"}`; !ok || args != want {
		t.Errorf("arguments %s, %v; want %s", args, ok, want)
	}
}

// TestTorn cuts real exports at many offsets, as a partial copy or download
// would: the conversations before the tear are kept whole, and of the one
// it went through, the messages written whole before it; the message it
// cut is dropped, with a warning.
func TestTorn(t *testing.T) {
	files := []string{"../../testdata/corpus/claude-ai/artifacts.json", "../../testdata/corpus/claude-ai/example.json",
		"testdata/newer.json", "testdata/single.json"}
	more, _ := filepath.Glob("/work/shared/corpus/claude-ai/*.json")
	for _, file := range append(files, more...) {
		t.Run(file, func(t *testing.T) {
			data := parsertest.ReadFile(t, file)
			chats := parsertest.Arrays(t, data, "chat_messages")
			roots := parsertest.Arrays(t, data, "")
			var convs parsertest.Array // the root array, if the export is one
			if len(roots) > 0 {
				convs = roots[0]
			}
			parsertest.CheckTorn(t, New(), file, data, parsertest.Cuts(data, append(chats, roots...)...), func(cut int) []byte {
				// The conversation torn, j, spans data[start:end].
				j, start, end := 0, 0, -1
				if len(roots) > 0 {
					j, _ = convs.Within(cut)
					start = convs.Open
					if j > 0 {
						start = convs.Ends[j-1]
					}
					if j == len(convs.Ends) {
						return append(append([]byte{}, data[:start]...), ']') // all whole
					}
					end = convs.Ends[j]
				}
				var want []byte
				for _, a := range chats {
					if a.Open > start && a.Open < cut {
						// Its messages whole before the tear.
						k, _ := a.Within(cut)
						want = a.Keep(data, k, end)
						break
					}
				}
				if want == nil {
					if j == 0 {
						return nil
					}
					want = append([]byte{}, data[:start]...)
				}
				if len(roots) > 0 {
					want = append(want, ']')
				}
				return want
			})
		})
	}
}
