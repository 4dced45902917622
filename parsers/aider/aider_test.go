package aider

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

const corpus = "../../testdata/corpus/aider/"

// The counts and roles below were derived from the files, not from the
// parser, with this script (a launch per header; consecutive lines of one
// kind are one message: "#### " user, "> " tool, anything else assistant;
// blocks of blank lines only are no message):
//
//	python3 -c '
//	import re,sys
//	for f in sys.argv[1:]:
//	  convs=[]; cur=[]; kind=None; buf=[]
//	  def flush():
//	    global buf
//	    if buf and "".join(buf).strip(): cur.append(kind)
//	    buf=[]
//	  for l in open(f).read().split("\n"):
//	    if re.match(r"^# aider chat started at ", l):
//	      flush(); kind=None
//	      if cur: convs.append("".join(cur))
//	      cur=[]; continue
//	    k = "u" if l.rstrip(" ")=="####" or l.startswith("#### ") else "t" if l.rstrip(" ")==">" or l.startswith("> ") else "a"
//	    if k!=kind: flush(); kind=k
//	    buf.append(l[5:] if k=="u" else l[2:] if k=="t" else l)
//	  flush()
//	  if cur: convs.append("".join(cur))
//	  print(f, [(len(c),c) for c in convs])' FILES
//
// Ids: the header's date, then the first 8 hex digits of sha256("aider\0"
// + the header's time text + "\0" + the first prompt, or the first message
// when there is no prompt), e.g. for 0latency-cli:
//
//	python3 -c 'import hashlib; f=open(FILE).read();
//	  t="\n".join(l[2:].rstrip(" ") for l in f.split("\n") if l.startswith("> "));
//	  print(hashlib.sha256(("aider\0"+"2026-05-09 06:38:37"+"\0"+t).encode()).hexdigest()[:8])'
var cases = []parsertest.Case{
	{
		// aider v0.8x asking for an OpenRouter login: aider's output only.
		File:   corpus + "0latency-cli/" + FileName,
		Golden: "0latency-cli.json",
		Want: []parsertest.Want{{
			ID:       "20260509-268d2225",
			Title:    "aider chat started at 2026-05-09 06:38:37",
			Messages: 1,
			Roles:    "t",
		}},
	},
	{
		File:   "testdata/project/" + FileName,
		Golden: "project.json",
		Want: []parsertest.Want{
			{
				Title:    "The refill in bucket.go can overflow the capacity after a long idle period.",
				Messages: 13,
				Roles:    "tutuatututuat",
			},
			{
				Title:    "why does the limiter key on the IP?",
				Messages: 4,
				Roles:    "tuat",
			},
		},
	},
	{
		// Text before the first header, a header with no message, one
		// with an unreadable time (a warning), only commands, and a last
		// line cut short.
		File:   "testdata/quirks/" + FileName,
		Golden: "quirks.json",
		Want: []parsertest.Want{
			{ID: "00000000-b9172b55", Messages: 2, Roles: "ua"},
			{Title: "/diff", Messages: 3, Roles: "tuu"},
			{Title: "first line of the prompt second line, without aider's two trailing spaces", Messages: 3, Roles: "uta"},
		},
		Warnings: 1,
	},
	{
		// The model's reply holds "####" headings and a "> " quote. aider
		// ends each line of the user's input and of its own output with
		// two spaces (a Markdown line break) and writes the reply as it
		// is: lines without them, inside a reply, are the reply's.
		File:   "testdata/reply-markdown/" + FileName,
		Golden: "reply-markdown.json",
		Want: []parsertest.Want{
			{Title: "how should I structure the release? keep it short", Messages: 3, Roles: "tua"},
		},
	},
	{
		// A log written under another name (--chat-history-file).
		File:   "testdata/named/chat-history.md",
		Golden: "named.json",
		Want: []parsertest.Want{
			{Title: "add a --verbose flag", Messages: 2, Roles: "ua"},
		},
	},
	{
		// A launch that wrote its header and nothing else.
		File:   "testdata/empty/" + FileName,
		Golden: "empty.json",
	},
}

func TestCorpus(t *testing.T) {
	parsertest.Run(t, New(), cases)
}

func TestProject(t *testing.T) {
	res := parsertest.ParseFile(t, New(), "testdata/project/"+FileName)
	c := res.Conversations[0]
	if c.Model != "anthropic/claude-3-7-sonnet-20250219" || res.Conversations[1].Model != "gpt-4o" {
		t.Errorf("models %q, %q", c.Model, res.Conversations[1].Model)
	}
	if c.Project != "project" {
		t.Errorf("project %q", c.Project)
	}
	if got := c.Date.Format("2006-01-02 15:04:05"); got != "2025-03-14 10:02:11" {
		t.Errorf("date %s", got)
	}
	m := c.Messages
	if m[3].Content != "The refill in bucket.go can overflow the capacity after a long idle period.\n\nCap tokens at capacity and add a test for a burst after idle." {
		t.Errorf("multi-line prompt %q", m[3].Content)
	}
	if !strings.Contains(m[4].Content, "# A heading inside the reply stays in the reply") ||
		!strings.HasSuffix(m[4].Content, "at most `capacity` requests.") || m[4].Model != c.Model {
		t.Errorf("reply %+v", m[4])
	}
	if !strings.HasPrefix(m[9].Content, "[base64 data, ") {
		t.Errorf("encoded output kept: %.60q", m[9].Content)
	}
	if m[0].Content != "/home/lena/.local/bin/aider --model sonnet\nAider v0.77.1\nMain model: anthropic/claude-3-7-sonnet-20250219 with diff edit format, infinite output\nWeak model: anthropic/claude-3-5-haiku-20241022\nGit repo: .git with 42 files\nRepo-map: using 4096 tokens, auto refresh" {
		t.Errorf("banner %q", m[0].Content)
	}
}

