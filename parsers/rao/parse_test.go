package rao

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

// writeLog writes a conversation folder under a temp dir and returns the
// log's path.
func writeLog(t *testing.T, folder, log string, side map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "rstudio-ai", "conversations", folder)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range side {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, logName)
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		log  string
		kind error
		line int
	}{
		{"empty file", "", parsers.ErrSyntax, 0},
		{"blank file", " \n\n", parsers.ErrSyntax, 0},
		{"cut short", `[{"id":1,"role":"user","content":"half`, parsers.ErrSyntax, 1},
		{"bad json on line 3", "[\n  {\"id\": 1,\n    \"role\" \"user\"}\n]", parsers.ErrSyntax, 3},
		{"an object", `{"messages":[]}`, parsers.ErrShape, 1},
		{"a string", `"conversation"`, parsers.ErrShape, 1},
		{"a number", "\n\n42", parsers.ErrShape, 3},
		{"two documents", `[] []`, parsers.ErrSyntax, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "conversation_9", logName)
			_, err := New().Parse(context.Background(), path, strings.NewReader(tt.log))
			parsertest.CheckError(t, err, path, tt.line, tt.kind)
		})
	}
}

func TestParseEmptyLogs(t *testing.T) {
	// A new log is "[]"; R's NULL is written as {}; neither is a conversation
	// or an error. An array of nothing but nulls holds no message either.
	for _, log := range []string{"[]", "[]\n", " [ ] ", "{}", "null", "\xef\xbb\xbf[]", "[null,null]"} {
		path := filepath.Join(t.TempDir(), "conversation_1", logName)
		res, err := New().Parse(context.Background(), path, strings.NewReader(log))
		if err != nil {
			t.Errorf("Parse(%q): %v", log, err)
			continue
		}
		if len(res.Conversations) != 0 || len(res.Warnings) != 0 {
			t.Errorf("Parse(%q) = %d conversations, %v warnings; want none", log, len(res.Conversations), res.Warnings)
		}
	}
}

func TestBadElementsWarnWithLine(t *testing.T) {
	log := "[\n  {\"id\": 1, \"role\": \"user\", \"content\": \"q\"},\n  42,\n  \"text\",\n  [1],\n  {\"id\": 2, \"role\": \"assistant\", \"content\": \"a\"}\n]\n"
	path := writeLog(t, "conversation_5", log, nil)
	res := parsertest.ParseFile(t, New(), path)
	if len(res.Conversations) != 1 || len(res.Conversations[0].Messages) != 2 {
		t.Fatalf("got %d conversations, want 1 with 2 messages", len(res.Conversations))
	}
	if len(res.Warnings) != 3 {
		t.Fatalf("got %d warnings, want 3: %v", len(res.Warnings), res.Warnings)
	}
	for i, w := range res.Warnings {
		var pe *parsers.Error
		if !errors.As(w, &pe) || pe.Path != path || pe.Line != i+3 || !errors.Is(w, parsers.ErrShape) {
			t.Errorf("warning %d = %v: want %s line %d, ErrShape", i, w, path, i+3)
		}
	}
}

