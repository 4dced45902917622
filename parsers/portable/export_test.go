package portable

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
)

// TestExportKeepsOtherKeys: an export into a folder whose index.json holds
// keys besides conversations (a tool's own, a version) writes them back as
// they were, with the merged conversations.
func TestExportKeepsOtherKeys(t *testing.T) {
	for _, tc := range []struct {
		name, earlier string
		want          map[string]string // key -> its JSON, besides conversations
	}{
		{"no index.json", "", map[string]string{}},
		{"conversations only", `{"conversations": []}`, map[string]string{}},
		{"other keys", `{"version": 2, "generated": "2026-01-01T00:00:00Z", "tool": {"name": "x"}, "conversations": []}`,
			map[string]string{"version": `2`, "generated": `"2026-01-01T00:00:00Z"`, "tool": `{"name":"x"}`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.earlier != "" {
				if err := os.WriteFile(filepath.Join(dir, "index.json"), []byte(tc.earlier), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			e, err := NewExport(dir)
			if err != nil {
				t.Fatal(err)
			}
			c := &conversation.Conversation{ID: "conv-1", Title: "Okapis", Date: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC),
				Messages: []conversation.Message{{Role: conversation.RoleUser, Content: "Okapis have long tongues."}}}
			if _, err := e.Add(c, "/src/a.json"); err != nil {
				t.Fatal(err)
			}
			if err := e.Close(); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(dir, "index.json"))
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]json.RawMessage
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			var m Manifest
			if err := json.Unmarshal(got["conversations"], &m.Conversations); err != nil || len(m.Conversations) != 1 || m.Conversations[0].ID != "conv-1" {
				t.Errorf("conversations %s (%v), want conv-1", got["conversations"], err)
			}
			delete(got, "conversations")
			if len(got) != len(tc.want) {
				t.Errorf("other keys %v, want %v", keys(got), tc.want)
			}
			for k, v := range tc.want {
				var compact bytes.Buffer
				if err := json.Compact(&compact, got[k]); err != nil || compact.String() != v {
					t.Errorf("%s: %s, want %s", k, got[k], v)
				}
			}
		})
	}
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
