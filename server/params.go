package server

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/query"
)

// The query parameters of GET /api/search:
//
//	q          the query text (query language)
//	type       conversation, message, topic, decision
//	source     formats
//	role       user, assistant, system, tool
//	project    projects (repeat the parameter: a project name may hold a comma)
//	conversation  conversation ids (repeat)
//	since, until  a date, RFC 3339, or a duration back from now (7d, 36h);
//	              both inclusive, a date or month until takes in all of it
//	limit, offset
//	after      the "sort" values of the last hit, comma-separated (or repeated)
//	sort       relevance, newest, oldest
//	group, facets, no_hidden, no_highlight  booleans (1, true; bare = true)
//	context    messages around each message hit (0 to 50)
//
// type, source and role may be repeated or comma-separated. Any other
// parameter is a mistake (a typo would otherwise be ignored in silence).
var searchParams = []string{"q", "type", "source", "role", "project", "conversation", "since", "until",
	"limit", "offset", "after", "sort", "group", "facets", "no_hidden", "no_highlight", "context"}

// ParseSearchParams reads a search request from URL parameters, and the
// number of context messages asked for. The request is validated.
func ParseSearchParams(v url.Values, now time.Time) (query.Request, int, error) {
	if err := known(v, searchParams...); err != nil {
		return query.Request{}, 0, err
	}
	r := query.Request{
		Query:         first(v, "q"),
		Types:         list(v, "type"),
		Sources:       list(v, "source"),
		Roles:         list(v, "role"),
		Projects:      nonEmpty(v["project"]),
		Conversations: nonEmpty(v["conversation"]),
		After:         list(v, "after"),
		Sort:          first(v, "sort"),
	}
	if v.Has("after") && len(r.After) == 0 {
		return r, 0, fmt.Errorf("after %q: want the sort values of the last hit of the page before (its \"sort\" field), comma-separated", first(v, "after"))
	}
	var err error
	if r.Since, err = query.ParseWhen(first(v, "since"), now); err != nil {
		return r, 0, timeError("since", first(v, "since"), err, query.ParseWhen, now)
	}
	if r.Until, err = query.ParseUntil(first(v, "until"), now); err != nil {
		return r, 0, timeError("until", first(v, "until"), err, query.ParseUntil, now)
	}
	// Request.Validate reads 0 as "the default"; a caller who wrote
	// limit=0 meant something else.
	if r.Limit, err = limitParam(v, query.DefaultLimit, query.MaxLimit); err != nil {
		return r, 0, err
	}
	if r.Offset, err = intParam(v, "offset", 0); err != nil {
		return r, 0, err
	}
	for name, dst := range map[string]*bool{"group": &r.Group, "facets": &r.Facets, "no_hidden": &r.ExcludeHidden, "no_highlight": &r.NoHighlight} {
		if *dst, err = boolParam(v, name); err != nil {
			return r, 0, err
		}
	}
	n, err := intParam(v, "context", 0)
	if err != nil {
		return r, 0, err
	}
	if n < 0 || n > maxContext {
		return r, 0, fmt.Errorf("context %d out of range: 0 to %d", n, maxContext)
	}
	if err := r.Validate(); err != nil {
		return r, 0, err
	}
	if _, err := query.Parse(r.Query); err != nil {
		return r, 0, err
	}
	return r, n, nil
}

// timeError is the error of time parameter name, value, which parse
// refused. A time sent with a raw + in its zone (…T06:30:00+02:00) reads
// as a space in a URL's query: when the + back makes it a time, the error
// says how to send it.
func timeError(name, value string, err error, parse func(string, time.Time) (time.Time, error), now time.Time) error {
	if plus := strings.ReplaceAll(value, " ", "+"); plus != value {
		if _, perr := parse(plus, now); perr == nil {
			return fmt.Errorf("%s: %w (a + in a URL is a space: write %%2B)", name, err)
		}
	}
	return fmt.Errorf("%s: %w", name, err)
}

