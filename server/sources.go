package server

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/parsers/all"
)

// parserSources are the sources convsearch's parsers write: a filter
// naming one is good before any of its tool's files is indexed.
var parserSources = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	for _, p := range all.Registry().Parsers() {
		names[p.Info().Name] = true
	}
	return names
})

// UnknownSource returns an error naming the known sources (the parsers'
// and those the index holds, a portable file may keep another) when one
// of sources is neither: a mistyped source would otherwise find nothing,
// in silence, where a mistyped role or type is refused. The index is asked
// only for a name no parser writes; when it cannot answer, the filter
// stands.
func UnknownSource(ctx context.Context, stats func(context.Context) (*indexer.Stats, error), sources []string) error {
	var odd []string
	for _, s := range sources {
		if s = strings.ToLower(s); !parserSources()[s] {
			odd = append(odd, s)
		}
	}
	if len(odd) == 0 {
		return nil
	}
	st, err := stats(ctx)
	if err != nil || st == nil {
		return nil
	}
	for _, s := range odd {
		if st.BySource[s] == 0 {
			known := maps.Clone(parserSources())
			for n := range st.BySource {
				known[n] = true
			}
			delete(known, "")
			return fmt.Errorf("source %q is unknown: use one of %s", s, strings.Join(slices.Sorted(maps.Keys(known)), ", "))
		}
	}
	return nil
}
