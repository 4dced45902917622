// Package query turns a Request in convsearch's own query language into Bleve
// queries and returns one Result shape that the command line, the HTTP API
// and the MCP tools all share. It never writes to the index.
package query

import (
	"context"
	"errors"
	"fmt"
	"html"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"
	bsearch "github.com/blevesearch/bleve/v2/search"
	htmlhl "github.com/blevesearch/bleve/v2/search/highlight/highlighter/html"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
)

// Searcher runs Bleve searches: the indexer's Index satisfies it.
type Searcher interface {
	Search(ctx context.Context, req *bleve.SearchRequest) (*bleve.SearchResult, error)
}

// Limits on what one request may ask for.
const (
	DefaultLimit = 20
	MaxLimit     = 1000
	MaxOffset    = 10000
	// DefaultTimeout bounds one search: a phrase matching most of a large
	// index can take long, and no answer is worth a hung caller.
	DefaultTimeout = 10 * time.Second
)

// Sort orders.
const (
	SortRelevance = "relevance"
	SortNewest    = "newest"
	SortOldest    = "oldest"
)

// Engine answers requests over one index.
type Engine struct {
	s        Searcher
	analyzer analysis.Analyzer
	timeout  time.Duration
	convs    convCache
}

// generationer is implemented by searchers that can say when the index
// changed (the indexer's Index): conversation details are cached until then.
type generationer interface{ Generation() uint64 }

// convCache keeps conversation details for hits, valid for one generation
// of the index.
type convCache struct {
	mu    sync.Mutex
	gen   uint64
	infos map[string]ConversationInfo
}

const convCacheSize = 20000

func (c *convCache) get(gen uint64, id string) (ConversationInfo, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return ConversationInfo{}, false
	}
	info, ok := c.infos[id]
	return info, ok
}

func (c *convCache) put(gen uint64, infos map[string]ConversationInfo) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || c.infos == nil || len(c.infos)+len(infos) > convCacheSize {
		c.gen, c.infos = gen, make(map[string]ConversationInfo, len(infos))
	}
	for id, info := range infos {
		c.infos[id] = info
	}
}

// New returns an Engine over s.
func New(s Searcher) (*Engine, error) {
	an, err := registry.NewCache().AnalyzerNamed(en.AnalyzerName)
	if err != nil {
		return nil, fmt.Errorf("query: english analyzer: %w", err)
	}
	return &Engine{s: s, analyzer: an, timeout: DefaultTimeout}, nil
}

// Request is one search.
type Request struct {
	// Query is text in the query language (see Parse). Empty matches
	// everything the filters let through.
	Query    string    `json:"query"`
	Types    []string  `json:"type,omitempty"` // conversation, message, topic, decision
	Projects []string  `json:"project,omitempty"`
	Sources  []string  `json:"source,omitempty"`
	Roles    []string  `json:"role,omitempty"`
	Since    time.Time `json:"since,omitzero"`
	Until    time.Time `json:"until,omitzero"`
	// Conversations restricts the search to these conversation ids.
	Conversations []string `json:"conversation,omitempty"`
	Limit         int      `json:"limit,omitempty"`  // default 20, at most 1000
	Offset        int      `json:"offset,omitempty"` // hits to skip
	// After is the Sort value of the last hit of the previous page: the
	// next page starts after it (search-after; better than Offset deep in).
	// The values are opaque, printable and safe on a command line.
	After []string `json:"after,omitempty"`
	Sort  string   `json:"sort,omitempty"` // relevance (default), newest, oldest
	// Group returns the best hit per conversation, with how many hits the
	// conversation had.
	Group bool `json:"group,omitempty"`
	// Facets asks for counts by type, source, project and role.
	Facets bool `json:"facets,omitempty"`
	// NoHighlight skips building fragments.
	NoHighlight bool `json:"no_highlight,omitempty"`
	// ExcludeHidden leaves out injected and procedural messages.
	ExcludeHidden bool `json:"exclude_hidden,omitempty"`
}

