package server

import (
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/query"
)

func TestSearchParamsRoundTrip(t *testing.T) {
	now := time.Now()
	for _, r := range []query.Request{
		{Query: "a b", Limit: 20, Sort: "relevance"},
		{Query: `"x y" -z`, Types: []string{"message"}, Sources: []string{"portable", "claude-code"}, Roles: []string{"user"},
			Projects: []string{"a,b", "c"}, Since: now.Add(-time.Hour).UTC(), Until: now.UTC(), Limit: 5, Offset: 10,
			Sort: "newest", Group: true, Facets: true, ExcludeHidden: true, NoHighlight: true, Conversations: []string{"id1"}},
		{Query: "x", After: []string{"IAEYQA", "bS9jLzE"}, Limit: 20, Sort: "oldest"},
	} {
		got, n, err := ParseSearchParams(SearchValues(r, 3), now)
		if err != nil {
			t.Fatalf("%+v: %v", r, err)
		}
		if n != 3 {
			t.Errorf("context %d, want 3", n)
		}
		if !reflect.DeepEqual(got, r) {
			t.Errorf("round trip:\n got %+v\nwant %+v", got, r)
		}
	}
}

func TestCheckRoots(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		roots []string
		want  []string
		err   bool
	}{
		{nil, nil, false},
		{[]string{dir, dir + "/", dir}, []string{dir}, false}, // repeats walked once
		{[]string{dir, file}, []string{dir, file}, false},
		{[]string{""}, nil, true},
		{[]string{"relative"}, nil, true},
		{[]string{"/"}, nil, true},
		{[]string{"/proc"}, nil, true},
		{[]string{"/sys/kernel"}, nil, true},
		{[]string{filepath.Join(dir, "nope"), dir}, []string{filepath.Join(dir, "nope"), dir}, false}, // the pass reports it
		{make([]string, MaxSyncRoots+1), nil, true},
	} {
		got, err := checkRoots(tc.roots)
		if (err != nil) != tc.err || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("checkRoots(%.60q) = %q, %v; want %q, error %v", tc.roots, got, err, tc.want, tc.err)
		}
	}
}

// TestTimeParamsHintAtPlus: a time sent with a raw + (its zone's) reads as
// a space; the error says how to send it. Other mistakes get no hint.
func TestTimeParamsHintAtPlus(t *testing.T) {
	const hint = "a + in a URL is a space: write %2B"
	now := time.Now()
	for _, tc := range []struct {
		query string
		hint  bool
	}{
		{"q=x&until=2025-07-01T06:30:00+00:00", true},
		{"q=x&since=2025-07-01T06:30:00+02:00", true},
		{"q=x&since=last+tuesday", false}, // no time with a + either
		{"q=x&until=2025-02-30", false},
		{"q=x&since=yesterday", false},
	} {
		v, err := url.ParseQuery(tc.query)
		if err != nil {
			t.Fatal(err)
		}
		_, _, serr := ParseSearchParams(v, now)
		v.Del("q")
		_, derr := ParseDecisionsParams(v, now)
		for name, err := range map[string]error{"search": serr, "decisions": derr} {
			if err == nil || strings.Contains(err.Error(), hint) != tc.hint {
				t.Errorf("%s %s: error %v, want the hint: %v", name, tc.query, err, tc.hint)
			}
		}
	}
	// Sent encoded, the same time is read.
	v, _ := url.ParseQuery("q=x&until=2025-07-01T06:30:00%2B02:00")
	if r, _, err := ParseSearchParams(v, now); err != nil || !r.Until.Equal(time.Date(2025, 7, 1, 4, 30, 0, 0, time.UTC)) {
		t.Errorf("until %%2B: %v, %v", r.Until, err)
	}
}
