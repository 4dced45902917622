package all

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
)

// parserSources are the sources convsearch's parsers write: a filter
// naming one is good before any of its tool's files is indexed.
var parserSources = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	for _, p := range Registry().Parsers() {
		names[p.Info().Name] = true
	}
	return names
})

// UnknownSource returns an error naming the known sources (the parsers'
// and those the index holds, indexed counting them: a portable file may
// keep another) when one of sources is neither: a mistyped source would
// otherwise find nothing, in silence, where a mistyped role or type is
// refused. The index is asked only for a name no parser writes; when it
// cannot answer, the filter stands. It lives with the parsers' list so
// that the CLI, the API and MCP share it without one adapter importing
// another (indexer.SourceCounts gives indexed from a backend's Stats).
func UnknownSource(ctx context.Context, indexed func(context.Context) (map[string]uint64, error), sources []string) error {
	var odd []string
	for _, s := range sources {
		if s = strings.ToLower(s); !parserSources()[s] {
			odd = append(odd, s)
		}
	}
	if len(odd) == 0 {
		return nil
	}
	bySource, err := indexed(ctx)
	if err != nil {
		return nil
	}
	for _, s := range odd {
		if bySource[s] == 0 {
			known := maps.Clone(parserSources())
			for n := range bySource {
				known[n] = true
			}
			delete(known, "")
			return fmt.Errorf("source %q is unknown: use one of %s", s, strings.Join(slices.Sorted(maps.Keys(known)), ", "))
		}
	}
	return nil
}
