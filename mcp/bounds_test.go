package mcp

import (
	"strings"
	"testing"
)

// TestMCPContextNeedsMessage: context says how many messages before
// message a window starts; without a message to count from, or beside
// offset (which starts the window itself), it is refused rather than
// quietly ignored. A hit's id gives the message.
func TestMCPContextNeedsMessage(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	for _, tc := range []struct {
		args map[string]any
		want string // in the error; "" for an answer
		// first is the window's first message, for an answer.
		first int
	}{
		{map[string]any{"id": fixtureID, "context": 5}, "give message too", 0},
		{map[string]any{"id": fixtureID, "context": 0}, "give message too", 0},
		{map[string]any{"id": fixtureID, "offset": 4, "context": 2}, "not both", 0},
		{map[string]any{"id": fixtureID, "offset": 0, "context": 0}, "offset alone", 0},
		{map[string]any{"id": fixtureID, "message": 10, "context": 2}, "", 8},
		{map[string]any{"id": "m/" + fixtureID + "/10", "context": 3}, "", 7},
		{map[string]any{"id": fixtureID, "offset": 4}, "", 4},
	} {
		res := call(t, cs, "get_conversation", tc.args)
		msg := text(res)
		if tc.want != "" {
			if !res.IsError || !strings.Contains(msg, tc.want) {
				t.Errorf("%v: error %v, %.200q; want an error saying %q", tc.args, res.IsError, msg, tc.want)
			}
			continue
		}
		if res.IsError {
			t.Errorf("%v: %s", tc.args, msg)
			continue
		}
		w, _ := ok[conversationOutput](t, cs, "get_conversation", tc.args)
		if w.First != tc.first {
			t.Errorf("%v: window from message %d, want %d", tc.args, w.First, tc.first)
		}
	}
}

// TestMCPProjectHintAnyCase: a filter by project matches it in any case,
// so the hint after an empty answer does not call a project unknown when
// it exists in another case; it does for one that does not exist.
func TestMCPProjectHintAnyCase(t *testing.T) {
	cs := connect(t, newTestBackend(t))
	const unknown = "No conversation has project"
	for _, tc := range []struct {
		tool    string
		args    map[string]any
		unknown bool // the hint says the project is unknown
	}{
		{"search_conversations", map[string]any{"query": "zzqxnomatch", "project": "GENOME-BROWSER"}, false},
		{"search_conversations", map[string]any{"query": "zzqxnomatch", "project": "Genome-Browser"}, false},
		{"search_conversations", map[string]any{"query": "zzqxnomatch", "project": " genome-browser "}, false},
		{"search_conversations", map[string]any{"query": "zzqxnomatch", "project": "genome-browsers"}, true},
		{"search_conversations", map[string]any{"query": "zzqxnomatch", "project": "nope"}, true},
		{"list_decisions", map[string]any{"query": "zzqxnomatch", "project": "GENOME-BROWSER"}, false},
		{"list_decisions", map[string]any{"query": "zzqxnomatch", "project": "NOPE"}, true},
		{"list_topics", map[string]any{"project": "NOPE"}, true},
	} {
		res := call(t, cs, tc.tool, tc.args)
		msg := text(res)
		if res.IsError {
			t.Errorf("%s(%v): %s", tc.tool, tc.args, msg)
			continue
		}
		if got := strings.Contains(msg, unknown); got != tc.unknown {
			t.Errorf("%s(%v): says the project is unknown: %v, want %v\n%s", tc.tool, tc.args, got, tc.unknown, msg)
		}
	}
	// The filter does match it in that case.
	w, _ := ok[searchOutput](t, cs, "search_conversations", map[string]any{"query": "coordinates", "project": "GENOME-BROWSER"})
	if len(w.Hits) == 0 {
		t.Errorf("project GENOME-BROWSER: no hit, want genome-browser's")
	}
}