// SearchValues is the inverse of ParseSearchParams.
func SearchValues(r query.Request, context int) url.Values {
	v := url.Values{}
	set := func(name, s string) {
		if s != "" {
			v.Set(name, s)
		}
	}
	set("q", r.Query)
	v["type"] = r.Types
	v["source"] = r.Sources
	v["role"] = r.Roles
	v["project"] = r.Projects
	v["conversation"] = r.Conversations
	if len(r.After) > 0 {
		v.Set("after", strings.Join(r.After, ","))
	}
	set("sort", r.Sort)
	if !r.Since.IsZero() {
		set("since", r.Since.Format(time.RFC3339Nano))
	}
	if !r.Until.IsZero() {
		set("until", r.Until.Format(time.RFC3339Nano))
	}
	if r.Limit != 0 {
		set("limit", strconv.Itoa(r.Limit))
	}
	if r.Offset != 0 {
		set("offset", strconv.Itoa(r.Offset))
	}
	for name, b := range map[string]bool{"group": r.Group, "facets": r.Facets, "no_hidden": r.ExcludeHidden, "no_highlight": r.NoHighlight} {
		if b {
			set(name, "1")
		}
	}
	if context > 0 {
		set("context", strconv.Itoa(context))
	}
	for k, vs := range v {
		if len(vs) == 0 {
			delete(v, k)
		}
	}
	return v
}

// ParseDecisionsParams reads a decisions request (q, project, source,
// since, until, limit, offset) from URL parameters.
func ParseDecisionsParams(v url.Values, now time.Time) (query.DecisionsRequest, error) {
	if err := known(v, "q", "project", "source", "since", "until", "limit", "offset"); err != nil {
		return query.DecisionsRequest{}, err
	}
	r := query.DecisionsRequest{Query: first(v, "q"), Projects: nonEmpty(v["project"]), Sources: list(v, "source")}
	var err error
	if r.Since, err = query.ParseWhen(first(v, "since"), now); err != nil {
		return r, timeError("since", first(v, "since"), err, query.ParseWhen, now)
	}
	if r.Until, err = query.ParseUntil(first(v, "until"), now); err != nil {
		return r, timeError("until", first(v, "until"), err, query.ParseUntil, now)
	}
	if r.Limit, err = limitParam(v, 50, query.MaxLimit); err != nil {
		return r, err
	}
	if r.Offset, err = offsetParam(v); err != nil {
		return r, err
	}
	// The engine runs decisions as a search: checked here by the search's
	// own rules (until before since…), a mistake is the client's 400, not
	// the engine's 500.
	s := query.Request{Query: r.Query, Types: []string{indexer.KindDecision}, Projects: r.Projects, Sources: r.Sources,
		Since: r.Since, Until: r.Until, Limit: r.Limit, Offset: r.Offset}
	if err := s.Validate(); err != nil {
		return r, err
	}
	if _, err := query.Parse(r.Query); err != nil {
		return r, err
	}
	return r, nil
}

// DecisionsValues is the inverse of ParseDecisionsParams.
func DecisionsValues(r query.DecisionsRequest) url.Values {
	v := url.Values{}
	if r.Query != "" {
		v.Set("q", r.Query)
	}
	if len(r.Projects) > 0 {
		v["project"] = r.Projects
	}
	if len(r.Sources) > 0 {
		v["source"] = r.Sources
	}
	if !r.Since.IsZero() {
		v.Set("since", r.Since.Format(time.RFC3339Nano))
	}
	if !r.Until.IsZero() {
		v.Set("until", r.Until.Format(time.RFC3339Nano))
	}
	if r.Limit != 0 {
		v.Set("limit", strconv.Itoa(r.Limit))
	}
	if r.Offset != 0 {
		v.Set("offset", strconv.Itoa(r.Offset))
	}
	return v
}

// ParseTopicsParams reads a topics request (project, source, limit,
// offset) from URL parameters.
func ParseTopicsParams(v url.Values) (query.TopicsRequest, error) {
	if err := known(v, "project", "source", "limit", "offset"); err != nil {
		return query.TopicsRequest{}, err
	}
	r := query.TopicsRequest{Projects: nonEmpty(v["project"]), Sources: list(v, "source")}
	var err error
	if r.Limit, err = limitParam(v, 50, query.MaxLimit); err != nil {
		return r, err
	}
	r.Offset, err = offsetParam(v)
	return r, err
}

// offsetParam reads the offset of a listing's page, 0 when absent: as deep
// as search pages (query.MaxOffset), as the engine collects every hit
// before the page.
func offsetParam(v url.Values) (int, error) {
	n, err := intParam(v, "offset", 0)
	if err == nil && (n < 0 || n > query.MaxOffset) {
		err = fmt.Errorf("offset %d out of range: 0 to %d (pass next_offset of the previous answer; deeper, narrow the listing)", n, query.MaxOffset)
	}
	return n, err
}

