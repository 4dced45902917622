package query

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"
)

// Limits on what the prefix (*) words of one query expand to, together: a
// prefix is every term of the index that starts with it, and its search
// reads the postings of each (every document each term is in). MaxExpanding
// bounds the prefix words, these what they match: on 200k messages a
// one-letter prefix was 600–3000 terms and up to 1.9 million postings, 1–2 s
// a search and several for the printed list; within these a search of
// prefixes stays under half a second there (docs/PERFORMANCE.md).
const (
	MaxPrefixTerms    = 1000
	MaxPrefixPostings = 300_000
)

// prefixCaps are the limits the builder applies: MaxPrefixTerms and
// MaxPrefixPostings, lowered by tests.
var prefixCaps = struct{ terms, postings int }{MaxPrefixTerms, MaxPrefixPostings}

// expansion is what a prefix expands to in one field: its terms and the
// sum of their document counts (past a cap, the count when it was passed).
type expansion struct {
	terms    int
	postings int
}

// expanding bounds the prefixes of a query (see prefixCaps): it reads
// the terms of field that start with prefix from the index's dictionary,
// adds what they expand to to what the query's other prefixes expand to,
// and refuses t when the sum passes a cap, asking for more letters. It
// returns the terms. A prefix already read (the builder builds a clause
// again to relax a query) is neither read nor counted twice.
func (b *builder) expanding(t *Term, field, prefix string) ([]string, error) {
	key := field + "\x00" + prefix
	if b.expanded == nil {
		b.expanded = map[string][]string{}
	}
	if terms, ok := b.expanded[key]; ok {
		return terms, nil
	}
	b.expanded[key] = nil
	left := expansion{prefixCaps.terms - b.expansion.terms, prefixCaps.postings - b.expansion.postings}
	var x expansion
	var terms []string
	err := b.e.readDict(b.ctx, func(r index.IndexReader) (err error) {
		x, terms, err = dictPrefix(r, field, prefix, left)
		return err
	})
	if err != nil {
		return nil, err
	}
	b.expansion.terms += x.terms
	b.expansion.postings += x.postings
	if b.expansion.terms <= prefixCaps.terms && b.expansion.postings <= prefixCaps.postings {
		b.expanded[key] = terms
		return terms, nil
	}
	much := fmt.Sprintf("words in more than %d places (a place is a message a word is in)", max(left.postings, 0))
	if x.terms > left.terms {
		much = fmt.Sprintf("more than %d words", max(left.terms, 0))
	}
	if left.terms < prefixCaps.terms || left.postings < prefixCaps.postings {
		much += " beside what the query's other prefixes match"
	}
	return nil, &SyntaxError{Query: b.src, Pos: t.Pos, Msg: fmt.Sprintf(
		"the prefix %s* matches too much to search in time: %s; the prefixes of a query may match at most %d words in %d places in all: give it more letters",
		prefix, much, prefixCaps.terms, prefixCaps.postings)}
}

// dictPrefix returns the terms of field that start with prefix, how many
// they are and the sum of their document counts, stopping once either
// passes left (the terms then are those read so far).
func dictPrefix(r index.IndexReader, field, prefix string, left expansion) (found expansion, terms []string, err error) {
	d, err := r.FieldDictPrefix(field, []byte(prefix))
	if err != nil {
		return found, nil, err
	}
	defer d.Close()
	for {
		e, err := d.Next()
		if err != nil {
			return found, nil, err
		}
		if e == nil {
			return found, terms, nil
		}
		found.terms++
		found.postings += int(e.Count)
		terms = append(terms, e.Term)
		if found.terms > left.terms || found.postings > left.postings {
			return found, terms, nil
		}
	}
}

// readDict calls read with the index's reader inside one search, so that
// it reads the dictionaries of the index the engine searches, within ctx.
func (e *Engine) readDict(ctx context.Context, read func(index.IndexReader) error) error {
	req := bleve.NewSearchRequestOptions(dictQuery(read), 0, 0, false)
	req.Score = "none"
	if _, err := e.search(ctx, req); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}

// dictQuery is a Bleve query that matches nothing: its searcher calls the
// function with the index's reader (see readDict).
type dictQuery func(index.IndexReader) error

func (q dictQuery) Searcher(_ context.Context, r index.IndexReader, _ mapping.IndexMapping, _ search.SearcherOptions) (search.Searcher, error) {
	if err := q(r); err != nil {
		return nil, err
	}
	return searcher.NewMatchNoneSearcher(r)
}
