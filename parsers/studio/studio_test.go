package studio

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

const corpus = "../../testdata/corpus/studio/"

// Counts, roles, titles and ids below were read from the files with jq and
// python (ids: sha256 of "studio:<root ids>:<base name>", dated by the
// earliest timestamp), not copied from the parser.
var cases = []parsertest.Case{
	// Real exports.
	{File: corpus + "318be31/comments.json", Golden: "318be31.comments.json.json",
		Want: []parsertest.Want{{ID: "20241126-b1665c9e", Title: "1", Messages: 5, Roles: "uuuuu"}}},
	// The Text export of the same tree: its one reply part holds
	// "[object Promise]" instead of comments 4 and "awe".
	{File: corpus + "318be31/comments.text", Golden: "318be31.comments.text.json", Warnings: 1,
		Want: []parsertest.Want{{ID: "20241126-00a831f0", Title: "1", Messages: 3, Roles: "uuu"}}},
	{File: corpus + "318be31/comments.xml", Golden: "318be31.comments.xml.json",
		Want: []parsertest.Want{{ID: "20241126-e5b1778d", Title: "1", Messages: 5, Roles: "uuuuu"}}},
	{File: corpus + "7b92254/comments.json", Golden: "7b92254.comments.json.json",
		Want: []parsertest.Want{{ID: "20241126-223edf6f", Title: "qwertyuio", Messages: 3, Roles: "uuu"}}},
	{File: corpus + "7b92254/comments.text", Golden: "7b92254.comments.text.json",
		Want: []parsertest.Want{{ID: "20241126-8d2375d7", Title: "qwertyuio", Messages: 3, Roles: "uuu"}}},
	{File: corpus + "7b92254/comments.xml", Golden: "7b92254.comments.xml.json",
		Want: []parsertest.Want{{ID: "20241126-bc4a211b", Title: "qwertyuio", Messages: 3, Roles: "uuu"}}},
	{File: corpus + "920de45/comments2.json",
		Want: []parsertest.Want{{ID: "20241126-9f519dfe", Title: "2", Messages: 6, Roles: "uuuuuu"}}},
	{File: corpus + "d632495/comments.long.xml",
		Want: []parsertest.Want{{ID: "20241126-7ced99ac", Title: "1", Messages: 5, Roles: "uuuuu"}}},

	// Hand-written fixtures, one per shape the spec and the exporters'
	// history describe.
	{File: "testdata/spec.json", // types, artifacts, deleted, parentId, null and http URLs, numeric id, string timestamp, {} children
		Want: []parsertest.Want{{ID: "20241210-36dcb3a9", Title: "What is in the file abc.txt? Summarise the rollout checklist.", Messages: 6, Roles: "uauusu"}}},
	{File: "testdata/odd.json", Warnings: 2, // string attachments, {content} attachments, non-comment child, bad children
		Want: []parsertest.Want{{ID: "20241125-51629dcb", Title: "42", Messages: 2, Roles: "uu"}}},
	{File: "testdata/nested.text", // CRLF, replies as nested sections, Content-Data, blob: URL, empty root
		Want: []parsertest.Want{{ID: "20241130-0318e8cd", Title: "Should the nightly export run before or after the vacuum job?", Messages: 5, Roles: "uuuuu"}}},
	{File: "testdata/legacy.text", // the earliest export: tab-indented replies, no ids
		Want: []parsertest.Want{{ID: "20241123-6ef75f1c", Title: "Which queue should the thumbnailer read from?", Messages: 5, Roles: "uuuuu"}}},
	{File: "testdata/spec.xml", // CDATA and plain content, entities, attributes, artifacts, deleted
		Want: []parsertest.Want{{ID: "20241212-8b8faca1", Title: "Index layout: one Bleve index per source, or one index with a <source> field &…", Messages: 5, Roles: "uauuu"}}},

	// The example: the same tree as JSON and as the export worker's Text.
	{File: "../../examples/studio/comments.json", Golden: "example.comments.json.json",
		Want: []parsertest.Want{{ID: "20250311-c42ae9da", Title: "Retry policy for the Ledger API sync worker?", Messages: 7, Roles: "uauauau"}}},
	{File: "../../examples/studio/comments.text", Golden: "example.comments.text.json",
		Want: []parsertest.Want{{ID: "20250311-a7f126dc", Title: "Retry policy for the Ledger API sync worker?", Messages: 7, Roles: "uauauau"}}},
}

func TestParse(t *testing.T) {
	parsertest.Run(t, New(), cases)
}

