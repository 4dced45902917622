package server

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/internal/golden"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/query"
)

// unsafeHTML is markup that must never come out of Markdown: escaped as
// text it is harmless, so these look inside tags only.
var unsafeHTML = []*regexp.Regexp{
	regexp.MustCompile(`(?i)<(script|img|iframe|object|embed|style|svg|input|form)\b`),
	regexp.MustCompile(`(?i)<[^>]*\son[a-z]+\s*=`),
	regexp.MustCompile(`(?i)<[^>]*\s(href|src)\s*=\s*"?\s*(javascript|data|vbscript):`),
	regexp.MustCompile(`(?i)<[^>]*\sstyle\s*=`),
}

// TestMarkdown renders untrusted Markdown and compares it with
// testdata/markdown.golden; whatever the golden file says, no case may
// yield a script, an event handler, a javascript: link or an image.
func TestMarkdown(t *testing.T) {
	cases := []struct{ name, in string }{
		{"emphasis and lists", "Some **bold**, *em* and `code`.\n\n- one\n- two\n\n1. first\n2. second"},
		{"fenced go", "```go\nfunc main() { fmt.Println(\"hi\") }\n```"},
		{"fence without language", "```\nplain text\n```"},
		{"script tag", "before <script>alert(1)</script> after"},
		{"html block", "<div onclick=\"alert(1)\">\n<img src=x onerror=alert(1)>\n</div>"},
		{"javascript link", "[click](javascript:alert(1)) and [ok](https://example.com/a?b=1)"},
		{"data link", "[x](data:text/html;base64,PHNjcmlwdD4=)"},
		{"remote image", "![a cat](https://example.com/cat.png)"},
		{"javascript image", "![x](javascript:alert(1))"},
		{"autolink", "see https://example.com/x and <javascript:alert(1)>"},
		{"table", "| a | b |\n|---|:-:|\n| 1 | 2 |"},
		{"hard wraps", "line one\nline two"},
		{"blank", "  \n"},
	}
	var out strings.Builder
	for _, c := range cases {
		got := Markdown(c.in)
		for _, bad := range unsafeHTML {
			if bad.MatchString(got) {
				t.Errorf("%s: %s in the output: %s", c.name, bad, got)
			}
		}
		out.WriteString("== " + c.name + "\n" + got + "\n")
	}
	golden.Check(t, filepath.Join("testdata", "markdown.golden"), []byte(out.String()))
}

func TestCallPreview(t *testing.T) {
	cases := []struct{ name, args, want string }{
		{"path first", `{"file_path":"/src/a.go","limit":20}`, "/src/a.go"},
		{"command", `{"command":"go test ./...\nsecond line","description":"run tests"}`, "go test ./..."},
		{"argv", `{"cmd":["ls","-la"]}`, "ls -la"},
		{"query", `{"query":"bootstrap BCa"}`, "bootstrap BCa"},
		{"not JSON", "plain words\nmore", "plain words"},
		{"no strings", `{"n":1}`, ""},
		{"no main argument: the first by name", `{"zeta":"last","beta":"second","alpha":"first","n":2}`, "first"},
		{"clipped in runes", strings.Repeat("é", maxPreview+1), strings.Repeat("é", maxPreview) + "…"},
		{"not clipped", strings.Repeat("é", maxPreview), strings.Repeat("é", maxPreview)},
		{"clipped", `{"path":"` + strings.Repeat("x", 200) + `"}`, strings.Repeat("x", maxPreview) + "…"},
	}
	for _, c := range cases {
		if got := callPreview(c.args); got != c.want {
			t.Errorf("%s: callPreview(%q) = %q, want %q", c.name, c.args, got, c.want)
		}
	}
}

