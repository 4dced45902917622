package server

import (
	"os"
	"path/filepath"
	"reflect"
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
		{[]string{filepath.Join(dir, "nope")}, nil, true},
		{make([]string, MaxSyncRoots+1), nil, true},
	} {
		got, err := checkRoots(tc.roots)
		if (err != nil) != tc.err || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("checkRoots(%.60q) = %q, %v; want %q, error %v", tc.roots, got, err, tc.want, tc.err)
		}
	}
}