// shape is what must agree between exports of one tree: everything but the
// conversation id (which names the file).
type shape struct {
	ID, ParentID, Content, Branch string
	Role                          conversation.Role
	Millis                        int64
	Attachments                   []conversation.Attachment
}

func shapes(c *conversation.Conversation) []shape {
	out := make([]shape, len(c.Messages))
	for i, m := range c.Messages {
		out[i] = shape{m.ID, m.ParentID, m.Content, m.Branch, m.Role, m.Timestamp.UnixMilli(), m.Attachments}
	}
	return out
}

// TestSameTreeAcrossFormats checks that the JSON, Text and XML exports of one
// tree read the same, message for message.
func TestSameTreeAcrossFormats(t *testing.T) {
	groups := []struct {
		files []string
		// The long XML holds whole data URLs where the others cut them:
		// only its attachment sizes may differ.
		noSize bool
	}{
		{files: []string{corpus + "7b92254/comments.json", corpus + "7b92254/comments.text", corpus + "7b92254/comments.xml"}},
		{files: []string{corpus + "318be31/comments.json", corpus + "318be31/comments.xml"}},
		{files: []string{corpus + "318be31/comments.json", corpus + "d632495/comments.long.xml"}, noSize: true},
		{files: []string{"../../examples/studio/comments.json", "../../examples/studio/comments.text"}},
	}
	for _, tg := range groups {
		g := tg.files
		want := parsertest.ParseOne(t, New(), g[0])
		for _, f := range g[1:] {
			got := parsertest.ParseOne(t, New(), f)
			if tg.noSize {
				for i := range got.Messages {
					for j := range got.Messages[i].Attachments {
						got.Messages[i].Attachments[j].Size = 0
					}
				}
			}
			if len(got.Messages) != len(want.Messages) {
				t.Errorf("%s: %d messages, %s has %d", f, len(got.Messages), g[0], len(want.Messages))
				continue
			}
			if !reflect.DeepEqual(shapes(got), shapes(want)) {
				t.Errorf("%s reads differently from %s:\n got %+v\nwant %+v", f, g[0], shapes(got), shapes(want))
			}
			if got.Title != want.Title || !got.Date.Equal(want.Date) || !got.Updated.Equal(want.Updated) {
				t.Errorf("%s: title/date/updated %q %v %v, %s has %q %v %v", f, got.Title, got.Date, got.Updated, g[0], want.Title, want.Date, want.Updated)
			}
		}
	}
}

// TestObjectPromise pins what the broken Text export of 318be31 gives: the
// three comments that are in the file, exactly as the JSON export has them,
// and one warning naming the reply that lost its comments.
func TestObjectPromise(t *testing.T) {
	path := corpus + "318be31/comments.text"
	res := parsertest.ParseFile(t, New(), path)
	if len(res.Conversations) != 1 {
		t.Fatalf("Parse(%s): %d conversations, want 1", path, len(res.Conversations))
	}
	full := shapes(parsertest.ParseOne(t, New(), corpus+"318be31/comments.json"))
	got := shapes(res.Conversations[0])
	if len(got) != 3 || len(full) != 5 {
		t.Fatalf("text has %d messages, json %d; want 3 and 5", len(got), len(full))
	}
	if !reflect.DeepEqual(got, full[:3]) {
		t.Errorf("text messages differ from the JSON export's first three:\n got %+v\nwant %+v", got, full[:3])
	}
	if len(res.Warnings) != 1 {
		t.Fatalf("warnings %v, want 1", res.Warnings)
	}
	w := res.Warnings[0].Error()
	for _, s := range []string{path + ":38:", "1732588772420", "[object Promise]"} {
		if !strings.Contains(w, s) {
			t.Errorf("warning %q does not contain %q", w, s)
		}
	}
	if !errors.Is(res.Warnings[0], parsers.ErrShape) {
		t.Errorf("warning %v is not ErrShape", res.Warnings[0])
	}
}

