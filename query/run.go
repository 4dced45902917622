package query

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/blevesearch/bleve/v2"
	htmlhl "github.com/blevesearch/bleve/v2/search/highlight/highlighter/html"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/convsearch/convsearch/indexer"
)

// storedFields are loaded for every hit.
var storedFields = []string{
	indexer.FieldType, indexer.FieldConversationID, indexer.FieldSource, indexer.FieldProject, indexer.FieldFile,
	indexer.FieldDate, indexer.FieldRole, indexer.FieldMessageIndex, indexer.FieldHidden, indexer.FieldTitle,
	indexer.FieldName, indexer.FieldDecision, indexer.FieldRationale, indexer.FieldContent, indexer.FieldAuthor,
}

// Search runs r.
func (e *Engine) Search(ctx context.Context, r Request) (*Result, error) {
	start := time.Now()
	if err := r.Validate(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	if len(r.Conversations) > 0 {
		ids, err := e.resolveHits(ctx, r.Conversations)
		if err != nil {
			return nil, err
		}
		r.Conversations, r.resolved = ids, true
	}
	node, err := Parse(r.Query)
	if err != nil {
		return nil, err
	}
	b := &builder{ctx: ctx, e: e, src: r.Query}
	if r.Group && r.Sort == SortRelevance {
		// The times the query names weigh only where hits are ranked
		// and grouped (see run).
		b.dated = periods(r.Query)
	}
	node, filterNodes := splitFilters(node)
	var filters []bq.Query
	for _, f := range filterNodes {
		q, err := b.build(f)
		if err != nil {
			return nil, err
		}
		filters = append(filters, q)
	}
	var main bq.Query
	question := false
	if node != nil && r.Sort == SortRelevance {
		main = b.question(node)
		question = main != nil
	}
	if node != nil && main == nil {
		if main, err = b.build(node); err != nil {
			return nil, err
		}
	}
	if node != nil && (main == nil || !question && !b.positive) && len(filters) == 0 && !r.filteredByCaller() {
		// "the", "what is it?", "🎉", "!!!": nothing the index holds is
		// left, and matching every document would answer nothing asked.
		// Nor would every document but some: "-jitter", "the -bleve".
		if main != nil {
			return nil, &SyntaxError{Query: r.Query, Msg: "nothing to search for: the query only says what must not match (-word, NOT word), which would list every other document; add a word that says what you are looking for, or a filter such as type:conversation" + QuoteHint(r.Query)}
		}
		return nil, &SyntaxError{Query: r.Query, Msg: "nothing to search for: the query has only common words (the, it, what…), punctuation or symbols, which the index does not hold; add a word that says what you are looking for, or a filter such as type:conversation"}
	}
	if main == nil && r.Sort == SortRelevance {
		// Nothing ranks a listing of what the filters keep: every score
		// ties, and the order would be whatever Bleve's segments answer in
		// (another with the daemon than without). Newest first, as
		// Decisions lists.
		r.Sort = SortNewest
	}
	var dated []period
	if question {
		dated = b.dated
		now := time.Now()
		for i := range dated {
			dated[i].resolve(now)
		}
	}
	res, err := e.run(ctx, r, main, b.match, dated, filters...)
	if err != nil {
		return nil, err
	}
	if res.Total == 0 && !question {
		if relaxed, err := b.relaxed(node); err != nil {
			return nil, err
		} else if relaxed != nil {
			if res, err = e.run(ctx, r, relaxed, nil, nil, filters...); err != nil {
				return nil, err
			}
			res.Relaxed = true
		}
	}
	if question {
		// Every word is optional in a question's ranking, but the hits are
		// relaxed only when none of the documents holds every content word:
		// "quokka migration step" is ranked as a question, and its best
		// hit may well hold all three.
		n, err := e.count(ctx, r, b.every, filters...)
		if err != nil {
			return nil, err
		}
		res.Relaxed = n == 0
	}
	if err := stopped(ctx); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	res.Query = r.Query
	res.NextOffset, _ = NextOffset(r, res, len(res.Hits))
	res.TookMS = float64(time.Since(start).Microseconds()) / 1000
	return res, nil
}

// keywordFields are exact fields: a match on one restricts, it says nothing
// about relevance.
var keywordFields = map[string]bool{"role": true, "project": true, "source": true, "type": true, "tool": true, "model": true, "id": true}

// splitFilters takes the top-level keyword-field clauses (role:user,
// project:x…) out of n: they become non-scoring filters. It returns what is
// left (nil when nothing) and the filters.
func splitFilters(n Node) (Node, []Node) {
	isFilter := func(c Node) bool {
		t, ok := c.(*Term)
		return ok && keywordFields[t.Field] && t.Fuzziness == 0
	}
	switch n := n.(type) {
	case *Term:
		if isFilter(n) {
			return nil, []Node{n}
		}
	case *And:
		var rest, filters []Node
		for _, c := range n.Clauses {
			if isFilter(c) {
				filters = append(filters, c)
			} else {
				rest = append(rest, c)
			}
		}
		switch {
		case len(filters) == 0:
			return n, nil
		case len(rest) == 0:
			return nil, filters
		case len(rest) == 1:
			if _, neg := rest[0].(*Not); !neg {
				return rest[0], filters
			}
		}
		return &And{Clauses: rest}, filters
	}
	return n, nil
}

// relaxed returns, for a query of several words that all had to match (or
// one word of several parts), the query that ranks documents matching any
// of them (more is better); nil when the query has no such form.
func (b *builder) relaxed(n Node) (bq.Query, error) {
	if t, ok := n.(*Term); ok && t.Field == "" && !t.Prefix && t.Fuzziness == 0 {
		// One word of parts ("1.8.5"), which had to stand in a row: any
		// of them, the ones in a row ranked first ("v1.8.5" is v1, 8, 5).
		toks := analyze(b.e.analyzer, t.Text)
		if len(toks) < 2 {
			return nil, nil
		}
		should := make([]bq.Query, 0, len(toks))
		for _, tok := range toks {
			qs := make([]bq.Query, 0, len(textFields))
			for _, f := range textFields {
				qs = append(qs, f.term(tok))
			}
			should = append(should, disjunction(qs))
		}
		return combine(nil, should, nil), nil
	}
	and, ok := n.(*And)
	if !ok {
		return nil, nil
	}
	should, mustNot, err := b.clauses(and)
	if err != nil {
		return nil, err
	}
	if len(should) < 2 {
		return nil, nil
	}
	return combine(nil, should, mustNot), nil
}

// run executes main (nil: everything) within r's filters and extra, with
// r's sort, paging, highlighting and facets, and builds the Result. With
// r.Group, the hits from within the dated periods (resolved) weigh more
// (weighDated), and match, when not nil, counts each conversation's hits:
// it finds the same documents as main at less cost (a question's words
// without the clauses that only rank).
func (e *Engine) run(ctx context.Context, r Request, main, match bq.Query, dated []period, extra ...bq.Query) (*Result, error) {
	scope := func(main bq.Query) bq.Query { return r.scope(main, extra) }
	q := scope(main)

	size, from := r.Limit, r.Offset
	if r.Group {
		// Look at enough hits to fill the page with distinct conversations.
		size, from = min(max((r.Offset+r.Limit)*5, 50), MaxLimit), 0
	}
	req := bleve.NewSearchRequestOptions(q, size, from, false)
	req.Fields = storedFields
	switch r.Sort {
	case SortNewest:
		req.SortBy([]string{"-" + indexer.FieldDate, "_id"})
		req.Score = "none"
	case SortOldest:
		req.SortBy([]string{indexer.FieldDate, "_id"})
		req.Score = "none"
	default:
		// Score alone: a tie-breaker on _id makes the collector read the id
		// of every candidate, which costs more than the search itself.
		req.SortBy([]string{"-_score"})
	}
	if len(r.After) > 0 && !r.Group {
		after, err := decodeCursor(r.After)
		if err != nil {
			return nil, err
		}
		req.SearchAfter = after
	}
	if !r.NoHighlight && main != nil {
		req.Query = boundedPlaces{q}
		req.Highlight = bleve.NewHighlightWithStyle(htmlhl.Name)
		for _, f := range textFields {
			req.Highlight.AddField(f.name)
		}
	}
	if r.Facets {
		for _, f := range []string{indexer.FieldType, indexer.FieldSource, indexer.FieldProject, indexer.FieldRole} {
			req.AddFacet(f, bleve.NewFacetRequest(f, 20))
		}
	}
	sr, err := e.search(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	res := &Result{Total: sr.Total, Hits: make([]Hit, 0, len(sr.Hits))}
	// Only date-sorted single hits can be resumed from (see Validate).
	cursors := r.Sort != SortRelevance && !r.Group
	for _, dm := range sr.Hits {
		h := hitOf(dm)
		if cursors {
			h.Sort = encodeCursor(dm.Sort)
		}
		res.Hits = append(res.Hits, h)
	}
	read := len(res.Hits)    // of req's own pages, for group to go on from
	var seen map[string]bool // with addDated, every hit in res: later pages skip those it added
	if r.Group && len(dated) > 0 && main != nil {
		if seen, err = e.addDated(ctx, req, res, dated); err != nil {
			return nil, err
		}
		for i := range res.Hits {
			weighDated(&res.Hits[i], dated)
		}
	}
	if r.Group {
		counted := q
		if match != nil {
			counted = scope(match)
		}
		if err := e.group(ctx, req, r, res, counted, read, seen, dated); err != nil {
			return nil, err
		}
	}
	if r.Facets {
		res.Facets = map[string][]FacetCount{}
		for name, fr := range sr.Facets {
			key := name
			if key == indexer.FieldType {
				key = "type"
			}
			counts := []FacetCount{}
			for _, t := range fr.Terms.Terms() {
				counts = append(counts, FacetCount{Value: t.Term, Count: t.Count})
			}
			res.Facets[key] = counts
		}
	}
	if err := e.addConversationInfo(ctx, res.Hits); err != nil {
		return nil, err
	}
	return res, nil
}

// scope restricts main (nil: everything) to r's filters and extra, and
// leaves out hidden messages when r asks.
func (r *Request) scope(main bq.Query, extra []bq.Query) bq.Query {
	// Filters restrict without scoring: Bleve checks them only for the
	// documents the main query finds, and scores nothing twice.
	filters := append(r.fieldFilters(), extra...)
	q := main
	if ids := r.conversationFilter(); ids != nil {
		// A few conversations hold few of the documents a broad query
		// finds: the search goes from one of theirs to the next (within),
		// where a filter would read every match.
		if q == nil {
			q = bleve.NewMatchAllQuery()
		}
		q = within{q, ids}
	}
	if len(filters) > 0 || r.ExcludeHidden {
		fq := bleve.NewBooleanQuery()
		if q != nil {
			fq.AddMust(q)
		}
		if len(filters) > 0 {
			fq.AddFilter(combine(filters, nil, nil))
		}
		if r.ExcludeHidden {
			// A must-not on the few hidden documents, not a filter: a
			// negative filter walks every document to say which are left.
			hidden := bleve.NewTermQuery("true")
			hidden.SetField(indexer.FieldHidden)
			fq.AddMustNot(hidden)
		}
		q = fq
	}
	if q == nil {
		q = bleve.NewMatchAllQuery()
	}
	return q
}

// count returns how many documents q finds within r's filters and extra.
func (e *Engine) count(ctx context.Context, r Request, q bq.Query, extra ...bq.Query) (uint64, error) {
	req := bleve.NewSearchRequestOptions(r.scope(q, extra), 0, 0, false)
	req.Score = "none"
	sr, err := e.search(ctx, req)
	if err != nil {
		return 0, fmt.Errorf("search: count: %w", err)
	}
	return sr.Total, nil
}

// maxGroupScan bounds the hits a grouped search reads to fill its page:
// past it, one conversation with thousands of hits hides the rest, and the
// page says there is more.
const maxGroupScan = 4 * MaxLimit

// group turns res's hits, the first page of req (read hits) and any added
// by addDated, into the page of conversations r asks for. It reads further
// pages of hits while they hold fewer than one conversation past the page
// (so that More is known) and more are left, skipping the hits in seen
// and weighing the others by dated. Unless every hit was read, it then
// counts each conversation's hits exactly: q's matches within the page's
// conversations, q being the search's query or one that matches the same
// documents more cheaply.
func (e *Engine) group(ctx context.Context, req *bleve.SearchRequest, r Request, res *Result, q bq.Query, read int, seen map[string]bool, dated []period) error {
	want := r.Offset + r.Limit + 1
	if ids := r.conversationIDs(); len(ids) > 0 {
		// No more conversations can come than those asked for: reading on
		// to find one more would read every hit of theirs, page by page.
		want = min(want, len(ids))
	}
	// Only req's own pages say when enough conversations were read: one
	// that addDated found may rank below others req has not reached yet.
	convs := make(map[string]bool, want)
	for _, h := range res.Hits[:read] {
		convs[h.ConversationID] = true
	}
	// Ranked by weighted scores, the conversations of one page may come
	// from deeper than the hits that fill it: a decision weighs more than
	// the message above it. Reading stops only once the first want
	// conversations can no longer change: each scores more than any hit
	// not read yet could, weighted. Else a deeper page (a larger offset)
	// would rank over more hits than a shallower one, and the pages would
	// repeat some conversations and skip others.
	floor := math.Inf(1) // the score of the last hit read, its unread ones at most that
	if read > 0 {
		floor = res.Hits[read-1].Score // weighted by a date, if at all: at least the raw score
	}
	settled := func() bool {
		return r.Sort != SortRelevance || rankSettled(res.Hits, want, floor*maxWeight(dated))
	}
	for (len(convs) < want || !settled()) && uint64(req.From+read) < res.Total && req.From+req.Size < maxGroupScan {
		req.From += req.Size
		req.Size = min(req.Size*2, MaxLimit, maxGroupScan-req.From)
		req.Facets = nil // counted on the first page
		sr, err := e.search(ctx, req)
		if err != nil {
			return fmt.Errorf("search: %w", err)
		}
		if len(sr.Hits) == 0 {
			break
		}
		read = len(sr.Hits)
		floor = sr.Hits[read-1].Score
		for _, dm := range sr.Hits {
			h := hitOf(dm)
			if seen[h.ID] {
				continue
			}
			weighDated(&h, dated)
			convs[h.ConversationID] = true
			res.Hits = append(res.Hits, h)
		}
	}
	all := uint64(len(res.Hits)) >= res.Total
	short := len(convs) < want // the scan stopped before it found them all
	res.Hits, res.More = groupRanked(res.Hits, r.Offset, r.Limit, r.Sort == SortRelevance)
	if !res.More && !all && short && len(res.Hits) == r.Limit {
		res.More = true // the scan stopped at maxGroupScan
	}
	if all || len(res.Hits) == 0 {
		return nil
	}
	return e.countHits(ctx, q, res.Hits)
}

// addDated adds to res, the first page of req, the best hits of req's query
// from within the periods: the answer to "what did Mel paint in July?" may
// rank far below the first page until its date counts. It returns the ids
// of every hit res then holds.
func (e *Engine) addDated(ctx context.Context, req *bleve.SearchRequest, res *Result, dated []period) (map[string]bool, error) {
	dreq := *req
	fq := bleve.NewBooleanQuery()
	fq.AddMust(req.Query)
	fq.AddFilter(datedQuery(dated))
	dreq.Query = fq
	dreq.Facets = nil
	sr, err := e.search(ctx, &dreq)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	seen := make(map[string]bool, len(res.Hits)+len(sr.Hits))
	for _, h := range res.Hits {
		seen[h.ID] = true
	}
	for _, dm := range sr.Hits {
		if h := hitOf(dm); !seen[h.ID] {
			seen[h.ID] = true
			res.Hits = append(res.Hits, h)
		}
	}
	return seen, nil
}

// countHits sets each grouped hit's Count to the number of q's hits in its
// conversation, in one search: a facet on the conversation over q within
// these conversations.
func (e *Engine) countHits(ctx context.Context, q bq.Query, hits []Hit) error {
	ids := make([]string, 0, len(hits))
	for _, h := range hits {
		ids = append(ids, h.ConversationID)
	}
	// within, not a filter: a filter would read every match of q.
	req := bleve.NewSearchRequestOptions(within{q, terms(indexer.FieldConversationID, ids)}, 0, 0, false)
	req.Score = "none" // counted, not ranked
	req.AddFacet("c", bleve.NewFacetRequest(indexer.FieldConversationID, len(hits)))
	sr, err := e.search(ctx, req)
	if err != nil {
		return fmt.Errorf("search: count hits: %w", err)
	}
	counts := map[string]int{}
	if fr := sr.Facets["c"]; fr != nil && fr.Terms != nil {
		for _, t := range fr.Terms.Terms() {
			counts[t.Term] = t.Count
		}
	}
	for i := range hits {
		if n := counts[hits[i].ConversationID]; n > hits[i].Count {
			hits[i].Count = n
		}
	}
	return nil
}
