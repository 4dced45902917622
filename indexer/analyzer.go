package indexer

import (
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
)

// AnalyzerName is the analyzer of every text field: the English analyzer
// (lower case, stop words, stemming) after nameParts. The query package
// analyses query words with it too, so both sides split alike.
const AnalyzerName = "convsearch_en"

const namePartsName = "convsearch_name_parts"

// nameParts turns the dot or underscore between two letters or digits into
// a space, so that "codebook.pdf", "main.go" and "retry_policy" are
// searchable by their words: Unicode word breaking keeps them whole. The
// text keeps its length, so highlight offsets stay right.
type nameParts struct{}

func (nameParts) Filter(in []byte) []byte {
	var out []byte
	for i := 1; i+1 < len(in); i++ {
		if (in[i] == '.' || in[i] == '_') && alnum(in[i-1]) && alnum(in[i+1]) {
			if out == nil {
				out = append([]byte(nil), in...)
			}
			out[i] = ' '
		}
	}
	if out == nil {
		return in
	}
	return out
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Bleve finds analyzers by name in its registry, so ours are registered
// once, like Bleve's own.
func init() {
	err := registry.RegisterCharFilter(namePartsName, func(map[string]any, *registry.Cache) (analysis.CharFilter, error) {
		return nameParts{}, nil
	})
	if err != nil {
		panic(err) // a second registration: a programming error
	}
	err = registry.RegisterAnalyzer(AnalyzerName, func(config map[string]any, cache *registry.Cache) (analysis.Analyzer, error) {
		a, err := en.AnalyzerConstructor(config, cache)
		if err != nil {
			return nil, err
		}
		d, ok := a.(*analysis.DefaultAnalyzer)
		if !ok {
			return a, nil
		}
		d.CharFilters = append([]analysis.CharFilter{nameParts{}}, d.CharFilters...)
		return d, nil
	})
	if err != nil {
		panic(err)
	}
}