// TestTree checks parents and branches on the fixtures with real
// branching.
func TestTree(t *testing.T) {
	type msg struct{ ID, ParentID, Branch string }
	tests := []struct {
		file string
		want []msg
	}{
		{corpus + "920de45/comments2.json", []msg{
			{"1732585959605", "", "0"},
			{"1732585962055", "1732585959605", "0"},
			{"1732585984106", "1732585962055", "0"},
			{"1732586021356", "", "1"},
			// Children older than their parent keep the file's order.
			{"1732585965874", "1732586021356", "1"},
			{"1732585956372", "1732586021356", "1.1"},
		}},
		{"testdata/nested.text", []msg{
			{"1733000000000", "", "0"},
			{"1733000060000", "1733000000000", "0"},
			{"1733000120000", "1733000060000", "0"},
			{"1732999990000", "1733000000000", "0.1"},
			{"1733000500000", "", "1"},
		}},
		{"testdata/legacy.text", []msg{
			{"", "", "0"}, {"", "", "0"}, {"", "", "0"}, {"", "", "0.1"}, {"", "", "1"},
		}},
		{"testdata/deep-fork.json", []msg{
			{"r", "", "0"},
			{"a", "r", "0"},
			{"b", "a", "0"},
			{"", "b", "0"},
			{"c", "b", "0.0.0.1"},
			{"d", "c", "0.0.0.1"},
			{"e", "r", "0.1"},
			{"s", "", "1"},
			{"", "s", "1"},
			{"t", "s", "1.1"},
		}},
		{"testdata/spec.json", []msg{
			{"1733794702200ka59h", "", "0"},
			{"1733794710000soijv", "1733794702200ka59h", "0"},
			{"1733794790000abcde", "1733794710000soijv", "0"},
			{"1733794715000xyzzy", "1733794702200ka59h", "0.1"},
			{"1733794700000older", "1733794715000xyzzy", "0.1"},
			{"1733794800000", "", "1"},
		}},
	}
	for _, tt := range tests {
		c := parsertest.ParseOne(t, New(), tt.file)
		var got []msg
		for _, m := range c.Messages {
			got = append(got, msg{m.ID, m.ParentID, m.Branch})
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %v\nwant %v", tt.file, got, tt.want)
		}
	}
}

func TestFields(t *testing.T) {
	c := parsertest.ParseOne(t, New(), "testdata/spec.json")
	if !c.Messages[3].Deleted || c.Messages[1].Deleted {
		t.Errorf("deleted flags: %v %v, want false true", c.Messages[1].Deleted, c.Messages[3].Deleted)
	}
	wantArt := []conversation.Artifact{{Type: "code", Title: "Rollout Stages Chart", Description: "Click to open component; command: create", MessageIndex: 1}}
	if !reflect.DeepEqual(c.Artifacts, wantArt) {
		t.Errorf("artifacts %+v, want %+v", c.Artifacts, wantArt)
	}
	wantAtt := []conversation.Attachment{
		{Name: "document.pdf", Type: "application/pdf", Ref: "https://example.com/files/document.pdf"},
		{Name: "example.png", Type: "image/png", Size: 70}, // 96 base64 characters, two of them padding
	}
	if !reflect.DeepEqual(c.Messages[5].Attachments, wantAtt) {
		t.Errorf("attachments %+v, want %+v", c.Messages[5].Attachments, wantAtt)
	}
	if got := c.Messages[5].Timestamp.UnixMilli(); got != 1733794800000 {
		t.Errorf("string timestamp read as %d", got)
	}

	c = parsertest.ParseOne(t, New(), "testdata/odd.json")
	if got := c.Messages[1].Content; got != "Inline image: ![chart]([image/png data, 70 bytes]) shows the spike." {
		t.Errorf("inline data URL not stripped: %q", got)
	}
	c = parsertest.ParseOne(t, New(), corpus+"920de45/comments2.json")
	want := []conversation.Attachment{{Name: "NDA - Prospective Consultant, Employee or 3rd Party.signed.pdf", Type: "application/pdf"}}
	if got := c.Messages[3].Attachments; !reflect.DeepEqual(got, want) {
		t.Errorf("hand-truncated data URL: %+v, want %+v (no size: the payload is cut)", got, want)
	}
	if got, want := authors(c), userIDs(t, corpus+"920de45/comments2.json"); !reflect.DeepEqual(got, want) {
		t.Errorf("authors %v, want the file's userIds %v", got, want)
	}
	if got := c.Messages[2].Attachments; len(got) != 1 || got[0].Ref != "" || got[0].Name != "ff2.png" {
		t.Errorf("blob: URL attachment: %+v, want name ff2.png and no ref", got)
	}
	if c.Date.UnixMilli() != 1732585956372 || c.Updated.UnixMilli() != 1732586021356 {
		t.Errorf("date %v updated %v: want the oldest child and the newest root", c.Date, c.Updated)
	}
}