func TestFullFixture(t *testing.T) {
	res := parsertest.ParseFile(t, New(), fixtures+"conversation_1/conversation_log.json")
	c := res.Conversations[0]
	msg := func(id string) conversation.Message {
		for _, m := range c.Messages {
			if m.ID == id {
				return m
			}
		}
		t.Fatalf("no message %s", id)
		return conversation.Message{}
	}

	if c.Source != "rao" || c.Project != "" {
		t.Errorf("source %q project %q", c.Source, c.Project)
	}
	// Dates come from the side files (local times read as UTC).
	if want := time.Date(2025, 6, 28, 12, 18, 2, 0, time.UTC); !c.Date.Equal(want) {
		t.Errorf("date %v, want %v (attachments.csv)", c.Date, want)
	}
	if want := time.Date(2025, 6, 28, 12, 24, 30, 0, time.UTC); !c.Updated.Equal(want) {
		t.Errorf("updated %v, want %v (file_changes.json)", c.Updated, want)
	}

	// related_to: a number, [] (none).
	if got := msg("2").ParentID; got != "1" {
		t.Errorf("message 2 parent %q, want 1", got)
	}
	if got := msg("15").ParentID; got != "" {
		t.Errorf("message 15 (related_to []) parent %q, want none", got)
	}
	// Arguments are JSON text inside a string: unwrapped once.
	if got := msg("3").ToolCalls; len(got) != 1 || got[0].Name != "read_file" || got[0].Arguments != `{"filename":"data/penguins.csv","start_line":1,"end_line":5}` {
		t.Errorf("message 3 tool calls %+v", got)
	}
	// Outputs name their call's tool; start_line {} and the like are no trouble.
	for id, tool := range map[string]string{"4": "read_file", "7": "edit_file", "9": "run_file"} {
		m := msg(id)
		if m.Role != conversation.RoleTool || len(m.ToolResults) != 1 || m.ToolResults[0].Name != tool {
			t.Errorf("message %s: role %s results %+v, want one %s result", id, m.Role, m.ToolResults, tool)
		}
	}
	if m := msg("9"); !m.Hidden || !strings.Contains(m.ToolResults[0].Content, "Chinstrap      48.8") {
		t.Errorf("message 9: hidden %v content %q", m.Hidden, m.ToolResults[0].Content)
	}
	if m := msg("10"); !m.Hidden || m.Role != conversation.RoleUser {
		t.Errorf("procedural message 10: hidden %v role %s", m.Hidden, m.Role)
	}
	// The run_file call keeps the script the user accepted.
	if m := msg("8"); !strings.Contains(m.Content, "geom_boxplot()") {
		t.Errorf("message 8 content %q lacks its modified_script", m.Content)
	}
	// The plot: named after plots (a string, unboxed), no payload.
	m := msg("11")
	if m.Content != "Generated plot:" || len(m.Attachments) != 1 {
		t.Fatalf("message 11: content %q attachments %+v", m.Content, m.Attachments)
	}
	if a := m.Attachments[0]; a.Name != "plot_20250628_121954" || a.Type != "image/png" || a.Size == 0 || !strings.HasSuffix(a.Ref, "plots/plots_11.json") {
		t.Errorf("plot attachment %+v", a)
	}
	if m := msg("14"); !m.Cancelled || !m.Partial {
		t.Errorf("message 14: cancelled %v partial %v", m.Cancelled, m.Partial)
	}
	if m := msg("15"); m.Cancelled {
		t.Error("message 15 has cancelled: false but reads as cancelled")
	}
	// attachments.csv: message 1's file on message 1, the other as a note.
	if a := msg("1").Attachments; len(a) != 1 || a[0].Name != "penguins.csv" || a[0].Type != "text/csv" {
		t.Errorf("message 1 attachments %+v", a)
	}

	kinds := map[string]int{}
	for _, n := range c.Notes {
		kinds[n.Kind]++
	}
	if kinds["file_change"] != 3 || kinds["diff"] != 2 || kinds["script"] != 1 || kinds["attachment"] != 1 {
		t.Errorf("notes by kind %v", kinds)
	}
	for _, n := range c.Notes {
		switch {
		case n.Kind == "script" && n.Text != "summarise_penguins.R\nscratch.R":
			t.Errorf("script history %q, want the files in their order", n.Text)
		case n.Kind == "diff" && n.Title == "diff of summarise_penguins.R" && n.Text != "+ library(dplyr)\n+ library(ggplot2)":
			t.Errorf("diff text %q", n.Text)
		case n.Kind == "file_change" && strings.HasPrefix(n.Title, "remove") && n.Text != "x <- 1\n":
			t.Errorf("a removal keeps what the file was: %q", n.Text)
		}
	}
	if len(c.Summaries) != 1 || !strings.Contains(c.Summaries[0], "Chinstrap 48.8 mm") {
		t.Errorf("summaries %q", c.Summaries)
	}
}

