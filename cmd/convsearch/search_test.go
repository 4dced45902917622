package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/daemon"
	"github.com/convsearch/convsearch/query"
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

// TestGroupHitsWeighsKinds: the printed list ranks a conversation's hits,
// and the conversations, as a grouped search does, a decision's score
// weighing half again: its best hit is the one --group gives.
func TestGroupHitsWeighsKinds(t *testing.T) {
	hits := []query.Hit{
		{ID: "m/b/1", ConversationID: "b", Kind: "message", Score: 2.5},
		{ID: "m/a/12", ConversationID: "a", Kind: "message", Score: 2.085},
		{ID: "d/a/0", ConversationID: "a", Kind: "decision", Score: 1.963},
	}
	for _, tt := range []struct {
		byScore bool
		want    string
	}{
		{true, "d/a/0 m/a/12 | m/b/1"},
		{false, "m/b/1 | m/a/12 d/a/0"}, // by date: as they came
	} {
		var got []string
		convs, _, _ := groupHits(hits, 0, 10, tt.byScore)
		for _, c := range convs {
			var ids []string
			for _, h := range c.hits {
				ids = append(ids, h.ID)
			}
			got = append(got, strings.Join(ids, " "))
		}
		if g := strings.Join(got, " | "); g != tt.want {
			t.Errorf("groupHits(byScore %v) = %s, want %s", tt.byScore, g, tt.want)
		}
	}
}

// TestGroupHits: ranked hits grouped by conversation, in the rank of each
// conversation's best hit, hitsShown kept each with the count of all, a
// page of conversations by offset and limit, and whether more follow it;
// regroup hands the hits back.
func TestGroupHits(t *testing.T) {
	var hits []query.Hit
	for i, c := range strings.Fields("a b a c a a b d") {
		hits = append(hits, query.Hit{ID: fmt.Sprint(i), ConversationID: c})
	}
	type group struct {
		ids   string // the hits kept, by ID
		count int
	}
	tests := []struct {
		offset, limit int
		want          []group
		more          bool // conversations follow the page
	}{
		{0, 10, []group{{"0 2 4", 4}, {"1 6", 2}, {"3", 1}, {"7", 1}}, false},
		{0, 4, []group{{"0 2 4", 4}, {"1 6", 2}, {"3", 1}, {"7", 1}}, false},
		{0, 3, []group{{"0 2 4", 4}, {"1 6", 2}, {"3", 1}}, true},
		{1, 2, []group{{"1 6", 2}, {"3", 1}}, true},
		{2, 2, []group{{"3", 1}, {"7", 1}}, false},
		{3, 5, []group{{"7", 1}}, false},
		{4, 5, nil, false},
	}
	for _, tt := range tests {
		convs, more, total := groupHits(hits, tt.offset, tt.limit, true)
		if more != tt.more {
			t.Errorf("groupHits(offset %d, limit %d) says more %v, want %v", tt.offset, tt.limit, more, tt.more)
		}
		if total != 4 {
			t.Errorf("groupHits(offset %d, limit %d) counts %d conversations, want 4 (a b c d)", tt.offset, tt.limit, total)
		}
		var got []group
		var flat []query.Hit
		for _, c := range convs {
			var ids []string
			for _, h := range c.hits {
				ids = append(ids, h.ID)
			}
			got = append(got, group{strings.Join(ids, " "), c.count})
			flat = append(flat, c.hits...)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("groupHits(offset %d, limit %d) = %v, want %v", tt.offset, tt.limit, got, tt.want)
		}
		// The hits come back with their context in the groups they left.
		for i := range flat {
			flat[i].Text = "ctx " + flat[i].ID
		}
		for i, c := range regroup(flat, convs) {
			for j, h := range c.hits {
				if h.Text != "ctx "+h.ID || h.ID != strings.Fields(tt.want[i].ids)[j] {
					t.Errorf("regroup: group %d hit %d is %+v", i, j, h)
				}
			}
		}
	}
}