// Page is a run of a conversation's messages (GET
// /api/conversations/{id}?offset=&limit=).
type Page struct {
	Offset int // the first message
	Limit  int // at most this many; 0: to the end
}

// The messages of one page of a conversation: DefaultPage unless the
// request says how many, at most MaxPage. A long conversation whole was
// megabytes in one answer; a client that needs it all follows next_offset.
const (
	DefaultPage = 100
	MaxPage     = 1000
)

// ParsePageParams reads offset and limit (DefaultPage when absent).
func ParsePageParams(v url.Values) (Page, error) {
	return parsePage(v, DefaultPage, MaxPage)
}

// parsePage reads offset and limit (def when absent, else 1 to most), and
// allows the other parameters named.
func parsePage(v url.Values, def, most int, others ...string) (Page, error) {
	if err := known(v, append([]string{"offset", "limit"}, others...)...); err != nil {
		return Page{}, err
	}
	p := Page{}
	var err error
	if p.Offset, err = indexParam(v, "offset", 0); err != nil {
		return p, err
	}
	p.Limit, err = limitParam(v, def, most)
	return p, err
}

// indexParam reads the message index named name, def when absent: never
// negative, as messages are numbered from 0.
func indexParam(v url.Values, name string, def int) (int, error) {
	n, err := intParam(v, name, def)
	if err == nil && v.Has(name) && n < 0 {
		err = fmt.Errorf("%s %d is negative: messages are numbered from 0", name, n)
	}
	return n, err
}

// pastLast says that message index i, given as name, is past c's last
// message; nil when it is within c (or 0, the start of an empty one).
func pastLast(name string, i int, c *conversation.Conversation) error {
	if i > 0 && i >= len(c.Messages) {
		return fmt.Errorf("%s %d is past the last message: the conversation has %d (0 to %d)", name, i, len(c.Messages), len(c.Messages)-1)
	}
	return nil
}

// noMessage says that c has no message i.
func noMessage(i int, c *conversation.Conversation) error {
	if len(c.Messages) == 0 {
		return fmt.Errorf("no message %d (the conversation has none)", i)
	}
	return fmt.Errorf("no message %d (0 to %d)", i, len(c.Messages)-1)
}

// limitParam reads limit, def when absent, which must be 1 to most.
func limitParam(v url.Values, def, most int) (int, error) {
	n, err := intParam(v, "limit", def)
	if err == nil && (n < 1 || n > most) {
		err = fmt.Errorf("limit %d out of range: 1 to %d", n, most)
	}
	return n, err
}

// known returns an error naming the first parameter of v (in name order)
// not among names, else the first given more than once that may not be.
func known(v url.Values, names ...string) error {
	var unknown, repeated []string
	for k, vs := range v {
		if !slices.Contains(names, k) {
			unknown = append(unknown, k)
		} else if len(vs) > 1 && !slices.Contains(repeatable, k) {
			repeated = append(repeated, k)
		}
	}
	if len(unknown) == 0 {
		if len(repeated) == 0 {
			return nil
		}
		// "q=a&q=b" would search for a and drop b without a word.
		slices.Sort(repeated)
		return fmt.Errorf("parameter %q given %d times: give it once", repeated[0], len(v[repeated[0]]))
	}
	slices.Sort(unknown)
	if len(names) == 0 {
		return fmt.Errorf("unknown parameter %q: this endpoint takes none", unknown[0])
	}
	return fmt.Errorf("unknown parameter %q: this endpoint takes %s", unknown[0], strings.Join(names, ", "))
}

// repeatable are the parameters that may be given more than once, each
// adding values (see list).
var repeatable = []string{"type", "source", "role", "project", "conversation", "after"}

func first(v map[string][]string, name string) string {
	if vs := v[name]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// list reads a parameter that may be repeated or comma-separated.
func list(v map[string][]string, name string) []string {
	var out []string
	for _, s := range v[name] {
		for _, part := range strings.Split(s, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// boolParam reads a boolean: absent is false, present and empty is true.
func boolParam(v map[string][]string, name string) (bool, error) {
	vs, ok := v[name]
	if !ok {
		return false, nil
	}
	if len(vs) == 0 || vs[0] == "" {
		return true, nil
	}
	b, err := strconv.ParseBool(vs[0])
	if err != nil {
		return false, fmt.Errorf("%s: %q is not a boolean (1, true, 0, false)", name, vs[0])
	}
	return b, nil
}