func TestLegacyShapes(t *testing.T) {
	res := parsertest.ParseFile(t, New(), "testdata/legacy-ai/conversation_7/conversation_log.json")
	c := res.Conversations[0]
	ms := c.Messages
	// The names file beside the conversation folder, with R's row names.
	if c.Title != `Tidy model of "mtcars" fuel use, by weight` {
		t.Errorf("title %q", c.Title)
	}
	// A character vector of length 2 is an array of strings.
	if ms[0].Content != "Fit lm(mpg ~ wt) on mtcars\nand report the slope with its 95% interval." {
		t.Errorf("content %q", ms[0].Content)
	}
	if ms[1].Role != conversation.RoleSystem || !ms[1].Hidden {
		t.Errorf("developer message: role %s hidden %v", ms[1].Role, ms[1].Hidden)
	}
	// function_call as JSON text; related_to as a string.
	if tc := ms[2].ToolCalls; len(tc) != 1 || tc[0].Name != "run_console_cmd" || tc[0].Arguments != `{"command":"confint(lm(mpg ~ wt, data = mtcars))"}` || ms[2].ParentID != "1" {
		t.Errorf("message 3: calls %+v parent %q", tc, ms[2].ParentID)
	}
	// An output without its type; its text an array of lines.
	if r := ms[3].ToolResults; ms[3].Role != conversation.RoleTool || len(r) != 1 || r[0].Name != "run_console_cmd" || !strings.HasPrefix(r[0].Content, "                2.5 %    97.5 %\n(Intercept)") {
		t.Errorf("message 4: role %s results %+v", ms[3].Role, r)
	}
	if ms[4].Role != conversation.RoleAssistant || ms[4].Content != "Edit contents without a role" {
		t.Errorf("message 5: role %s content %q", ms[4].Role, ms[4].Content)
	}
	// Arguments as an object, and content beside the call.
	if tc := ms[5].ToolCalls; len(tc) != 1 || !strings.HasPrefix(tc[0].Arguments, `{"filename":"model.R",`) || ms[5].Content != "I'll also save the model." {
		t.Errorf("message 6: calls %+v content %q", tc, ms[5].Content)
	}
	// output {} is R's NULL: an empty result, not "{}".
	if r := ms[6].ToolResults; len(r) != 1 || r[0].Content != "" {
		t.Errorf("message 7 results %+v", r)
	}
	// A data URL pasted into text is replaced by its description; a file part
	// is an attachment.
	if strings.Contains(ms[7].Content, "base64") || !strings.Contains(ms[7].Content, "[image/png data, ") {
		t.Errorf("message 8 content %q", ms[7].Content)
	}
	if a := ms[7].Attachments; len(a) != 1 || a[0].Name != "mtcars_notes.txt" {
		t.Errorf("message 8 attachments %+v", a)
	}
	// Content as a single part object; model kept.
	if ms[8].Content != "The slope is −5.34 mpg per 1000 lb (95% CI −6.49 to −4.20)." || ms[8].Model != "gpt-4.1" {
		t.Errorf("message 9: content %q model %q", ms[8].Content, ms[8].Model)
	}
}

