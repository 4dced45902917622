package portable

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/convsearch/convsearch/conversation"
)

// roundTrip returns Parse(Marshal(c)).
func roundTrip(t *testing.T, c *conversation.Conversation) *conversation.Conversation {
	t.Helper()
	out, err := Marshal(c)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	res, err := New().Parse(context.Background(), FileName(c.ID), bytes.NewReader(out))
	if err != nil {
		t.Fatalf("Parse(Marshal(c)): %v\n%s", err, out)
	}
	if len(res.Conversations) != 1 || len(res.Warnings) != 0 {
		t.Fatalf("Parse(Marshal(c)): %d conversations, warnings %v", len(res.Conversations), res.Warnings)
	}
	return res.Conversations[0]
}

// normMessages makes messages comparable with reflect.DeepEqual: times in
// UTC (an offset reads back as an equal instant in another *Location) and
// empty lists as nil.
func normMessages(msgs []conversation.Message) []conversation.Message {
	out := make([]conversation.Message, len(msgs))
	for i, m := range msgs {
		m.Timestamp = m.Timestamp.UTC()
		if len(m.ToolCalls) == 0 {
			m.ToolCalls = nil
		}
		if len(m.ToolResults) == 0 {
			m.ToolResults = nil
		}
		if len(m.Attachments) == 0 {
			m.Attachments = nil
		}
		out[i] = m
	}
	return out
}