// Validate checks r and fills its defaults.
func (r *Request) Validate() error {
	if r.Limit == 0 {
		r.Limit = DefaultLimit
	}
	if r.Limit < 1 || r.Limit > MaxLimit {
		return fmt.Errorf("limit %d out of range: 1 to %d", r.Limit, MaxLimit)
	}
	if r.Offset < 0 {
		return fmt.Errorf("offset %d is negative", r.Offset)
	}
	if r.Offset > MaxOffset {
		// Bleve collects offset+limit hits to skip offset of them.
		return fmt.Errorf("offset %d too deep: at most %d; page further with after (sort newest or oldest), or narrow the search", r.Offset, MaxOffset)
	}
	switch r.Sort {
	case "":
		r.Sort = SortRelevance
	case SortRelevance, SortNewest, SortOldest:
	default:
		return fmt.Errorf("sort %q: use relevance, newest or oldest", r.Sort)
	}
	if !r.Since.IsZero() && !r.Until.IsZero() && r.Until.Before(r.Since) {
		return fmt.Errorf("until (%s) is before since (%s)", r.Until.Format(time.RFC3339), r.Since.Format(time.RFC3339))
	}
	for i, role := range r.Roles {
		r.Roles[i] = strings.ToLower(strings.TrimSpace(role))
		if !conversation.Role(r.Roles[i]).Valid() {
			return fmt.Errorf("role %q: use user, assistant, system or tool", role)
		}
	}
	for i, t := range r.Types {
		k := NormalizeKind(t)
		if k == "" {
			return fmt.Errorf("type %q: use conversation, message, topic or decision", t)
		}
		r.Types[i] = k
	}
	if len(r.After) > 0 && r.Offset > 0 {
		return errors.New("give offset or after, not both")
	}
	if len(r.After) > 0 && r.Sort == SortRelevance {
		// Scores tie and Bleve's score sort has no tie-breaker to resume from.
		return errors.New("after pages results sorted newest or oldest; page relevance-sorted results with offset")
	}
	if len(r.After) > 0 {
		if r.Group {
			return errors.New("after pages single hits; page grouped results with offset")
		}
		if _, err := decodeCursor(r.After); err != nil {
			return err
		}
	}
	// Bleve's date range takes times it can hold as nanoseconds since 1970.
	for _, t := range []*time.Time{&r.Since, &r.Until} {
		switch {
		case t.IsZero():
		case t.Before(minDate):
			*t = minDate
		case t.After(maxDate):
			*t = maxDate
		}
	}
	return nil
}

// The range of dates a filter can name (Bleve stores dates as int64
// nanoseconds); dates beyond are clamped to these.
var (
	minDate = time.Unix(0, 0).UTC()
	maxDate = time.Date(2262, 1, 1, 0, 0, 0, 0, time.UTC)
)

// Hit is one matching document.
type Hit struct {
	Kind           string    `json:"kind"`
	ID             string    `json:"id"`
	ConversationID string    `json:"conversation_id"`
	Title          string    `json:"title"`
	Date           time.Time `json:"date,omitzero"`
	Source         string    `json:"source"`
	Project        string    `json:"project,omitempty"`
	File           string    `json:"file"`
	MessageIndex   *int      `json:"message_index,omitempty"`
	Role           string    `json:"role,omitempty"`
	Hidden         bool      `json:"hidden,omitempty"`
	Score          float64   `json:"score"`
	// Fragments are the matched passages, matched words inside
	// <mark>…</mark>, the rest HTML-escaped.
	Fragments []string `json:"fragments,omitempty"`
	// Text is the topic's name or the decision; for other kinds, the start
	// of the text when there is no fragment.
	Text      string `json:"text,omitempty"`
	Rationale string `json:"rationale,omitempty"`
	// Count is, with Group, the number of hits in the conversation among
	// those looked at.
	Count int `json:"count,omitempty"`
	// Sort is the value to pass as Request.After for the next page.
	Sort []string `json:"sort,omitempty"`
	// Context holds the messages around a message hit, when asked for
	// (see Engine.AddContext).
	Context []StoredMessage `json:"context,omitempty"`
}

// FacetCount is one value of a facet and how many hits have it.
type FacetCount struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

// Result is the answer to a Request.
type Result struct {
	Query string `json:"query"`
	// Total is the number of matching documents.
	Total  uint64  `json:"total"`
	TookMS float64 `json:"took_ms"`
	Hits   []Hit   `json:"hits"`
	// Facets by type, source, project and role, when asked for.
	Facets map[string][]FacetCount `json:"facets,omitempty"`
	// Relaxed is true when no document matched every word and the hits are
	// those matching the most of them.
	Relaxed bool `json:"relaxed,omitempty"`
}

// storedFields are loaded for every hit.
var storedFields = []string{
	indexer.FieldType, indexer.FieldConversationID, indexer.FieldSource, indexer.FieldProject, indexer.FieldFile,
	indexer.FieldDate, indexer.FieldRole, indexer.FieldMessageIndex, indexer.FieldHidden, indexer.FieldTitle,
	indexer.FieldName, indexer.FieldDecision, indexer.FieldRationale, indexer.FieldContent,
}