func TestSideFileWarningsNameBothFiles(t *testing.T) {
	path := fixtures + "conversation_4/conversation_log.json"
	res := parsertest.ParseFile(t, New(), path)
	want := []struct {
		side string
		kind error
	}{
		{"", parsers.ErrShape}, // log element 42
		{"summaries.json", parsers.ErrSyntax},
		{"file_changes.json", parsers.ErrShape},
	}
	if len(res.Warnings) != len(want) {
		t.Fatalf("warnings %v, want %d", res.Warnings, len(want))
	}
	for i, w := range want {
		got := res.Warnings[i]
		if !strings.Contains(got.Error(), path) || !strings.Contains(got.Error(), w.side) || !errors.Is(got, w.kind) {
			t.Errorf("warning %d = %v: want it to name %s and %s and be %v", i, got, path, w.side, w.kind)
		}
	}
	if !strings.Contains(res.Warnings[1].Error(), "summaries.json:") {
		t.Errorf("summaries warning %v lacks a line", res.Warnings[1])
	}
	// The messages are all there.
	if n := len(res.Conversations[0].Messages); n != 4 {
		t.Errorf("%d messages, want 4", n)
	}
}

func TestOrderAndDateFromMtime(t *testing.T) {
	// Ids out of file order are put in id order; with no dated side file the
	// date is the log's mtime, and the id carries no date.
	log := `[{"id":3,"role":"assistant","content":"c","related_to":2},{"id":1,"role":"user","content":"first question","original_query":true},{"id":2,"role":"user","content":"b","related_to":{}}]`
	path := writeLog(t, "conversation_12", log, nil)
	mtime := time.Date(2024, 3, 9, 8, 7, 6, 0, time.UTC)
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	c := parsertest.ParseFile(t, New(), path).Conversations[0]
	var ids []string
	for _, m := range c.Messages {
		ids = append(ids, m.ID)
	}
	if strings.Join(ids, ",") != "1,2,3" {
		t.Errorf("message ids %v, want 1,2,3", ids)
	}
	if c.Messages[1].ParentID != "" {
		t.Errorf("related_to {} gave parent %q", c.Messages[1].ParentID)
	}
	if !c.Date.Equal(mtime) || !c.Updated.Equal(mtime) {
		t.Errorf("date %v updated %v, want the mtime %v", c.Date, c.Updated, mtime)
	}
	if want := conversation.NewID("rao:conversation_12:first question", time.Time{}); c.ID != want {
		t.Errorf("id %s, want %s", c.ID, want)
	}
	if c.Title != "first question" {
		t.Errorf("title %q", c.Title)
	}

	// Mixed ids: file order is kept.
	log = `[{"id":2,"role":"user","content":"q"},{"role":"assistant","content":"no id"},{"id":1,"role":"assistant","content":"a"}]`
	c = parsertest.ParseFile(t, New(), writeLog(t, "conversation_13", log, nil)).Conversations[0]
	if got := c.Messages[0].Content + "," + c.Messages[1].Content + "," + c.Messages[2].Content; got != "q,no id,a" {
		t.Errorf("mixed ids reordered: %s", got)
	}
}

func TestIDIgnoresSideFilesAndPlace(t *testing.T) {
	log := `[{"id":1,"role":"user","content":"How do I pin package versions?","original_query":true},{"id":2,"role":"assistant","content":"Use renv.","related_to":1}]`
	bare := parsertest.ParseFile(t, New(), writeLog(t, "conversation_3", log, nil)).Conversations[0]
	dressed := parsertest.ParseFile(t, New(), writeLog(t, "conversation_3", log, map[string]string{
		"summaries.json":               `{"summaries":{"1":{"query_number":1,"timestamp":"2025-01-02 03:04:05","summary_text":"renv"}}}`,
		"../../conversation_names.csv": "\"conversation_id\",\"name\"\n3,\"Pinning packages\"\n",
	})).Conversations[0]
	if bare.ID != dressed.ID {
		t.Errorf("id %s without side files, %s with them", bare.ID, dressed.ID)
	}
	if dressed.Title != "Pinning packages" || bare.Title != "How do I pin package versions?" {
		t.Errorf("titles %q and %q", dressed.Title, bare.Title)
	}
	if want := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC); !dressed.Date.Equal(want) {
		t.Errorf("date %v, want %v from summaries.json", dressed.Date, want)
	}
	other := parsertest.ParseFile(t, New(), writeLog(t, "conversation_4", log, nil)).Conversations[0]
	if other.ID == bare.ID {
		t.Error("two conversation folders with the same first question share an id")
	}
}