func TestViewPages(t *testing.T) {
	c := &conversation.Conversation{ID: "c"}
	for i := range 10 {
		c.Messages = append(c.Messages, conversation.Message{Index: i, Role: conversation.RoleUser, Content: "m"})
	}
	c.Messages[3].ToolCalls = []conversation.ToolCall{{Name: "Read", Arguments: `{"file_path":"x.go"}`}}
	cases := []struct {
		name                  string
		offset, limit         int
		wantOffset, wantCount int
	}{
		{"first page", 0, 4, 0, 4},
		{"middle", 3, 4, 3, 4},
		{"last, short", 8, 4, 8, 2},
		{"past the end", 20, 4, 10, 0},
	}
	for _, tc := range cases {
		v := viewOf(c, false, Page{Offset: tc.offset, Limit: tc.limit})
		if v.Offset != tc.wantOffset || len(v.Messages) != tc.wantCount || v.Total != 10 {
			t.Errorf("%s: offset %d, %d messages of %d; want offset %d, %d of 10", tc.name, v.Offset, len(v.Messages), v.Total, tc.wantOffset, tc.wantCount)
		}
	}
	v := viewOf(c, false, Page{Offset: 3, Limit: 1})
	if got := v.Messages[0].Tools; len(got) != 1 || got[0].Preview != "x.go" || v.Messages[0].ToolCalls != nil {
		t.Errorf("tool call of message 3: %+v", v.Messages[0])
	}
}

// overviewBackend is apiBackend with an overview.
type overviewBackend struct{ apiBackend }

func (overviewBackend) Overview(context.Context) (*query.Overview, error) {
	return &query.Overview{Bucket: "month", Failed: []query.FailedFile{{Path: "/x/bad.json", Error: "cut short"}}}, nil
}

func TestViewAndOverviewEndpoints(t *testing.T) {
	cases := []struct {
		name    string
		backend Backend
		target  string
		status  int
		want    string
	}{
		{"a page", apiBackend{}, "/api/conversations/c1/view?offset=1&limit=2", 200, `"total":5,"offset":1,"messages":[{"index":1`},
		{"around a message", apiBackend{}, "/api/conversations/c1/view?around=4&limit=2", 200, `"offset":3`},
		{"limit too large", apiBackend{}, "/api/conversations/c1/view?limit=100000", 400, "limit 100000 out of range"},
		{"negative offset", apiBackend{}, "/api/conversations/c1/view?offset=-1", 400, "negative"},
		{"unknown parameter", apiBackend{}, "/api/conversations/c1/view?page=2", 400, "page"},
		{"no such conversation", apiBackend{}, "/api/conversations/nope/view", 404, "error"},
		// A hit's id opens at the hit, as around does, and says which it is.
		{"a hit's id", apiBackend{}, "/api/conversations/m%2Flong%2F199/view?limit=20", 200, `"total":250,"offset":189,"messages":[{"index":189`},
		{"a hit's id, focused", apiBackend{}, "/api/conversations/m%2Flong%2F199/view?limit=20", 200, `"focus":199}`},
		{"a hit's id, an offset given", apiBackend{}, "/api/conversations/m%2Flong%2F199/view?offset=0&limit=20", 200, `"offset":0,"messages":[{"index":0`},
		{"a hit's id, around given", apiBackend{}, "/api/conversations/m%2Flong%2F199/view?around=50&limit=20", 200, `"offset":40,`},
		{"a conversation's id: no focus", apiBackend{}, "/api/conversations/long/view?limit=20", 200, `"offset":0,"messages":[{"index":0`},
		{"overview", overviewBackend{}, "/api/overview", 200, `"failed":[{"path":"/x/bad.json"`},
		{"a backend without an overview", apiBackend{}, "/api/overview", 501, "cannot tell an overview"},
	}
	for _, c := range cases {
		h := NewHandler(HandlerOptions{Backend: c.backend})
		status, body := get(t, h, c.target)
		if status != c.status || !strings.Contains(body, c.want) {
			t.Errorf("%s: GET %s = %d %s; want %d and %q", c.name, c.target, status, body, c.status, c.want)
		}
	}
	// Only a hit's id has a message to focus.
	if _, body := get(t, NewHandler(HandlerOptions{Backend: apiBackend{}}), "/api/conversations/long/view?around=3"); strings.Contains(body, `"focus"`) {
		t.Errorf("a conversation's id has a focus: %s", body[max(len(body)-100, 0):])
	}
}