func TestAttachment(t *testing.T) {
	tests := []struct {
		name, typ, url string
		want           conversation.Attachment
	}{
		{"a.png", "image/png", "data:image/png;base64,AAAA", conversation.Attachment{Name: "a.png", Type: "image/png", Size: 3}},
		{"a.png", "", "data:image/png;base64,AAAA", conversation.Attachment{Name: "a.png", Type: "image/png", Size: 3}},
		{"a.png", "image/png", "data:image/png;base64,iVBORw0K...Jggg==", conversation.Attachment{Name: "a.png", Type: "image/png"}},
		{"a.png", "image/png", "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAWkAAAE9CAIAAABGBgT4AAAAAXNSR0IArs4c6QAAAARnQU1BAACxjwv8YQUAAAAg...", conversation.Attachment{Name: "a.png", Type: "image/png"}},
		{"x.pdf", "application/pdf", "blob:http://localhost:5174/e2d6d144", conversation.Attachment{Name: "x.pdf", Type: "application/pdf"}},
		{"x.pdf", "", "https://example.com/x.pdf", conversation.Attachment{Name: "x.pdf", Ref: "https://example.com/x.pdf"}},
		{"abc.txt", "text/plain", "", conversation.Attachment{Name: "abc.txt", Type: "text/plain"}},
		{"abc.txt", "text/plain", "null", conversation.Attachment{Name: "abc.txt", Type: "text/plain"}},
		{" n ", "", "data:,hello", conversation.Attachment{Name: "n", Size: 5}},
	}
	for _, tt := range tests {
		if got := attachment(tt.name, tt.typ, tt.url); got != tt.want {
			t.Errorf("attachment(%q, %q, %.40q) = %+v, want %+v", tt.name, tt.typ, tt.url, got, tt.want)
		}
	}
}

func TestForkBranch(t *testing.T) {
	tests := []struct {
		parent string
		zeros  int
		i      int
		want   string
	}{
		{"0", 0, 1, "0.1"},
		{"0", 2, 1, "0.0.0.1"},
		{"2", 1, 3, "2.0.3"},
		{"0.1", 0, 2, "0.1.2"},
		{"10.0.11", 1, 1, "10.0.11.0.1"},
	}
	for _, tt := range tests {
		if got := forkBranch(tt.parent, tt.zeros, tt.i); got != tt.want {
			t.Errorf("forkBranch(%q, %d, %d) = %q, want %q", tt.parent, tt.zeros, tt.i, got, tt.want)
		}
	}
}