func TestDiffsBothKeysAndDefaultNames(t *testing.T) {
	log := `[{"id":1,"role":"user","content":"q","original_query":true},{"id":5,"role":"assistant","function_call":{"name":"edit_file","arguments":"{\"filename\":\"a.R\"}","call_id":"call_1","msg_id":5},"related_to":1}]`
	diff := `{"message_id":"5","timestamp":"2025-02-03 04:05:06","diff_data":[{"type":"added","content":"x <- 1","display_line":1,"old_line":"NA","new_line":1}],"old_content":"","new_content":"x <- 1"}`
	path := writeLog(t, "conversation_8", log, map[string]string{
		"conversation_diffs.json":      `{"diffs_by_msg_id":{"5":` + diff + `},"diffs":{"5":` + diff + `}}`,
		"../../conversation_names.csv": "\"conversation_id\",\"name\"\n8,\"New conversation 8\"\n",
		"../conversation_names.csv":    "\"conversation_id\",\"name\"\n8,\"New conversation\"\n",
		"attachments.csv":              "\"timestamp\",\"message_id\",\"file_path\",\"file_id\",\"vector_store_id\"\n\"2025-02-03 04:00:00\",NA,\"C:\\Users\\me\\data.xlsx\",NA,NA\n",
		"script_history.tsv":           "filename\torder\tconversation_index\n",
	})
	res := parsertest.ParseFile(t, New(), path)
	if len(res.Warnings) != 0 {
		t.Errorf("warnings %v", res.Warnings)
	}
	c := res.Conversations[0]
	if c.Title != "q" {
		t.Errorf("title %q: default names must not be titles", c.Title)
	}
	var diffs, atts []conversation.Note
	for _, n := range c.Notes {
		switch n.Kind {
		case "diff":
			diffs = append(diffs, n)
		case "attachment":
			atts = append(atts, n)
		}
	}
	if len(diffs) != 1 || diffs[0].Title != "diff of a.R" || diffs[0].Text != "+ x <- 1" {
		t.Errorf("diffs %+v: want one, read once from both keys", diffs)
	}
	if len(atts) != 1 || atts[0].Title != "data.xlsx" {
		t.Errorf("attachment notes %+v", atts)
	}
	if want := time.Date(2025, 2, 3, 4, 0, 0, 0, time.UTC); !c.Date.Equal(want) {
		t.Errorf("date %v, want %v", c.Date, want)
	}
}

func TestUnreadableCompanionWarns(t *testing.T) {
	log := `[{"id":1,"role":"user","content":"q"}]`
	path := writeLog(t, "conversation_2", log, nil)
	// A folder where a side file should be cannot be read.
	if err := os.Mkdir(filepath.Join(filepath.Dir(path), summariesName), 0o755); err != nil {
		t.Fatal(err)
	}
	res := parsertest.ParseFile(t, New(), path)
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), path) || !strings.Contains(res.Warnings[0].Error(), summariesName) {
		t.Errorf("warnings %v, want one naming the log and %s", res.Warnings, summariesName)
	}
	if len(res.Conversations) != 1 {
		t.Errorf("%d conversations, want 1", len(res.Conversations))
	}
}

func TestParseCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conversation_1", logName)
	parsertest.CheckCancel(t, New(), path, []byte(`[{"id":1,"role":"user","content":"q"}]`))
}

func TestDeriveTitle(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"  short\n\tquestion  ", "short question"},
		{strings.Repeat("word ", 30), strings.TrimSpace(strings.Repeat("word ", 16)) + "…"},
		{strings.Repeat("é", 100), strings.Repeat("é", 80) + "…"},
	}
	for _, tt := range tests {
		if got := deriveTitle(tt.in); got != tt.want {
			t.Errorf("deriveTitle(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
