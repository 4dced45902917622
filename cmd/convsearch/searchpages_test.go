package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/internal/convtest"
)

// writeWombats writes five conversations of three messages each, every
// message about wombats: 15 message hits in 5 conversations, each scoring
// its own.
func writeWombats(t *testing.T, root string) {
	t.Helper()
	for c := range 5 {
		msgs := make([]string, 3)
		for i := range msgs {
			// Each says wombat a different number of times: no two
			// scores tie, and ties have no order that holds from one
			// page to the next.
			msgs[i] = strings.Repeat("wombat ", c*3+i+1) + "burrow"
		}
		id := fmt.Sprintf("wombats-%d", c)
		writeConv(t, filepath.Join(root, id+".json"), conversationJSON(id, "Burrows", msgs...))
	}
}

// searchPage is what search --json says of a page.
type searchPage struct {
	Total      uint64 `json:"total"`
	NextOffset int    `json:"next_offset"`
	Hits       []struct {
		ID string `json:"id"`
	} `json:"hits"`
}

// checkSearchPages pages `search --json --type message wombat` (with args,
// a store and --group or not) by next_offset, limit hits at a time, and
// checks it reads every hit once, in the order of one big page, in pages,
// the last saying no next_offset.
func checkSearchPages(t *testing.T, home string, args []string, limit, pages int) {
	t.Helper()
	search := func(extra ...string) searchPage {
		t.Helper()
		r := cs(t, home, append(append([]string{"search", "--json", "--type", "message"}, append(args, extra...)...), "wombat")...)
		if r.code != 0 {
			t.Fatalf("search %v: exit %d\n%s", extra, r.code, r.stderr)
		}
		var p searchPage
		if err := json.Unmarshal([]byte(r.stdout), &p); err != nil {
			t.Fatalf("search %v: %v\n%s", extra, err, r.stdout)
		}
		return p
	}
	all := search("--limit", "1000")
	if all.NextOffset != 0 || len(all.Hits) == 0 {
		t.Fatalf("one page of %d hits says next_offset %d", len(all.Hits), all.NextOffset)
	}
	var want []string
	for _, h := range all.Hits {
		want = append(want, h.ID)
	}
	got, n := convtest.FollowPages(t, len(all.Hits)+1, func(offset int) ([]string, int) {
		p := search("--limit", fmt.Sprint(limit), "--offset", fmt.Sprint(offset))
		var ids []string
		for _, h := range p.Hits {
			ids = append(ids, h.ID)
		}
		return ids, p.NextOffset
	})
	if n != pages {
		t.Errorf("%v, %d at a time: %d pages, want %d", args, limit, n, pages)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%v, %d at a time, paged by next_offset:\n%v\nwant\n%v", args, limit, got, want)
	}
}

// searchPagesCases are the pagings of the wombats checkSearchPages checks:
// single hits and grouped ones (Total, 15 messages, counts more than the 5
// conversations), to a last page short or full.
var searchPagesCases = []struct {
	name         string
	args         []string
	limit, pages int
}{
	{"every hit", nil, 4, 4},             // 4, 4, 4, 3
	{"every hit, a multiple", nil, 5, 3}, // 5, 5, 5
	{"grouped", []string{"--group"}, 2, 3},
	{"grouped, a multiple", []string{"--group"}, 5, 1},
}

// TestSearchPages: search --json says next_offset while a page follows,
// and --offset next_offset reads on with no hit twice; the printed list
// says how to read on.
func TestSearchPages(t *testing.T) {
	home, data := indexWombats(t)
	for _, tc := range searchPagesCases {
		t.Run(tc.name, func(t *testing.T) {
			checkSearchPages(t, home, append([]string{"--data-dir", data}, tc.args...), tc.limit, tc.pages)
		})
	}
	for _, tc := range []struct {
		args  []string
		first string // the number of the first hit or conversation
		more  string // the hint, "" when none
	}{
		{[]string{"--limit", "2"}, "1.", "1–2 shown; more with --offset 2"},
		{[]string{"--limit", "2", "--offset", "2"}, "3.", "3–4 shown; more with --offset 4"},
		{[]string{"--limit", "2", "--offset", "4"}, "5.", ""},
		{[]string{"--limit", "5"}, "1.", ""},
		{[]string{"--all-hits", "--type", "message", "--limit", "4", "--offset", "8"}, "9.", "9–12 shown; more with --offset 12"},
		{[]string{"--all-hits", "--type", "message", "--limit", "4", "--offset", "12"}, "13.", ""},
	} {
		r := cs(t, home, append(append([]string{"search", "--data-dir", data}, tc.args...), "wombat")...)
		if r.code != 0 {
			t.Fatalf("search %v: exit %d\n%s", tc.args, r.code, r.stderr)
		}
		lines := strings.Split(r.stdout, "\n")
		if len(lines) < 3 || !strings.HasPrefix(lines[2], tc.first+" ") {
			t.Errorf("search %v numbers from %q, want %s:\n%s", tc.args, lines[min(2, len(lines)-1)], tc.first, r.stdout)
		}
		if has := strings.Contains(r.stdout, "more with"); tc.more == "" && has || tc.more != "" && !strings.Contains(r.stdout, tc.more) {
			t.Errorf("search %v, want hint %q:\n%s", tc.args, tc.more, r.stdout)
		}
	}
}

// TestSearchPagesThroughTheDaemon: search --json pages by next_offset as
// well when the daemon answers.
func TestSearchPagesThroughTheDaemon(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	home := t.TempDir()
	root := filepath.Join(home, "convs")
	writeWombats(t, root)
	d := startServe(t, home, root)
	d.searchable("wombat", true)
	if r := cs(t, home, "search", "-v", "wombat"); !strings.Contains(r.stderr, "asking the daemon at "+d.url) {
		t.Fatalf("search does not ask the daemon: exit %d\n%s", r.code, r.stderr)
	}
	for _, tc := range searchPagesCases {
		t.Run(tc.name, func(t *testing.T) {
			checkSearchPages(t, home, tc.args, tc.limit, tc.pages)
		})
	}
}

// TestSearchPastTheEnd: a page past the last conversation (or hit) of a
// query that matches says there are no more after that offset, not "no
// match", and exits 0; a query that matches nothing still says no match.
func TestSearchPastTheEnd(t *testing.T) {
	home, data := indexWombats(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--offset", "5", "wombat"}, "no more conversations after 5: the "},
		{[]string{"--offset", "40", "wombat"}, "matches of \"wombat\" are in 5 conversations"},
		{[]string{"--all-hits", "--offset", "40", "wombat"}, "no more matches after 40: \"wombat\" has "},
		{[]string{"--offset", "5", "platypus"}, "no match for \"platypus\""},
		{[]string{"platypus"}, "no match for \"platypus\""},
	} {
		r := cs(t, home, append([]string{"search", "--data-dir", data}, tc.args...)...)
		if r.code != 0 || !strings.Contains(r.stdout, tc.want) {
			t.Errorf("search %v: exit %d, %q; want exit 0 and %q\n%s", tc.args, r.code, r.stdout, tc.want, r.stderr)
		}
	}
}

// indexWombats indexes writeWombats' conversations into a data folder of
// their own, and returns the home and the data folder.
func indexWombats(t *testing.T) (home, data string) {
	t.Helper()
	home = t.TempDir()
	root := filepath.Join(home, "convs")
	writeWombats(t, root)
	data = filepath.Join(t.TempDir(), "data")
	if r := cs(t, home, "index", "--data-dir", data, "--no-default-roots", "--root", root); r.code != 0 {
		t.Fatalf("index: %s", r.stderr)
	}
	return home, data
}
