package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/convsearch/convsearch/internal/convtest"
	"github.com/convsearch/convsearch/query"
)

// wireLog keeps the size of every answer to a tool call, a resource read
// or a resource listing the server writes, as the SDK encodes it for the wire.
type wireLog struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	sizes []int
}

func (w *wireLog) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for {
		line, err := w.buf.ReadBytes('\n')
		if err != nil {
			w.buf.Write(line) // a line not finished yet
			break
		}
		msg, ok := bytes.CutPrefix(bytes.TrimSuffix(line, []byte("\n")), []byte("write: "))
		var answer struct {
			Result struct {
				Content   json.RawMessage `json:"content"`
				Contents  json.RawMessage `json:"contents"`
				Resources json.RawMessage `json:"resources"`
			} `json:"result"`
		}
		r := &answer.Result
		if ok && json.Unmarshal(msg, &answer) == nil && (r.Content != nil || r.Contents != nil || r.Resources != nil) {
			w.sizes = append(w.sizes, len(msg))
		}
	}
	return len(p), nil
}

// since returns the size of the answer written after the first n, waiting
// for it: the log is written after the answer, which the client may have
// read already.
func (w *wireLog) since(t *testing.T, n int) int {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		w.mu.Lock()
		sizes := slices.Clone(w.sizes)
		w.mu.Unlock()
		if len(sizes) > n {
			return slices.Max(sizes[n:])
		}
	}
	t.Fatal("no answer written")
	return 0
}

func (w *wireLog) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.sizes)
}

// escapingBackend indexes conversations whose every message is full of what
// JSON escapes: <, > and & (\u003c, six bytes for one) and control
// characters.
func escapingBackend(t *testing.T) *query.Engine {
	t.Helper()
	root := t.TempDir()
	var esc strings.Builder
	for esc.Len() < 6000 {
		esc.WriteString("a<b&&c>d \x01<&>\x02 <<>>&& quokka\x1b<&>\x7f&&<>\r\n")
	}
	// One long conversation, and enough short ones to fill a grouped page.
	for i := 1; i <= 60; i++ {
		msgs := make([]string, 4)
		if i == 1 {
			msgs = make([]string, 120)
		}
		for j := range msgs {
			msgs[j] = fmt.Sprintf("message %d: %s", j, esc.String())
		}
		msgs[1] = "We decided to use <&> quokka parsers because <&> && <b> is faster. " + msgs[1]
		id := fmt.Sprintf("esc-%d", i)
		if err := convtest.WriteAtomic(filepath.Join(root, id+".json"), convtest.Portable(id, "<&> quokka & <b>co</b>", msgs...)); err != nil {
			t.Fatal(err)
		}
	}
	e, sum := convtest.Engine(t, root)
	if sum.Conversations != 60 {
		t.Fatalf("index: %+v", sum)
	}
	return e
}

// TestMCPWireBudget: every answer holds mcpAnswerMax as the SDK writes it
// on the wire, escapes included, not only as its text is long.
func TestMCPWireBudget(t *testing.T) {
	cs, wire := wireConnect(t, escapingBackend(t))
	ctx := context.Background()

	for _, tc := range []struct {
		tool string
		args map[string]any
		// messages is the fewest a window must hold: a budget cut to fit
		// is not cut to one message when two fit.
		messages int
	}{
		{"get_conversation", map[string]any{"id": "esc-1", "max_messages": 100}, 2},
		{"get_conversation", map[string]any{"id": "m/esc-1/60", "max_messages": 100}, 2},
		{"get_conversation", map[string]any{"id": "esc-1", "message": 7, "max_messages": 1}, 0},
		{"get_conversation", map[string]any{"id": "esc-1", "message": 7, "char_offset": 10}, 0},
		{"search_conversations", map[string]any{"query": "quokka", "limit": 50, "group": false}, 0},
		{"search_conversations", map[string]any{"query": "quokka", "limit": 50, "type": "message", "group": false}, 0},
		{"search_conversations", map[string]any{"query": "quokka", "limit": 50}, 0},
		{"related_conversations", map[string]any{"id": "esc-1", "limit": 20}, 0},
		{"list_decisions", map[string]any{"limit": 50}, 0},
	} {
		n := wire.count()
		res := call(t, cs, tc.tool, tc.args)
		if res.IsError {
			t.Errorf("%s(%v): %s", tc.tool, tc.args, text(res))
			continue
		}
		if n := wire.since(t, n); n > mcpAnswerMax {
			t.Errorf("%s(%v): %d bytes on the wire, over %d", tc.tool, tc.args, n, mcpAnswerMax)
		}
		if tc.messages > 0 {
			var w conversationOutput
			if err := json.Unmarshal(mustJSON(t, res.StructuredContent), &w); err != nil {
				t.Fatal(err)
			}
			if len(w.Messages) < tc.messages || !w.Truncated {
				t.Errorf("%s(%v): %d messages (truncated %v), want at least %d", tc.tool, tc.args, len(w.Messages), w.Truncated, tc.messages)
			}
		}
	}
	for _, uri := range []string{ConversationURI("esc-1"), ConversationURI("m/esc-1/60")} {
		n := wire.count()
		if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri}); err != nil {
			t.Fatal(err)
		}
		if n := wire.since(t, n); n > mcpAnswerMax {
			t.Errorf("read %s: %d bytes on the wire, over %d", uri, n, mcpAnswerMax)
		}
	}
}
