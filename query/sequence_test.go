package query

import (
	"fmt"
	"slices"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/convsearch/convsearch/indexer"
)

// TestSequenceMatchesBlevePhrase: sequenceQuery finds the documents Bleve's
// phrase query finds, with the same scores and the same matched places
// (what is highlighted), in one value and in several.
func TestSequenceMatchesBlevePhrase(t *testing.T) {
	m := bleve.NewIndexMapping()
	f := bleve.NewTextFieldMapping()
	f.Analyzer = indexer.AnalyzerName
	f.Store = true
	f.IncludeTermVectors = true
	m.DefaultMapping.AddFieldMappingsAt("content", f)
	var im mapping.IndexMapping = m
	idx, err := bleve.NewMemOnly(im)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	docs := map[string]any{
		"a": "the worker ran out of memory at noon; memory worker ran",
		"b": "worker memory ran out of the box",
		"c": "日本語テキストの検索は難しいです。日本語の文章を読む。日本",
		"d": "中文文本也在这里出现。文文",
		"e": []any{"retry policy", "backoff retry policy retry"},
		"f": "retry retry policy policy",
		"g": []any{"retry", "z policy"}, // next places, other values: no phrase
	}
	for id, v := range docs {
		if err := idx.Index(id, map[string]any{"content": v}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name   string
		bleveQ bq.Query
		ours   bq.Query
	}{
		{"text", matchPhrase("worker ran"), newSequence("worker ran", "content", 1)},
		{"stop gap", matchPhrase("ran out of memory"), newSequence("ran out of memory", "content", 1)},
		{"cjk", matchPhrase("日本語"), newSequence("日本語", "content", 1)},
		{"cjk mixed", matchPhrase("日本語テキスト"), newSequence("日本語テキスト", "content", 1)},
		{"repeated", matchPhrase("文文"), newSequence("文文", "content", 1)},
		{"values", matchPhrase("retry policy"), newSequence("retry policy", "content", 2)},
		{"terms", bleve.NewPhraseQuery([]string{"retri", "polici"}, "content"), newTermSequence([]string{"retri", "polici"}, "content", 1)},
		{"none", matchPhrase("noon worker"), newSequence("noon worker", "content", 1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if mp, ok := c.bleveQ.(*bq.MatchPhraseQuery); ok && c.ours.(*sequenceQuery).boost != 1 {
				mp.SetBoost(c.ours.(*sequenceQuery).boost)
			}
			want, got := runPhrase(t, idx, c.bleveQ), runPhrase(t, idx, c.ours)
			if !slices.Equal(got, want) {
				t.Errorf("got  %v\nwant %v", got, want)
			}
		})
	}
}

func matchPhrase(text string) *bq.MatchPhraseQuery {
	q := bleve.NewMatchPhraseQuery(text)
	q.SetField("content")
	return q
}

// runPhrase renders q's hits: id, score and the matched places, sorted.
func runPhrase(t *testing.T, idx bleve.Index, q bq.Query) []string {
	t.Helper()
	req := bleve.NewSearchRequest(q)
	req.IncludeLocations = true
	req.SortBy([]string{"_id"})
	res, err := idx.Search(req)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range res.Hits {
		var places []string
		for term, locs := range h.Locations["content"] {
			for _, l := range locs {
				places = append(places, fmt.Sprintf("%s@%d%v", term, l.Pos, l.ArrayPositions))
			}
		}
		slices.Sort(places)
		places = slices.Compact(places)
		out = append(out, fmt.Sprintf("%s %.6f %v", h.ID, h.Score, places))
	}
	return out
}