// A decision hit's fragment spans its decision and rationale: each is
// printed once, on its own line, marked where it matched.
func TestDecisionParts(t *testing.T) {
	st := style{}
	h := &query.Hit{Kind: "decision", Text: "Use BCa with R = 9999", Rationale: "the bootstrap distribution is skewed"}
	for _, tt := range []struct{ frag, text, because string }{
		{"Use BCa with R = 9999\nthe <mark>bootstrap</mark> distribution is skewed", "Use BCa with R = 9999", "the «bootstrap» distribution is skewed"},
		{"Use <mark>BCa</mark> with R = 9999\nthe bootstrap distribution", "Use «BCa» with R = 9999", "the bootstrap distribution"},
		{"…the <mark>bootstrap</mark> distribution is skewed", "Use BCa with R = 9999", "…the «bootstrap» distribution is skewed"},
		{"Use <mark>BCa</mark> with R", "Use «BCa» with R", "the bootstrap distribution is skewed"},
	} {
		text, because := decisionParts(st, h, tt.frag)
		if text != tt.text || because != tt.because {
			t.Errorf("%q: %q / %q, want %q / %q", tt.frag, text, because, tt.text, tt.because)
		}
	}
	// A decision's own text is plain: what looks like an entity in it is
	// what was written.
	lt := &query.Hit{Kind: "decision", Text: "Keep R &lt; 5 rows", Rationale: "the bootstrap distribution is skewed"}
	if text, because := decisionParts(st, lt, "\nthe <mark>bootstrap</mark> distribution"); text != "Keep R &lt; 5 rows" || because != "the «bootstrap» distribution" {
		t.Errorf("empty decision part: %q / %q", text, because)
	}
	m := &query.Hit{Kind: "message", Text: "x", Rationale: ""}
	if text, because := decisionParts(st, m, "a <mark>b</mark>"); text != "a «b»" || because != "" {
		t.Errorf("message hit: %q / %q", text, because)
	}
}

// TestSearchFilterWithoutQuery: a filter without a query argument lists
// what it keeps, as an empty query with it does; neither is a usage error.
func TestSearchFilterWithoutQuery(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(t.TempDir(), "data")
	if r := cs(t, home, "index", "--data-dir", data, "--no-default-roots", "--root", examples); r.code != 0 {
		t.Fatalf("index: %s", r.stderr)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"project", []string{"--project", "telemetry-hub"}, 0},
		{"newest decisions", []string{"--sort", "newest", "--type", "decision"}, 0},
		{"since, as JSON", []string{"--since", "2020-01-01", "--json"}, 0},
		{"no filter", nil, 2},
		{"only a sort", []string{"--sort", "newest"}, 2},
		{"an unknown source", []string{"--source", "claude-cod", "x"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"search", "--data-dir", data}, tc.args...)
			r := cs(t, home, args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d: %s", r.code, tc.code, r.stderr)
			}
			if tc.code != 0 && strings.Contains(strings.Join(tc.args, " "), "--source") {
				if !strings.Contains(r.stderr, `source "claude-cod" is unknown`) || !strings.Contains(r.stderr, "claude-code,") {
					t.Errorf("the refusal does not name the known sources: %q", r.stderr)
				}
				return
			}
			if tc.code != 0 {
				if !strings.Contains(r.stderr, "give a query") || !strings.Contains(r.stderr, "filter") {
					t.Errorf("the refusal names neither a query nor a filter: %q", r.stderr)
				}
				return
			}
			// The same list as an empty query gives, and not an empty one.
			empty := cs(t, home, append(args, "")...)
			if strip := regexp.MustCompile(`in [0-9.]+ ms|"took_ms": *[0-9.]+`); strip.ReplaceAllString(r.stdout, "") != strip.ReplaceAllString(empty.stdout, "") {
				t.Errorf("without a query:\n%s\nwith '':\n%s", r.stdout, empty.stdout)
			}
			if strings.Contains(r.stdout, "no match") || regexp.MustCompile(`"total": *0,`).MatchString(r.stdout) {
				t.Errorf("nothing listed:\n%s", r.stdout)
			}
		})
	}
}

// TestTopicsPages: topics --offset reads on after a full page, which says
// so on stderr; the pages do not overlap.
func TestTopicsPages(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(t.TempDir(), "data")
	if r := cs(t, home, "index", "--data-dir", data, "--no-default-roots", "--root", examples); r.code != 0 {
		t.Fatalf("index: %s", r.stderr)
	}
	first := cs(t, home, "topics", "--data-dir", data, "-n", "3")
	second := cs(t, home, "topics", "--data-dir", data, "-n", "3", "--offset", "3")
	if first.code != 0 || second.code != 0 {
		t.Fatalf("topics: exit %d, %d\n%s%s", first.code, second.code, first.stderr, second.stderr)
	}
	if !strings.Contains(first.stderr, "more with --offset 3") {
		t.Errorf("a full page does not say how to read on: %q", first.stderr)
	}
	a, b := strings.Split(strings.TrimSpace(first.stdout), "\n"), strings.Split(strings.TrimSpace(second.stdout), "\n")
	if len(a) != 3 || len(b) == 0 {
		t.Fatalf("pages of %d and %d topics:\n%s\n--\n%s", len(a), len(b), first.stdout, second.stdout)
	}
	for _, x := range a {
		if slices.Contains(b, x) {
			t.Errorf("%q on both pages", x)
		}
	}
	if r := cs(t, home, "topics", "--data-dir", data, "--offset", "-1"); r.code != 2 {
		t.Errorf("topics --offset -1: exit %d, want 2", r.code)
	}
}