func TestQuirks(t *testing.T) {
	res := parsertest.ParseFile(t, New(), "testdata/quirks/"+FileName)
	if w := res.Warnings[0].Error(); !strings.Contains(w, FileName+":7: ") {
		t.Errorf("warning %q does not name line 7", w)
	}
	last := res.Conversations[2].Messages
	if last[1].Content != "> a tool line that itself starts with a quote" {
		t.Errorf("tool line %q", last[1].Content)
	}
	if last[2].Content != "The reply, cut short mid-line wit" {
		t.Errorf("cut reply %q", last[2].Content)
	}
	if !res.Conversations[0].Date.IsZero() {
		t.Errorf("headless text dated %v", res.Conversations[0].Date)
	}
}

// TestUnmarkedLog: a log with no line ending in aider's two spaces (an
// editor stripped them) is read by the prefixes alone, as before: a
// "####" line is the user's wherever it is.
func TestUnmarkedLog(t *testing.T) {
	data := string(parsertest.ReadFile(t, "testdata/reply-markdown/"+FileName))
	tests := []struct {
		name, data, roles string
	}{
		{"as aider wrote it", data, "tua"},
		{"trailing spaces stripped", strings.ReplaceAll(data, "  \n", "\n"), "tuauatua"},
	}
	for _, tt := range tests {
		res, err := New().Parse(context.Background(), FileName, strings.NewReader(tt.data))
		if err != nil || len(res.Conversations) != 1 {
			t.Fatalf("%s: %v %+v", tt.name, err, res)
		}
		if got := parsertest.RoleLetters(res.Conversations[0].Messages); got != tt.roles {
			t.Errorf("%s: roles %q, want %q", tt.name, got, tt.roles)
		}
	}
}

func TestErrors(t *testing.T) {
	for _, data := range []string{"", "\n\n", "# aider chat started at 2025-01-01 00:00:00\n"} {
		res, err := New().Parse(context.Background(), FileName, strings.NewReader(data))
		if err != nil || len(res.Conversations) != 0 || len(res.Warnings) != 0 {
			t.Errorf("Parse(%q) = %+v, %v; want nothing", data, res, err)
		}
	}
}

func TestCancelled(t *testing.T) {
	parsertest.CheckCancel(t, New(), FileName, []byte(strings.Repeat("#### hi\n\nhello\n", 1000)))
}

func TestDetect(t *testing.T) {
	tests := []struct {
		name, path, head string
		want             bool
	}{
		{"new log", "/p/" + FileName, "\n# aider chat started at 2025-01-01 10:00:00\n\n", true},
		{"header first", FileName, "# aider chat started at 2025-01-01 10:00:00\n", true},
		{"header after text", FileName, "-*- mode: fundamental -*-\n> x  \n\n# aider chat started at 2025-01-01 10:00:00\n", true},
		{"no header in head", FileName, "#### hi\n\nhello\n", false},
		{"input history", "/p/.aider.input.history", "\n# 2025-01-01 10:00:00.123456\n+hi\n", false},
		// --chat-history-file names the log as the user likes: under
		// another name, the log must start with a launch header.
		{"other name", "/p/chat.md", "\n# aider chat started at 2025-01-01 10:00:00\n", true},
		{"renamed log", "/p/aider.chat.history.md", "\n# aider chat started at 2025-01-01 10:00:00\n", true},
		{"other name, no extension", "/p/history", "# aider chat started at 2025-01-01 10:00:00\n\n> Aider v0.82.2  \n", true},
		{"other name, header after text", "/p/notes.md", "# Notes\n\n# aider chat started at 2025-01-01 10:00:00\n", false},
		{"other name, header without a time", "/p/notes.md", "# aider chat started at some point\n", false},
		{"header text in a quote", FileName, "> # aider chat started at 2025-01-01\n", false},
		{"empty", FileName, "", false},
	}
	p := New()
	for _, tt := range tests {
		if got := p.Detect(tt.path, []byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect(%s) = %v, want %v", tt.name, tt.path, got, tt.want)
		}
	}
}

// TestDetectTree runs Detect over every real file and example of every
// family: only aider's own logs may be claimed.
func TestDetectTree(t *testing.T) {
	claimed := parsertest.DetectTree(t, New(), func(path string) bool {
		return filepath.Base(path) == FileName || path == "testdata/named/chat-history.md"
	}, "../../testdata/corpus", "../../examples", "testdata")
	if claimed < len(cases) {
		t.Errorf("claimed %d files, want at least %d", claimed, len(cases))
	}
}

func TestNoLocator(t *testing.T) {
	if _, ok := any(New()).(parsers.Locator); ok {
		t.Error("aider keeps no central folder: it must not claim default roots")
	}
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), FileName,
		corpus+"0latency-cli/"+FileName, "testdata/project/"+FileName, "testdata/quirks/"+FileName)
}
