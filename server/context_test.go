package server

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/internal/convtest"
	"github.com/convsearch/convsearch/query"
)

// TestContextOnTheEngine: POST /api/context on a real index places the
// hits it is given, by their fields or their id alone, and refuses those
// the index does not hold with a 404 naming them.
func TestContextOnTheEngine(t *testing.T) {
	root := t.TempDir()
	msgs := make([]string, 30)
	for i := range msgs {
		msgs[i] = fmt.Sprintf("message %d about wombats", i)
	}
	if err := convtest.WriteAtomic(filepath.Join(root, "long.json"), convtest.Portable("long-conv-1", "Wombats", msgs...)); err != nil {
		t.Fatal(err)
	}
	e, sum := convtest.Engine(t, root)
	if sum.Conversations != 1 {
		t.Fatalf("index: %+v", sum)
	}
	h := NewHandler(HandlerOptions{Backend: e})
	for _, tc := range []struct {
		name, hits string
		status     int
		context    []int  // the context of the first hit, by message index
		says       string // in the error
		kind       string // of the first hit, when set
	}{
		{"as search returns it", `{"kind": "message", "id": "m/long-conv-1/5", "conversation_id": "long-conv-1", "message_index": 5}`, 200, []int{4, 5, 6}, "", ""},
		{"by its id alone", `{"id": "m/long-conv-1/5"}`, 200, []int{4, 5, 6}, "", ""},
		{"the last message", `{"id": "m/long-conv-1/29"}`, 200, []int{28, 29}, "", ""},
		{"a conversation hit", `{"kind": "conversation", "id": "c/long-conv-1", "conversation_id": "long-conv-1"}`, 200, nil, "", ""},
		{"no such conversation", `{"kind": "message", "conversation_id": "nope", "message_index": 1}`, 404, nil, `hit 0 (conversation "nope"): no such conversation`, ""},
		{"past the end", `{"id": "m/long-conv-1/1"}, {"kind": "message", "conversation_id": "long-conv-1", "message_index": 5000}`, 404, nil,
			"hit 1: conversation long-conv-1 has 30 messages (0 to 29); no message 5000 (m/long-conv-1/5000); it may be stale", ""},
		{"no place", `{"kind": "message"}`, 400, nil, "hit 0: no conversation_id and no id", ""},
		// An id that disagrees with the hit's other fields: which to believe
		// is not the server's guess.
		{"another conversation", `{"id": "m/long-conv-1/1", "conversation_id": "B", "kind": "message", "message_index": 3}`, 400, nil,
			`hit 0: id "m/long-conv-1/1" names conversation "long-conv-1", conversation_id "B"`, ""},
		{"another message", `{"id": "m/long-conv-1/1", "conversation_id": "long-conv-1", "kind": "message", "message_index": 3}`, 400, nil,
			`hit 0: id "m/long-conv-1/1" names message 1, message_index 3`, ""},
		{"another kind", `{"id": "c/long-conv-1", "kind": "message", "message_index": 3}`, 400, nil,
			`hit 0: id "c/long-conv-1" is a conversation hit's, kind "message"`, ""},
		// Other hits by their id alone: placed, their kind said, no context
		// (context is for message hits).
		{"a conversation by its id alone", `{"id": "c/long-conv-1"}`, 200, nil, "", "conversation"},
		{"a topic by its id alone", `{"id": "t/long-conv-1/wombats"}`, 200, nil, "", "topic"},
		{"a decision by its id alone", `{"id": "d/long-conv-1/0"}`, 200, nil, "", "decision"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := post(t, h, "/api/context", `{"hits": [`+tc.hits+`], "context": 1}`)
			if code != tc.status {
				t.Fatalf("%d %s, want %d", code, strings.TrimSpace(body), tc.status)
			}
			if code != 200 {
				var eb ErrorBody
				if err := json.Unmarshal([]byte(body), &eb); err != nil || !strings.Contains(eb.Error, tc.says) {
					t.Errorf("error %q, want it to say %q", body, tc.says)
				}
				return
			}
			var hits []query.Hit
			if err := json.Unmarshal([]byte(body), &hits); err != nil {
				t.Fatal(err)
			}
			if tc.kind != "" && (hits[0].Kind != tc.kind || hits[0].ConversationID != "long-conv-1") {
				t.Errorf("kind %q of conversation %q, want %q of long-conv-1", hits[0].Kind, hits[0].ConversationID, tc.kind)
			}
			var got []int
			for _, m := range hits[0].Context {
				got = append(got, m.Index)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.context) {
				t.Errorf("context %v, want %v", got, tc.context)
			}
		})
	}
}
