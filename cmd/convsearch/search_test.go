package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSearchGroupsByConversation: the printed list shows each conversation
// once, with its best hits; --all-hits prints every hit; --json is the
// query Result, hit by hit.
func TestSearchGroupsByConversation(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(t.TempDir(), "data")
	if r := cs(t, home, "index", "--data-dir", data, "--root", examples); r.code != 0 {
		t.Fatalf("index: %s", r.stderr)
	}
	q := "why did we pick BCa over the percentile bootstrap"
	shows := regexp.MustCompile(`(?m)^   convsearch show (\S+)`)
	for _, tc := range []struct {
		name      string
		args      []string
		repeats   bool // some conversation is listed more than once
		hitsShown bool // a conversation lists several hits
	}{
		{"grouped", nil, false, true},
		{"all hits", []string{"--all-hits"}, true, false},
		{"after pages single hits", []string{"--sort", "newest", "--after", "IAEYQA,bS9jLzE"}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := cs(t, home, append([]string{"search", "--data-dir", data}, append(tc.args, q)...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			seen := map[string]int{}
			for _, m := range shows.FindAllStringSubmatch(r.stdout, -1) {
				seen[m[1]]++
			}
			var repeats bool
			for _, n := range seen {
				repeats = repeats || n > 1
			}
			if len(seen) == 0 {
				t.Fatalf("no hits:\n%s", r.stdout)
			}
			if repeats != tc.repeats {
				t.Errorf("a conversation listed twice: %v, want %v\n%s", repeats, tc.repeats, r.stdout)
			}
			// Several [role #n] lines under one title: the best hits of one conversation.
			several := regexp.MustCompile(`\]\s.*\n   \[`).MatchString(r.stdout)
			if several != tc.hitsShown {
				t.Errorf("several hits under one conversation: %v, want %v\n%s", several, tc.hitsShown, r.stdout)
			}
			// Only the grouped list says it left hits out.
			if says, grouped := strings.Contains(r.stdout, "(--all-hits for every one)"), tc.args == nil; says != grouped {
				t.Errorf("says the list is grouped: %v, want %v\n%s", says, grouped, r.stdout)
			}
		})
	}

	// --json is unchanged: the hits as the query ranks them, not grouped.
	r := cs(t, home, "search", "--data-dir", data, "--json", "-n", "10", q)
	var res struct {
		Hits []struct {
			ConversationID string `json:"conversation_id"`
			Count          int    `json:"count"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout)
	}
	ids := map[string]bool{}
	for _, h := range res.Hits {
		ids[h.ConversationID] = true
		if h.Count != 0 {
			t.Errorf("--json hit counted as a group: %+v", h)
		}
	}
	if len(res.Hits) != 10 || len(ids) == len(res.Hits) {
		t.Errorf("--json: %d hits in %d conversations, want 10 hits, some in one conversation", len(res.Hits), len(ids))
	}
	if strings.Contains(r.stdout, "best in each conversation") {
		t.Error("--json holds the printed list's header")
	}
}

// TestSlashCommandIsTheUsersPrompt: a Claude Code slash command with
// arguments is the person's own prompt, found among the user's visible
// messages (issue 13).
func TestSlashCommandIsTheUsersPrompt(t *testing.T) {
	home := t.TempDir()
	root := t.TempDir()
	b, err := os.ReadFile("../../parsers/claudecode/testdata/slash-command.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	writeConv(t, filepath.Join(root, "projects", "demo", "slash-command.jsonl"), string(b))
	data := filepath.Join(t.TempDir(), "data")
	if r := cs(t, home, "index", "--data-dir", data, "--no-default-roots", "--root", root); r.code != 0 {
		t.Fatalf("index: exit %d\n%s", r.code, r.stderr)
	}
	r := cs(t, home, "search", "--data-dir", data, "--json", "--no-hidden", "--role", "user", `"refill cap"`)
	if r.code != 0 {
		t.Fatalf("search: exit %d\n%s", r.code, r.stderr)
	}
	if n := hitsOf(t, r.stdout); n == 0 {
		t.Errorf("the slash command's arguments are not among the user's visible messages:\n%s", r.stdout)
	}
}