// Search runs r.
func (e *Engine) Search(ctx context.Context, r Request) (*Result, error) {
	start := time.Now()
	if err := r.Validate(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	node, err := Parse(r.Query)
	if err != nil {
		return nil, err
	}
	b := &builder{ctx: ctx, e: e, src: r.Query}
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
	if node != nil {
		if main, err = b.build(node); err != nil {
			return nil, err
		}
	}
	res, err := e.run(ctx, r, main, filters...)
	if err != nil {
		return nil, err
	}
	if res.Total == 0 {
		if relaxed, err := b.relaxed(node); err != nil {
			return nil, err
		} else if relaxed != nil {
			if res, err = e.run(ctx, r, relaxed, filters...); err != nil {
				return nil, err
			}
			res.Relaxed = true
		}
	}
	res.Query = r.Query
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

// relaxed returns, for a query of several words that all had to match, the
// query that ranks documents matching any of them (more is better); nil when
// the query has no such form.
func (b *builder) relaxed(n Node) (bq.Query, error) {
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

// filters returns the request's non-text restrictions.
func (r *Request) filters() []bq.Query {
	var fs []bq.Query
	terms := func(field string, values []string) {
		if len(values) == 0 {
			return
		}
		qs := make([]bq.Query, 0, len(values))
		for _, v := range values {
			q := bleve.NewTermQuery(v)
			q.SetField(field)
			qs = append(qs, q)
		}
		fs = append(fs, disjunction(qs))
	}
	terms(indexer.FieldType, r.Types)
	terms(indexer.FieldProject, r.Projects)
	terms(indexer.FieldSource, lower(r.Sources))
	terms(indexer.FieldRole, lower(r.Roles))
	terms(indexer.FieldConversationID, r.Conversations)
	if !r.Since.IsZero() || !r.Until.IsZero() {
		q := bleve.NewDateRangeQuery(r.Since, r.Until)
		q.SetField(indexer.FieldDate)
		fs = append(fs, q)
	}
	return fs
}

func lower(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}

// run executes main (nil: everything) with r's filters, sort, paging,
// highlighting and facets, and builds the Result.
func (e *Engine) run(ctx context.Context, r Request, main bq.Query, extra ...bq.Query) (*Result, error) {
	// Filters restrict without scoring: Bleve checks them only for the
	// documents the main query finds, and scores nothing twice.
	filters := append(r.filters(), extra...)
	var q bq.Query = main
	if len(filters) > 0 || r.ExcludeHidden {
		fq := bleve.NewBooleanQuery()
		if main != nil {
			fq.AddMust(main)
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
	sr, err := e.s.Search(ctx, req)
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
	if r.Group {
		res.Hits = group(res.Hits, r.Offset, r.Limit)
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

// group keeps the best hit of each conversation, in rank order, counting the
// hits each had.
func group(hits []Hit, offset, limit int) []Hit {
	var out []Hit
	pos := map[string]int{}
	for _, h := range hits {
		if i, ok := pos[h.ConversationID]; ok {
			out[i].Count++
			continue
		}
		h.Count = 1
		pos[h.ConversationID] = len(out)
		out = append(out, h)
	}
	if offset >= len(out) {
		return []Hit{}
	}
	out = out[offset:]
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

func hitOf(dm *bsearch.DocumentMatch) Hit {
	h := Hit{
		ID:             dm.ID,
		Kind:           str(dm.Fields[indexer.FieldType]),
		ConversationID: str(dm.Fields[indexer.FieldConversationID]),
		Source:         str(dm.Fields[indexer.FieldSource]),
		Project:        str(dm.Fields[indexer.FieldProject]),
		File:           str(dm.Fields[indexer.FieldFile]),
		Role:           str(dm.Fields[indexer.FieldRole]),
		Hidden:         str(dm.Fields[indexer.FieldHidden]) == "true",
		Title:          str(dm.Fields[indexer.FieldTitle]),
		Rationale:      str(dm.Fields[indexer.FieldRationale]),
		Score:          dm.Score,
	}
	if t, ok := timeOf(dm.Fields[indexer.FieldDate]); ok {
		h.Date = t
	}
	if f, ok := dm.Fields[indexer.FieldMessageIndex].(float64); ok && f >= 0 {
		i := int(f)
		h.MessageIndex = &i
	}
	switch h.Kind {
	case indexer.KindTopic:
		h.Text = str(dm.Fields[indexer.FieldName])
	case indexer.KindDecision:
		h.Text = str(dm.Fields[indexer.FieldDecision])
	}
	// Fragments in the order of the text fields' weight.
	for _, f := range textFields {
		h.Fragments = append(h.Fragments, dm.Fragments[f.name]...)
	}
	if len(h.Fragments) == 0 && h.Text == "" {
		h.Text = snippet(str(dm.Fields[indexer.FieldContent]), 240)
	}
	return h
}

// snippet returns the start of s, at most n runes, on one line.
func snippet(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		parts := make([]string, 0, len(v))
		for _, p := range v {
			parts = append(parts, str(p))
		}
		return strings.Join(parts, ", ")
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

func strs(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		out := make([]string, 0, len(v))
		for _, p := range v {
			out = append(out, str(p))
		}
		return out
	}
	return nil
}

func timeOf(v any) (time.Time, bool) {
	s, ok := v.(string)
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	return t, err == nil
}

// addConversationInfo fills each hit's conversation title and date from its
// conversation's document.
func (e *Engine) addConversationInfo(ctx context.Context, hits []Hit) error {
	if len(hits) == 0 {
		return nil
	}
	gen, cacheable := e.generation()
	infos := map[string]ConversationInfo{}
	var ids []string
	for _, h := range hits {
		if _, ok := infos[h.ConversationID]; ok {
			continue
		}
		if cacheable {
			if info, ok := e.convs.get(gen, h.ConversationID); ok {
				infos[h.ConversationID] = info
				continue
			}
		}
		infos[h.ConversationID] = ConversationInfo{}
		ids = append(ids, indexer.ConversationDocID(h.ConversationID))
	}
	if len(ids) > 0 {
		found, err := e.conversationDocs(ctx, ids)
		if err != nil {
			return err
		}
		for id, info := range found {
			infos[id] = info
		}
		if cacheable {
			e.convs.put(gen, found)
		}
	}
	for i := range hits {
		info := infos[hits[i].ConversationID]
		if info.ID == "" {
			continue
		}
		if hits[i].Kind != indexer.KindConversation || hits[i].Title == "" {
			hits[i].Title = info.Title
		}
		if hits[i].Date.IsZero() {
			hits[i].Date = info.Date
		}
		hits[i].File = info.File
	}
	return nil
}

func (e *Engine) generation() (uint64, bool) {
	g, ok := e.s.(generationer)
	if !ok {
		return 0, false
	}
	return g.Generation(), true
}

// ConversationInfo is what the index holds of a conversation itself.
type ConversationInfo struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	Date     time.Time `json:"date,omitzero"`
	Source   string    `json:"source"`
	Project  string    `json:"project,omitempty"`
	File     string    `json:"file"`
	Topics   []string  `json:"topics,omitempty"`
	Tags     []string  `json:"tags,omitempty"`
	Messages int       `json:"messages"`
}

func (e *Engine) conversationDocs(ctx context.Context, docIDs []string) (map[string]ConversationInfo, error) {
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery(docIDs), len(docIDs), 0, false)
	req.Fields = []string{indexer.FieldConversationID, indexer.FieldTitle, indexer.FieldDate, indexer.FieldSource,
		indexer.FieldProject, indexer.FieldFile, indexer.FieldTopics, indexer.FieldTags, indexer.FieldMessages}
	req.SortBy([]string{"_id"})
	sr, err := e.s.Search(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("look up conversations: %w", err)
	}
	out := make(map[string]ConversationInfo, len(sr.Hits))
	for _, dm := range sr.Hits {
		info := ConversationInfo{
			ID:      str(dm.Fields[indexer.FieldConversationID]),
			Title:   str(dm.Fields[indexer.FieldTitle]),
			Source:  str(dm.Fields[indexer.FieldSource]),
			Project: str(dm.Fields[indexer.FieldProject]),
			File:    str(dm.Fields[indexer.FieldFile]),
			Topics:  strs(dm.Fields[indexer.FieldTopics]),
			Tags:    strs(dm.Fields[indexer.FieldTags]),
		}
		info.Date, _ = timeOf(dm.Fields[indexer.FieldDate])
		if f, ok := dm.Fields[indexer.FieldMessages].(float64); ok {
			info.Messages = int(f)
		}
		out[info.ID] = info
	}
	return out, nil
}

// conversationIDs returns the ids of the conversations (at most 10000) that
// have a document matching q.
func (e *Engine) conversationIDs(ctx context.Context, q bq.Query) ([]string, error) {
	req := bleve.NewSearchRequestOptions(q, 0, 0, false)
	req.AddFacet("c", bleve.NewFacetRequest(indexer.FieldConversationID, 10000))
	sr, err := e.s.Search(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	var ids []string
	if f := sr.Facets["c"]; f != nil {
		for _, t := range f.Terms.Terms() {
			ids = append(ids, t.Term)
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// PlainFragment turns a fragment's markup into plain text with the matched
// words between open and close (e.g. ANSI codes, or « and »).
func PlainFragment(frag, open, close string) string {
	frag = strings.ReplaceAll(frag, "<mark>", "\x00")
	frag = strings.ReplaceAll(frag, "</mark>", "\x01")
	frag = html.UnescapeString(frag)
	frag = strings.ReplaceAll(frag, "\x00", open)
	return strings.ReplaceAll(frag, "\x01", close)
}