func diffMessages(want, got []conversation.Message) error {
	want, got = normMessages(want), normMessages(got)
	if len(want) != len(got) {
		return fmt.Errorf("%d messages, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(want[i], got[i]) {
			return fmt.Errorf("message %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	return nil
}

func TestRoundTripRich(t *testing.T) {
	c := richConversation()
	got := roundTrip(t, c)
	if err := diffMessages(c.Messages, got.Messages); err != nil {
		t.Fatal(err)
	}
	// Everything else the conversation holds comes back too; Source names
	// this parser and the original source becomes a tag.
	if got.ID != c.ID || got.Title != c.Title || got.Project != c.Project || got.Model != c.Model ||
		!got.Date.Equal(c.Date) || !got.Updated.Equal(c.Updated) || got.Source != Name {
		t.Errorf("header: got %q %q %q %q %v %v %q", got.ID, got.Title, got.Project, got.Model, got.Date, got.Updated, got.Source)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"topics", got.Topics, c.Topics},
		{"tags", got.Tags, append(append([]string(nil), c.Tags...), "source:claude-code")},
		{"related", got.RelatedConversations, c.RelatedConversations},
		{"artifacts", got.Artifacts, c.Artifacts},
		{"summaries", got.Summaries, c.Summaries},
	}
	for _, ck := range checks {
		if !reflect.DeepEqual(ck.got, ck.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", ck.name, ck.got, ck.want)
		}
	}
	if len(got.Decisions) != len(c.Decisions) {
		t.Fatalf("decisions: %+v", got.Decisions)
	}
	for i, d := range got.Decisions {
		w := c.Decisions[i]
		if d.Decision != w.Decision || d.Rationale != w.Rationale || !d.Timestamp.Equal(w.Timestamp) || d.MessageIndex != w.MessageIndex || d.Origin != w.Origin {
			t.Errorf("decision %d: got %+v, want %+v", i, d, w)
		}
	}
	if len(got.Notes) != 1 || got.Notes[0].Text != c.Notes[0].Text || got.Notes[0].Kind != c.Notes[0].Kind || !got.Notes[0].Time.Equal(c.Notes[0].Time) {
		t.Errorf("notes: %+v", got.Notes)
	}
}

func TestRoundTripVaried(t *testing.T) {
	zone := time.FixedZone("", -7*3600-30*60)
	t0 := time.Date(2024, 2, 29, 23, 59, 59, 999_999_999, zone)
	tests := []struct {
		name string
		msgs []conversation.Message
	}{
		{"none", nil},
		{"empty texts and no times", []conversation.Message{{Role: conversation.RoleUser}, {Role: conversation.RoleAssistant}}},
		{"unicode and markup", []conversation.Message{
			{Role: conversation.RoleUser, Content: "naïve — “quotes” <script>&amp; \u2028 line sep, emoji 🧬, NUL-free\ttabs\r\nCRLF", Timestamp: t0},
			{Role: conversation.RoleAssistant, Content: "  leading and trailing space  ", Timestamp: t0.Add(time.Nanosecond)},
		}},
		{"arguments of every shape", []conversation.Message{{Role: conversation.RoleAssistant, ToolCalls: []conversation.ToolCall{
			{Name: "a", Arguments: "{}"}, {Name: "b", Arguments: "[]"}, {Name: "c", Arguments: `[1,"x",{"k":null}]`},
			{Name: "d", Arguments: "42"}, {Name: "e", Arguments: "null"}, {Name: "f", Arguments: `"quoted"`},
			{Name: "g", Arguments: " {\"a\":1}"}, {Name: "h", Arguments: "{\n  \"a\": 1\n}"}, {Name: "i", Arguments: "{broken"},
			{Name: "", Arguments: "true"}, {ID: "only-id"},
			{Name: "j", Arguments: `{"q":"na\u00efve \u003c"}`}, {Name: "k", Arguments: `{"q":"naïve <b>","n":1.50}`},
		}}}},
		{"results of every shape", []conversation.Message{{Role: conversation.RoleTool, ToolResults: []conversation.ToolResult{
			{Content: ""}, {Content: "{}"}, {Content: "[]"}, {Content: `{"ok":true}`}, {Content: "null"}, {CallID: "c1", Name: "n", Content: "x", IsError: true},
		}}}},
		{"flags one by one", []conversation.Message{
			{Role: conversation.RoleSystem, Hidden: true}, {Role: conversation.RoleUser, Cancelled: true},
			{Role: conversation.RoleAssistant, Partial: true}, {Role: conversation.RoleTool, Deleted: true},
			{Role: conversation.RoleAssistant, Sidechain: true}, {Role: conversation.RoleUser, Branch: "0"},
			{Role: conversation.RoleUser, Branch: "main/2"}, {Role: conversation.RoleUser, ID: "7", ParentID: "0"},
			{Role: conversation.RoleUser, Author: "user-139"},
		}},
		{"attachments", []conversation.Message{{Role: conversation.RoleUser, Attachments: []conversation.Attachment{
			{Name: "a.pdf", Type: "application/pdf", Size: 1 << 40}, {Ref: "plots/1"}, {},
		}}}},
		{"epoch edges", []conversation.Message{
			{Role: conversation.RoleUser, Timestamp: time.Unix(1, 0).UTC()},
			{Role: conversation.RoleUser, Timestamp: time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &conversation.Conversation{ID: "rt-" + tt.name, Source: "test", Title: tt.name, Messages: tt.msgs}
			c.Renumber()
			if err := diffMessages(c.Messages, roundTrip(t, c).Messages); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestRoundTripFixtures reads every conversation of this package's fixtures
// and examples, and builds random conversations out of their messages with
// random roles, flags, tool traffic and times: each must survive
// Marshal and Parse.
func TestRoundTripFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/conversations/*.json")
	ex, _ := filepath.Glob("../../examples/portable/conversations/*.json")
	files = append(files, ex...)
	var pool []conversation.Message
	for _, f := range files {
		if filepath.Base(f) == "index.json" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		res, err := New().Parse(context.Background(), f, bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Conversations {
			if err := diffMessages(c.Messages, roundTrip(t, c).Messages); err != nil {
				t.Errorf("%s: %v", f, err)
			}
			pool = append(pool, c.Messages...)
		}
	}
	if len(pool) < 20 {
		t.Fatalf("only %d messages in the fixtures", len(pool))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	roles := []conversation.Role{conversation.RoleUser, conversation.RoleAssistant, conversation.RoleSystem, conversation.RoleTool}
	zones := []*time.Location{time.UTC, time.FixedZone("", 5*3600+45*60), time.FixedZone("", -3*3600)}
	pick := func() string { return pool[rng.IntN(len(pool))].Content }
	for n := range 200 {
		c := &conversation.Conversation{ID: "fuzz-" + strconv.Itoa(n), Source: "test"}
		for range rng.IntN(12) {
			m := pool[rng.IntN(len(pool))]
			m.Role = roles[rng.IntN(len(roles))]
			if rng.IntN(3) == 0 {
				m.Timestamp = time.Unix(rng.Int64N(4e9), rng.Int64N(1e9)).In(zones[rng.IntN(len(zones))])
			}
			if rng.IntN(4) == 0 {
				m.Thinking = pick()
			}
			if rng.IntN(4) == 0 {
				m.ToolCalls = []conversation.ToolCall{{ID: strconv.Itoa(rng.IntN(99)), Name: "tool", Arguments: pick()}}
			}
			if rng.IntN(4) == 0 {
				m.ToolResults = []conversation.ToolResult{{CallID: strconv.Itoa(rng.IntN(99)), Content: pick(), IsError: rng.IntN(2) == 0}}
			}
			if rng.IntN(5) == 0 {
				m.Attachments = []conversation.Attachment{{Name: pick(), Type: "text/plain", Size: rng.Int64N(1 << 20)}}
			}
			m.Hidden, m.Cancelled, m.Partial = rng.IntN(5) == 0, rng.IntN(5) == 0, rng.IntN(5) == 0
			m.Deleted, m.Sidechain = rng.IntN(5) == 0, rng.IntN(5) == 0
			if rng.IntN(3) == 0 {
				m.Author = pick()
			}
			if rng.IntN(3) == 0 {
				m.Branch = strconv.Itoa(rng.IntN(3))
			}
			if rng.IntN(2) == 0 {
				m.ID, m.ParentID = strconv.Itoa(n), strconv.Itoa(n-1)
			}
			c.Messages = append(c.Messages, m)
		}
		c.Renumber()
		if err := diffMessages(c.Messages, roundTrip(t, c).Messages); err != nil {
			t.Fatalf("conversation %d: %v", n, err)
		}
	}
}

// FuzzRoundTrip: any valid UTF-8 text in any field survives Marshal and Parse.
func FuzzRoundTrip(f *testing.F) {
	f.Add("hello", "thinking", `{"a":1}`, "out", "0", uint8(1), int64(1764766800123456789))
	f.Add("", "", "{}", "{}", "", uint8(3), int64(0))
	f.Add("data:x,y", " ", " [1]", "null", "main", uint8(2), int64(-1))
	f.Fuzz(func(t *testing.T, content, thinking, args, result, branch string, role uint8, ns int64) {
		for _, s := range []string{content, thinking, args, result, branch} {
			if !utf8.ValidString(s) || strings.Contains(s, ";base64,") {
				t.Skip("invalid UTF-8 is replaced by JSON; base64 payloads are dropped on purpose")
			}
		}
		if strings.HasPrefix(result, "data:") {
			t.Skip("an attachment ref is never a data: URL: Parse keeps only its type and size")
		}
		roles := []conversation.Role{conversation.RoleUser, conversation.RoleAssistant, conversation.RoleSystem, conversation.RoleTool}
		var ts time.Time
		if ns > 0 {
			ts = time.Unix(0, ns).UTC()
		}
		c := &conversation.Conversation{ID: content, Source: "fuzz", Messages: []conversation.Message{{
			Role: roles[int(role)%len(roles)], Content: content, Thinking: thinking, Timestamp: ts, Branch: branch, ID: args, ParentID: result,
			ToolCalls:   []conversation.ToolCall{{ID: branch, Name: content, Arguments: args}},
			ToolResults: []conversation.ToolResult{{CallID: branch, Name: thinking, Content: result}},
			Attachments: []conversation.Attachment{{Name: content, Type: args, Ref: result}},
		}}}
		got := roundTrip(t, c)
		if err := diffMessages(c.Messages, got.Messages); err != nil {
			t.Fatal(err)
		}
	})
}
