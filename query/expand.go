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

// expanding bounds the prefixes of a query (see prefixCaps): it counts
// what prefix expands to in field from the index's dictionary, adds it to
// what the query's other prefixes expand to, and refuses t when the sum
// passes a cap, asking for more letters. A prefix already counted (the
// builder builds a clause again to relax a query) is not counted twice.
func (b *builder) expanding(t *Term, field, prefix string) error {
	key := field + "\x00" + prefix
	if b.expanded == nil {
		b.expanded = map[string]bool{}
	}
	if b.expanded[key] {
		return nil
	}
	b.expanded[key] = true
	left := expansion{prefixCaps.terms - b.expansion.terms, prefixCaps.postings - b.expansion.postings}
	x, err := b.e.expansion(b.ctx, field, prefix, left)
	if err != nil {
		return err
	}
	b.expansion.terms += x.terms
	b.expansion.postings += x.postings
	if b.expansion.terms <= prefixCaps.terms && b.expansion.postings <= prefixCaps.postings {
		return nil
	}
	much := fmt.Sprintf("words in more than %d places (a place is a message a word is in)", max(left.postings, 0))
	if x.terms > left.terms {
		much = fmt.Sprintf("more than %d words", max(left.terms, 0))
	}
	if left.terms < prefixCaps.terms || left.postings < prefixCaps.postings {
		much += " beside what the query's other prefixes match"
	}
	return &SyntaxError{Query: b.src, Pos: t.Pos, Msg: fmt.Sprintf(
		"the prefix %s* matches too much to search in time: %s; the prefixes of a query may match at most %d words in %d places in all: give it more letters",
		prefix, much, prefixCaps.terms, prefixCaps.postings)}
}

// expansion returns how many terms of field start with prefix and the sum
// of their document counts, from the index's dictionary, stopping once
// either passes what is left of the caps.
func (e *Engine) expansion(ctx context.Context, field, prefix string, left expansion) (expansion, error) {
	p := &dictProbe{field: field, prefix: prefix, left: left}
	req := bleve.NewSearchRequestOptions(p, 0, 0, false)
	req.Score = "none"
	if _, err := e.search(ctx, req); err != nil {
		return expansion{}, fmt.Errorf("search: %w", err)
	}
	return p.found, nil
}

// prefixTerms returns the terms of field that start with prefix, within
// the query's caps (see expanding, which refuses t past them).
func (b *builder) prefixTerms(t *Term, field, prefix string) ([]string, error) {
	if err := b.expanding(t, field, prefix); err != nil {
		return nil, err
	}
	p := &dictProbe{field: field, prefix: prefix, left: expansion{prefixCaps.terms, prefixCaps.postings}, collect: true}
	req := bleve.NewSearchRequestOptions(p, 0, 0, false)
	req.Score = "none"
	if _, err := b.e.search(b.ctx, req); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return p.terms, nil
}

// dictProbe is a Bleve query that matches nothing: its searcher counts, in
// found, the terms of field that start with prefix, and their documents,
// until either passes left.
type dictProbe struct {
	field, prefix string
	left          expansion
	found         expansion
	collect       bool     // keep the terms, in terms
	terms         []string // with collect, the terms found
}

func (p *dictProbe) Searcher(ctx context.Context, r index.IndexReader, _ mapping.IndexMapping, _ search.SearcherOptions) (search.Searcher, error) {
	d, err := r.FieldDictPrefix(p.field, []byte(p.prefix))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	p.found = expansion{}
	for {
		e, err := d.Next()
		if err != nil {
			return nil, err
		}
		if e == nil {
			break
		}
		p.found.terms++
		p.found.postings += int(e.Count)
		if p.collect {
			p.terms = append(p.terms, e.Term)
		}
		if p.found.terms > p.left.terms || p.found.postings > p.left.postings {
			break
		}
	}
	return searcher.NewMatchNoneSearcher(r)
}
