package query

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
)

// Request is one search.
type Request struct {
	// Query is text in the query language (see Parse). Empty lists
	// everything the filters let through, and needs a filter.
	Query    string   `json:"query"`
	Types    []string `json:"type,omitempty"` // conversation, message, topic, decision
	Projects []string `json:"project,omitempty"`
	Sources  []string `json:"source,omitempty"`
	Roles    []string `json:"role,omitempty"`
	// Since and Until bound the date, both inclusive (ParseUntil reads a
	// date as its last instant).
	Since time.Time `json:"since,omitzero"`
	Until time.Time `json:"until,omitzero"`
	// Conversations restricts the search to these conversations, each
	// named by its id or by one of its hits' ids ("m/ID/12").
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

	// kindOfList is set when Types is the kind a listing is of (Decisions),
	// not a filter the caller chose: it does not make a query of only
	// common words a listing.
	kindOfList bool
	// resolved is set when each of Conversations was read one way only
	// (resolveHits): a conversation's own id, or the id of a hit's.
	resolved bool
}

// Validate checks r and fills its defaults.
func (r *Request) Validate() error {
	if strings.TrimSpace(r.Query) == "" && !r.filtered() {
		// Every document, unasked for: a mistake more often than a wish.
		return &SyntaxError{Query: r.Query, Msg: "the query is empty: give words to look for (e.g. retry policy, or decision:postgres), or a filter (type, project, source, role, conversation, since, until) to list what it keeps"}
	}
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

// filtered reports whether r has a restriction besides its query.
func (r *Request) filtered() bool {
	return len(r.Types) > 0 || len(r.Projects) > 0 || len(r.Sources) > 0 || len(r.Roles) > 0 ||
		len(r.Conversations) > 0 || !r.Since.IsZero() || !r.Until.IsZero()
}

// filteredByCaller reports whether r has a restriction besides its query
// that its caller chose.
func (r *Request) filteredByCaller() bool {
	if r.kindOfList {
		c := *r
		c.Types = nil
		return c.filtered()
	}
	return r.filtered()
}

// filters returns the request's non-text restrictions.
func (r *Request) filters() []bq.Query {
	fs := r.fieldFilters()
	if q := r.conversationFilter(); q != nil {
		fs = append(fs, q)
	}
	return fs
}

// terms is a disjunction of field's values; nil without values.
func terms(field string, values []string) bq.Query {
	if len(values) == 0 {
		return nil
	}
	qs := make([]bq.Query, 0, len(values))
	for _, v := range values {
		if field == indexer.FieldProject {
			qs = append(qs, anyCase(field, v, false))
			continue
		}
		q := bleve.NewTermQuery(v)
		q.SetField(field)
		qs = append(qs, q)
	}
	return disjunction(qs)
}

// fieldFilters returns the request's non-text restrictions but its
// conversations.
func (r *Request) fieldFilters() []bq.Query {
	var fs []bq.Query
	for _, f := range []struct {
		field  string
		values []string
	}{
		{indexer.FieldType, r.Types},
		{indexer.FieldProject, r.Projects},
		{indexer.FieldSource, lower(r.Sources)},
		{indexer.FieldRole, lower(r.Roles)},
	} {
		if q := terms(f.field, f.values); q != nil {
			fs = append(fs, q)
		}
	}
	if !r.Since.IsZero() || !r.Until.IsZero() {
		inclusive := true
		q := bleve.NewDateRangeInclusiveQuery(r.Since, r.Until, &inclusive, &inclusive)
		q.SetField(indexer.FieldDate)
		fs = append(fs, q)
	}
	return fs
}

// conversationIDs returns the conversations r.Conversations names: a
// hit's id names its conversation ("m/ID/12" is ID); the id as given stays
// too, for a conversation whose own id looks like a hit's.
func (r *Request) conversationIDs() []string {
	convs := slices.Clone(r.Conversations)
	for _, v := range r.Conversations {
		if c, _ := ConversationID(v); c != v && !r.resolved { // resolved: each names one already
			convs = append(convs, c)
		}
	}
	slices.Sort(convs)
	return slices.Compact(convs)
}

// conversationFilter matches the documents of r.Conversations; nil
// without.
func (r *Request) conversationFilter() bq.Query {
	return terms(indexer.FieldConversationID, r.conversationIDs())
}

func lower(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}

// keywordQuery matches value in keyword field as it is (with prefix, the
// terms that start so).
func keywordQuery(field, value string, prefix bool) bq.Query {
	if prefix {
		q := bleve.NewPrefixQuery(value)
		q.SetField(field)
		return q
	}
	q := bleve.NewTermQuery(value)
	q.SetField(field)
	return q
}

// anyCase matches value in keyword field in any case (with prefix, the terms
// that start so). Projects are indexed as their files name them ("Ledger",
// "ledger"), and whoever filters by one should not have to know which; the
// field holds few terms, so a regexp over them costs little.
func anyCase(field, value string, prefix bool) bq.Query {
	if !utf8.ValidString(value) || utf8.RuneCountInString(value) > maxAnyCase {
		// No project is named so: as it is (a long one would make the
		// regexp's automaton too large).
		return keywordQuery(field, value, prefix)
	}
	var b strings.Builder
	for _, r := range value {
		folds := []rune{r}
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			folds = append(folds, f)
		}
		if len(folds) == 1 {
			b.WriteString(regexp.QuoteMeta(string(r)))
			continue
		}
		b.WriteByte('[')
		for _, f := range folds {
			b.WriteString(regexp.QuoteMeta(string(f)))
		}
		b.WriteByte(']')
	}
	if prefix {
		b.WriteString(".*")
	}
	q := bleve.NewRegexpQuery(b.String())
	q.SetField(field)
	return q
}

// maxAnyCase bounds the length of a value anyCase matches in any case.
const maxAnyCase = 200

// ProjectMatches reports whether a project filter of value keeps the
// project name, as the filter matches it: in any case, but a value longer
// than maxAnyCase (or not UTF-8) only as given.
func ProjectMatches(name, value string) bool {
	return name == value || utf8.ValidString(value) && utf8.RuneCountInString(value) <= maxAnyCase && strings.EqualFold(name, value)
}