func TestFirstLine(t *testing.T) {
	long := strings.Repeat("word ", 30)
	tests := []struct{ in, want string }{
		{"", ""},
		{"\n\n  hello   world \nsecond", "hello world"},
		{long, strings.TrimSpace(strings.Repeat("word ", 15)) + "…"},
		{strings.Repeat("é", 100), strings.Repeat("é", 79) + "…"},
	}
	for _, tt := range tests {
		if got := firstLine(tt.in, 80); got != tt.want {
			t.Errorf("firstLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// authors lists the messages' authors, sorted.
func authors(c *conversation.Conversation) []string {
	var out []string
	for _, m := range c.Messages {
		out = append(out, m.Author)
	}
	slices.Sort(out)
	return out
}

// userIDs reads every comment's userId from a studio JSON file, sorted.
func userIDs(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	type comment struct {
		UserID   string    `json:"userId"`
		Children []comment `json:"children"`
	}
	var roots []comment
	if err := json.Unmarshal(b, &roots); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func([]comment)
	walk = func(cs []comment) {
		for _, c := range cs {
			out = append(out, c.UserID)
			walk(c.Children)
		}
	}
	walk(roots)
	slices.Sort(out)
	return out
}

func TestRoles(t *testing.T) {
	tests := []struct {
		typ, user string
		want      conversation.Role
		author    string
	}{
		{"", "user-139", conversation.RoleUser, "user-139"},
		{"user", "assistant", conversation.RoleUser, "assistant"},
		{"assistant", "maya", conversation.RoleAssistant, "maya"},
		{"Assistant", "", conversation.RoleAssistant, ""},
		{"system", "", conversation.RoleSystem, ""},
		{"tool", "", conversation.RoleTool, ""},
		{"moderator", "", conversation.RoleUser, ""},
		{"", "assistant", conversation.RoleAssistant, ""},
		{"", " User ", conversation.RoleUser, ""},
	}
	for _, tt := range tests {
		n := &node{typ: tt.typ, userID: tt.user}
		got := role(n)
		if got != tt.want {
			t.Errorf("role(type %q, user %q) = %s, want %s", tt.typ, tt.user, got, tt.want)
		}
		if a := author(n, got); a != tt.author {
			t.Errorf("author(type %q, user %q) = %q, want %q", tt.typ, tt.user, a, tt.author)
		}
	}
}

func TestDetect(t *testing.T) {
	p := New()
	tests := []struct {
		path string
		head string
		want bool
	}{
		{"comments.json", `[{"id": "1", "userId": "u", "children": []}]`, true},
		{"export.json", "\ufeff[\n  {\n    \"id\": \"1\",\n    \"content\": \"x\",\n    \"children\": [],\n    \"userId\": \"u\"", true},
		// A long first content hides the markers; the download name vouches.
		{"comments (1).json", `[{"id": "1", "content": "` + strings.Repeat("x", 5000), true},
		{"other.json", `[{"id": "1", "content": "` + strings.Repeat("x", 5000), false},
		{"comments.json", `[]`, false},
		{"comments.json", `[{"role": "user", "content": "hi"}]`, false},
		{"conversation_log.json", `[{"id":1,"role":"user","content":"x","related_to":{}}]`, false},
		{"x.json", `{"comments": [{"id": "1", "userId": "u", "children": []}]}`, false},
		{"x.json", `[{"id": "1", "contentHash": "abc", "children": []}]`, true},
		{"x.json", `[{"content": "x", "userId": "u", "timestamp": 1}]`, false},
		{"conversations.json", `[{"title": "t", "mapping": {"a": {"id": "a", "message": {"attachments": []}, "children": ["b"]}}}]`, false},
		{"users.json", `[{"id": 1, "userId": "u", "title": "todo"}]`, false},
		{"comments.xml", `<?xml version="1.0" encoding="UTF-8"?>` + "\n<comments>\n  <comment>\n    <id>1</id>\n    <userId>u</userId>", true},
		{"word/comments.xml", `<?xml version="1.0"?><w:comments><w:comment w:id="0"><w:p/></w:comment></w:comments>`, false},
		{"feed.xml", `<rss><channel><comments>http://x</comments></channel></rss>`, false},
		{"comments.text", "Content-Type: multipart/mixed; boundary=\"----Boundaryx\"\n\n------Boundaryx\nContent-Type: text/plain; charset=\"UTF-8\"\nUser-Id: u\nHash: h\n", true},
		{"comments.text", "User-Id: user-1\nHash: abc\nTimestamp: 1732400000000\n\nhello\n", true},
		{"mail.eml", "Content-Type: multipart/mixed; boundary=\"b\"\n\n--b\nContent-Type: text/plain\n\nhello\n--b--\n", false},
		{"notes.txt", "User-Id: 12\nsome notes\n", false},
		{"empty.json", "", false},
		{"blank.text", "   \n\n", false},
	}
	for _, tt := range tests {
		if got := p.Detect(tt.path, []byte(tt.head)); got != tt.want {
			t.Errorf("Detect(%s, %.60q) = %v, want %v", tt.path, tt.head, got, tt.want)
		}
	}
}

// TestDetectOthers makes sure no other family's file is claimed, and every
// studio file is.
func TestDetectOthers(t *testing.T) {
	p := New()
	for _, root := range []string{"../../testdata/corpus", "../../examples", "../"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "fuzz" || d.Name() == "golden" {
					return filepath.SkipDir
				}
				return nil
			}
			head, err := parsers.ReadHead(path)
			if err != nil {
				return err
			}
			ours := strings.Contains(filepath.ToSlash(path), "/studio/")
			if strings.HasSuffix(path, ".go") {
				ours = false
			}
			if got := p.Detect(path, head); got != ours {
				t.Errorf("Detect(%s) = %v, want %v", path, got, ours)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, data string
		kind       error
		line       int
	}{
		{"comments.json", "", parsers.ErrSyntax, 0},
		{"comments.json", "  \n \n", parsers.ErrSyntax, 0},
		{"comments.json", "[\n  {\"id\": \"1\",\n   \"content\": oops}\n]", parsers.ErrSyntax, 3},
		{"comments.json", "[\n  {\"id\": \"1\", \"children\": [", parsers.ErrSyntax, 2},
		{"comments.json", `{"foo": 1}`, parsers.ErrShape, 1},
		{"comments.json", `[1, 2, "x"]`, parsers.ErrShape, 1},
		{"comments.json", `[{"role": "user"}]`, parsers.ErrShape, 1},
		{"comments.xml", "<?xml version=\"1.0\"?>\n<comments>\n  <comment>\n    <id>1</id>\n", parsers.ErrSyntax, 5},
		{"comments.xml", "<?xml version=\"1.0\"?>\n<comments>\n  <comment><id>1</ix></comment>\n</comments>", parsers.ErrSyntax, 3},
		{"comments.xml", "<rss><channel/></rss>", parsers.ErrShape, 1},
		{"comments.text", "just some notes\nwith no headers\n", parsers.ErrShape, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tt.name)
			_, err := New().Parse(context.Background(), path, strings.NewReader(tt.data))
			parsertest.CheckError(t, err, path, tt.line, tt.kind)
		})
	}
}

// TestEmptyExports: an export of an empty board is no conversation and no
// error.
func TestEmptyExports(t *testing.T) {
	for _, data := range []string{
		"[]",
		"[\n]\n",
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<comments/>",
		"Content-Type: multipart/mixed; boundary=\"----Boundaryabc\"\n\n------Boundaryabc--\n",
	} {
		res, err := New().Parse(context.Background(), "comments", strings.NewReader(data))
		if err != nil {
			t.Errorf("Parse(%q): %v", data, err)
			continue
		}
		if len(res.Conversations) != 0 || len(res.Warnings) != 0 {
			t.Errorf("Parse(%q) = %d conversations, %v; want none", data, len(res.Conversations), res.Warnings)
		}
	}
}

// TestTextQuirks covers Text shapes the fixtures do not: the export
// worker's Parent-Id on a section not nested in its parent, sections cut
// short, and attachments before their comment.
func TestTextQuirks(t *testing.T) {
	tests := []struct {
		name     string
		data     string
		ids      []string
		parents  []string
		warnings int
	}{
		{"cut short", "Content-Type: multipart/mixed; boundary=\"B\"\n\n--B\nUser-Id: u\nE-Tag: 1\n\nhello\n--B\nContent-Disposition: reply; to=1\nContent-Type: multipart/mixed; boundary=\"C\"\n\n--C\nUser-Id: v\nE-Tag: 2\n\nhi",
			[]string{"1", "2"}, []string{"", "1"}, 1},
		{"parent-id", "Content-Type: multipart/mixed; boundary=\"M\"\n\n--M\nContent-Type: multipart/mixed; boundary=\"A\"\n--A\nUser-Id: u\nId: a\n\nfirst\n\n--A--\n\n--M\nContent-Type: multipart/mixed; boundary=\"B\"\n--B\nUser-Id: u\nId: b\nParent-Id: a\n\nsecond\n\n--B--\n\n--M--\n",
			[]string{"a", "b"}, []string{"", "a"}, 0},
		{"reply to a missing comment", "Content-Type: multipart/mixed; boundary=\"M\"\n\n--M\nContent-Disposition: reply; to=gone\nContent-Type: multipart/mixed; boundary=\"C\"\n\n--C\nUser-Id: v\nE-Tag: 2\n\nhi\n--C--\n--M--\n",
			[]string{"2"}, []string{"gone"}, 0},
		{"attachment first", "Content-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: image/png\nContent-Disposition: attachment; filename=\"a.png\"\nContent-Location: data:image/png;base64,AAAA\n\n--B\nUser-Id: u\nE-Tag: 1\n\nhello\n--B--\n",
			[]string{"1"}, []string{""}, 0},
		{"orphan attachment", "Content-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: image/png\nContent-Disposition: attachment; filename=\"a.png\"\n\n--B--\nContent-Type: multipart/mixed; boundary=\"C\"\n\n--C\nUser-Id: u\nE-Tag: 1\n\nhello\n--C--\n",
			[]string{"1"}, []string{""}, 1},
	}
	for _, tt := range tests {
		res, err := New().Parse(context.Background(), "comments.text", strings.NewReader(tt.data))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if len(res.Warnings) != tt.warnings {
			t.Errorf("%s: warnings %v, want %d", tt.name, res.Warnings, tt.warnings)
		}
		if len(res.Conversations) != 1 {
			t.Errorf("%s: %d conversations", tt.name, len(res.Conversations))
			continue
		}
		var ids, parents []string
		for _, m := range res.Conversations[0].Messages {
			ids = append(ids, m.ID)
			parents = append(parents, m.ParentID)
		}
		if !reflect.DeepEqual(ids, tt.ids) || !reflect.DeepEqual(parents, tt.parents) {
			t.Errorf("%s: ids %v parents %v, want %v %v", tt.name, ids, parents, tt.ids, tt.parents)
		}
		if tt.name == "attachment first" {
			if a := res.Conversations[0].Messages[0].Attachments; len(a) != 1 || a[0].Name != "a.png" {
				t.Errorf("%s: attachments %+v", tt.name, a)
			}
		}
	}
}

// TestBOM: a byte order mark from an editor does not stop any format.
func TestBOM(t *testing.T) {
	for _, f := range []string{corpus + "318be31/comments.json", corpus + "318be31/comments.text", corpus + "318be31/comments.xml"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data = append([]byte("\ufeff"), data...)
		if !New().Detect(f, data[:min(len(data), parsers.HeadSize)]) {
			t.Errorf("Detect(%s with a BOM) = false", f)
		}
		res, err := New().Parse(context.Background(), f, bytes.NewReader(data))
		if err != nil {
			t.Errorf("Parse(%s with a BOM): %v", f, err)
			continue
		}
		if len(res.Conversations) != 1 || len(res.Conversations[0].Messages) < 3 {
			t.Errorf("Parse(%s with a BOM): %d conversations", f, len(res.Conversations))
		}
	}
}

func TestCancel(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 5000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"id":"x","userId":"u","children":[]}`)
	}
	b.WriteString("]")
	parsertest.CheckCancel(t, New(), "comments.json", []byte(b.String()))
}

// TestDeepText makes sure nesting depth costs no recursion.
func TestDeepText(t *testing.T) {
	var b strings.Builder
	const depth = 20000
	for i := range depth {
		b.WriteString("Content-Type: multipart/mixed; boundary=\"B")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString("\"\n--B")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString("\nUser-Id: u\n\nc\n--B")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString("\nContent-Disposition: reply\n")
	}
	res, err := New().Parse(context.Background(), "comments.text", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Conversations[0].Messages); n != depth {
		t.Errorf("%d messages, want %d", n, depth)
	}
}

// TestDeepJSONChain: the app's chat mode makes every reply the child of the
// previous one, so a long chat is a deep tree. Reading it must stay linear.
func TestDeepJSONChain(t *testing.T) {
	const depth = 4000 // encoding/json allows 10000 levels: two per comment
	var b strings.Builder
	for i := range depth {
		fmt.Fprintf(&b, `[{"id":"%d","userId":"u","timestamp":%d,"content":"%s","attachments":[],"children":`, i, 1732000000000+i, strings.Repeat("x", 500))
	}
	b.WriteString("[]")
	for range depth {
		b.WriteString("}]")
	}
	// Linear is measured in bytes allocated, not time (which varies with
	// the machine): a parse that copied the rest of the chain at each level
	// would allocate thousands of times the input.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := New().Parse(context.Background(), "comments.json", strings.NewReader(b.String()))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Conversations[0]
	if len(c.Messages) != depth || c.Messages[depth-1].ParentID != strconv.Itoa(depth-2) || c.Messages[depth-1].Branch != "0" {
		t.Errorf("%d messages, last %+v", len(c.Messages), c.Messages[depth-1])
	}
	t.Logf("allocated %d bytes for %d of input", after.TotalAlloc-before.TotalAlloc, b.Len())
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 50*uint64(b.Len()) {
		t.Errorf("a %d-deep chain of %d bytes allocated %d bytes", depth, b.Len(), alloc)
	}
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), "comments.json",
		corpus+"318be31/comments.json", corpus+"318be31/comments.text", corpus+"318be31/comments.xml",
		corpus+"920de45/comments2.json",
		"testdata/spec.json", "testdata/odd.json", "testdata/nested.text", "testdata/legacy.text", "testdata/spec.xml",
		"../../examples/studio/comments.text")
}

// contentEnds returns, for each comment of a JSON export in document order,
// its id and the offset just past its content value (-1 when it has none).
func contentEnds(t *testing.T, data []byte) (ids []string, ends []int) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var walk func(comment bool) error
	walk = func(comment bool) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('['):
			for dec.More() {
				if err := walk(comment); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		case json.Delim('{'):
			me := -1
			if comment {
				me = len(ids)
				ids, ends = append(ids, ""), append(ends, -1)
			}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				switch {
				case me >= 0 && (k == "id" || k == "content"):
					var v any
					if err := dec.Decode(&v); err != nil {
						return err
					}
					if k == "id" {
						ids[me] = fmt.Sprint(v)
					} else {
						ends[me] = int(dec.InputOffset())
					}
				case me >= 0 && k == "children":
					err = walk(true)
				default:
					err = walk(false)
				}
				if err != nil {
					return err
				}
			}
			_, err = dec.Token()
		}
		return err
	}
	if err := walk(true); err != nil {
		t.Fatal(err)
	}
	return ids, ends
}

// TestTornJSON cuts real JSON exports at many offsets, as a partial
// download would: every comment whose content was written whole before the
// tear is kept, with the text of the whole file; the comment whose text the
// tear cut is dropped, with a warning.
func TestTornJSON(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/corpus/studio/*/*.json")
	more, _ := filepath.Glob("/work/shared/corpus/studio/*/*.json")
	files = append(append(files, more...), "testdata/deep-fork.json", "testdata/spec.json")
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			data := parsertest.ReadFile(t, file)
			_, ends := contentEnds(t, data)
			checkTorn(t, file, data, ends)
		})
	}
}

// TestTornXML is TestTornJSON for the XML exports.
func TestTornXML(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/corpus/studio/*/*.xml")
	more, _ := filepath.Glob("/work/shared/corpus/studio/*/*.xml")
	for _, file := range append(append(files, more...), "testdata/spec.xml") {
		t.Run(file, func(t *testing.T) {
			data := parsertest.ReadFile(t, file)
			// Where each comment's </content> ends, in document order.
			var ends, open []int
			var elems []string
			d := xml.NewDecoder(bytes.NewReader(data))
			d.Strict = false
			for {
				tok, err := d.Token()
				if err != nil {
					break
				}
				switch tok := tok.(type) {
				case xml.StartElement:
					elems = append(elems, tok.Name.Local)
					if tok.Name.Local == "comment" {
						open = append(open, len(ends))
						ends = append(ends, -1)
					}
				case xml.EndElement:
					elems = elems[:len(elems)-1]
					switch {
					case tok.Name.Local == "comment":
						open = open[:len(open)-1]
					case tok.Name.Local == "content" && len(elems) > 0 && elems[len(elems)-1] == "comment":
						ends[open[len(open)-1]] = int(d.InputOffset())
					}
				}
			}
			checkTorn(t, file, data, ends)
		})
	}
}

// checkTorn cuts data around the offsets where its comments' content ends
// (-1: none) and checks that what is read of each cut is the whole file's
// first comments, those whose content ends before the cut.
func checkTorn(t *testing.T, file string, data []byte, ends []int) {
	whole := parsertest.ParseOne(t, New(), file)
	var cuts []int
	for i, e := range ends {
		if i < 3 || i%7 == 0 || i >= len(ends)-3 {
			cuts = append(cuts, e-1, e, e+1)
		}
	}
	for _, f := range []int{1, 3, 5, 7, 9} {
		cuts = append(cuts, len(data)*f/10)
	}
	for _, cut := range cuts {
		if cut <= 0 || cut >= len(bytes.TrimRight(data, " \t\r\n")) {
			continue
		}
		want := 0
		for _, e := range ends {
			if e >= 0 && e <= cut {
				want++
			}
		}
		res, err := New().Parse(context.Background(), file, bytes.NewReader(data[:cut]))
		if want == 0 {
			if !errors.Is(err, parsers.ErrSyntax) {
				t.Errorf("cut at %d: got %v, want a syntax error", cut, err)
			}
			continue
		}
		if err != nil || len(res.Conversations) != 1 {
			t.Errorf("cut at %d: %v, want the %d comments whose text is whole", cut, err, want)
			continue
		}
		if len(res.Warnings) == 0 || !errors.Is(res.Warnings[len(res.Warnings)-1], parsers.ErrSyntax) {
			t.Errorf("cut at %d: warnings %v, want one for the tear", cut, res.Warnings)
		}
		got := res.Conversations[0].Messages
		if len(got) != want {
			t.Errorf("cut at %d: %d messages, want %d", cut, len(got), want)
		}
		// Document order is reading order: the kept comments are the
		// whole file's first ones.
		for i, m := range got {
			// The torn comment keeps its fields written whole: an id
			// after its content may be missing.
			if w := whole.Messages[min(i, len(whole.Messages)-1)]; m.ID != w.ID && (m.ID != "" || i < len(got)-1) || m.Content != w.Content {
				t.Errorf("cut at %d: message %d is %s %.40q, want %s %.40q", cut, i, m.ID, m.Content, w.ID, w.Content)
			}
		}
	}
}