// TestSearchCountsEveryHit: the printed list gives a conversation's hits
// as --group --json counts them, all of them, not those of the window of
// hits it fetched to group (limit × perConversationLook, at least 50).
func TestSearchCountsEveryHit(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, "convs")
	var long []string
	for i := range 130 {
		long = append(long, fmt.Sprintf("quokka census, day %d", i))
	}
	writeConv(t, filepath.Join(root, "long.json"), conversationJSON("conv-long", "Quokka migration marathon", long...))
	writeConv(t, filepath.Join(root, "short.json"), conversationJSON("conv-short", "A quokka aside", "is a quokka a marsupial?", "yes, a small wallaby"))
	data := filepath.Join(t.TempDir(), "data")
	if r := cs(t, home, "index", "--data-dir", data, "--no-default-roots", "--root", root); r.code != 0 {
		t.Fatalf("index: %s", r.stderr)
	}
	r := cs(t, home, "search", "--data-dir", data, "--group", "--json", "quokka")
	var grouped struct {
		Hits []struct {
			ConversationID string `json:"conversation_id"`
			Count          int    `json:"count"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &grouped); err != nil {
		t.Fatalf("--group --json: %v\n%s", err, r.stdout)
	}
	want := map[string]int{}
	for _, h := range grouped.Hits {
		want[h.ConversationID] = h.Count
	}
	if want["conv-long"] <= 130 {
		t.Fatalf("--group --json counts %d hits in conv-long, want over 130", want["conv-long"])
	}
	counted := regexp.MustCompile(`(?m)^\d+\. (.*?)  .*· (\d+) hits$`)
	titles := map[string]string{"Quokka migration marathon": "conv-long", "A quokka aside": "conv-short"}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"window of 100", nil},
		{"window of 50", []string{"-n", "1"}},
		{"newest first", []string{"--sort", "newest"}},
		{"window not full", []string{"-n", "40"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := cs(t, home, append(append([]string{"search", "--data-dir", data}, tc.args...), "quokka")...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			got := map[string]int{}
			for _, m := range counted.FindAllStringSubmatch(r.stdout, -1) {
				n := 0
				fmt.Sscan(m[2], &n)
				got[titles[m[1]]] = n
			}
			if got["conv-long"] != want["conv-long"] {
				t.Errorf("conv-long: %d hits printed, want %d as --group --json counts\n%s", got["conv-long"], want["conv-long"], r.stdout)
			}
			if _, ok := got["conv-short"]; ok && got["conv-short"] != want["conv-short"] {
				t.Errorf("conv-short: %d hits printed, want %d\n%s", got["conv-short"], want["conv-short"], r.stdout)
			}
		})
	}
}

// An empty index while the daemon's first pass runs is not one to index:
// `convsearch index` would fail on the daemon's lock.
func TestEmptyIndexNote(t *testing.T) {
	for _, tt := range []struct {
		indexing  bool
		want, not string
	}{
		{false, "run `convsearch index`", "still indexing"},
		{true, "still indexing /d (a first pass, or a full rebuild)", "convsearch index`"},
	} {
		got := emptyIndexNote("/d", tt.indexing)
		if !strings.Contains(got, tt.want) || strings.Contains(got, tt.not) {
			t.Errorf("indexing %v: %q, want it to say %q and not %q", tt.indexing, got, tt.want, tt.not)
		}
	}
}

// TestQueryErrorTimeout: a search stopped at its time limit, by the index
// or by the daemon (HTTP 504), says so and what to do, not Go's "context
// deadline exceeded" alone.
func TestQueryErrorTimeout(t *testing.T) {
	env := &Env{Stderr: io.Discard}
	for _, err := range []error{
		fmt.Errorf("search: stopped at its time limit: %w", context.DeadlineExceeded),
		&daemon.APIError{Status: http.StatusGatewayTimeout, Message: "search: stopped at its time limit: context deadline exceeded"},
	} {
		got := queryError(env, "k*", err)
		if got == nil || !strings.Contains(got.Error(), "took longer than its limit of 10s") || !strings.Contains(got.Error(), "narrow it") {
			t.Errorf("queryError(%v) = %v; want it to say the search took longer than its limit, and what to do", err, got)
		}
		var ue *usageError
		if errors.As(got, &ue) {
			t.Errorf("queryError(%v) is a usage error; a timeout is not one", err)
		}
	}
}
