package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/daemon"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/internal/term"
	"github.com/convsearch/convsearch/parsers/all"
	"github.com/convsearch/convsearch/query"
)

// openBackend opens the index, or asks the daemon that holds it, first
// bringing it in line with --root (a quick pass when nothing changed), so
// `search --root DIR` works on a fresh machine.
// name is the command's, recorded in the lock file while a pass over
// --root folders holds the index.
func openBackend(ctx context.Context, env *Env, sf *storeFlags, name string) (*daemon.Conn, error) {
	so, err := sf.store(env)
	if err != nil {
		return nil, err
	}
	so.Holder = name
	conn, err := daemon.Connect(ctx, daemon.ConnectOptions{Store: so, Roots: sf.Roots, Version: version, Warn: warner(env)})
	if err != nil {
		return nil, err
	}
	if conn.Daemon != nil && sf.Verbose {
		fmt.Fprintf(env.Stderr, "convsearch: asking the daemon at %s\n", conn.Daemon.URL())
	}
	if sum := conn.Synced; sum != nil {
		reportRebuild(env, sum, nil) // Connect returns once the rebuild is in place
		if sum.Parsed > 0 || sum.Removed > 0 {
			fmt.Fprintf(env.Stderr, "convsearch: indexed %d changed files (%d conversations, %d messages) in %s\n",
				sum.Parsed, sum.Conversations, sum.Messages, sum.Elapsed.Round(time.Millisecond))
		}
		for _, e := range sum.Errors {
			fmt.Fprintf(env.Stderr, "convsearch: %s\n", e)
		}
	}
	if conn.NotSynced != nil {
		fmt.Fprintf(env.Stderr, "convsearch: %s could not be brought up to date, answering from the index as it is: %v\n",
			strings.Join(sf.Roots, ", "), notSyncedReason(conn.NotSynced))
	}
	if conn.Indexing {
		fmt.Fprintln(env.Stderr, "convsearch: the daemon is still indexing (a first pass, or a full rebuild); results may be incomplete")
	}
	return conn, nil
}

// warner prints what Connect and Index warn of (a daemon of another build)
// on stderr.
func warner(env *Env) func(string) {
	return func(msg string) { fmt.Fprintf(env.Stderr, "convsearch: warning: %s\n", msg) }
}

// notSyncedReason says who holds the index, from Connect's NotSynced.
func notSyncedReason(err error) string {
	if le := (*indexer.LockedError)(nil); errors.As(err, &le) {
		if h := le.Holder.String(); h != "" {
			return h + " holds the index"
		}
		return "another convsearch process holds the index"
	}
	return err.Error()
}

// filterFlags are the filters search and decisions share.
type filterFlags struct {
	Types, Projects, Sources, Roles []string
	Since, Until                    string
}

func (f *filterFlags) register(fs *pflag.FlagSet, withTypeRole bool) {
	if withTypeRole {
		fs.StringSliceVar(&f.Types, "type", nil, "only these kinds: conversation, message, topic, decision (repeatable, or comma-separated)")
		fs.StringSliceVar(&f.Roles, "role", nil, "only messages of these roles: user, assistant, system, tool")
	}
	fs.StringSliceVar(&f.Projects, "project", nil, "only these projects")
	fs.StringSliceVar(&f.Sources, "source", nil, "only these formats (see convsearch formats)")
	fs.StringVar(&f.Since, "since", "", "only from this time on: a year (2025), a month (2025-06), a date (2025-01-31), a minute (2025-07-01T06:30, with a zone or in UTC), RFC 3339, or a duration back from now (7d, 36h, 2w, 3mo)")
	fs.StringVar(&f.Until, "until", "", "only up to this time, inclusive: a year, month, date or minute alone takes in all of it (same forms as --since)")
}

func (f *filterFlags) times() (since, until time.Time, err error) {
	now := time.Now()
	if since, err = query.ParseWhen(f.Since, now); err != nil {
		return since, until, usagef("--since: %v", err)
	}
	if until, err = query.ParseUntil(f.Until, now); err != nil {
		return since, until, usagef("--until: %v", err)
	}
	return since, until, nil
}

func runSearch(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "search")
	var sf storeFlags
	var ff filterFlags
	sf.register(fs, true)
	ff.register(fs, true)
	asJSON := fs.Bool("json", false, "print the result as JSON (the query Result)")
	asJSONL := fs.Bool("jsonl", false, "print one hit per line as JSON")
	limit := fs.IntP("limit", "n", query.DefaultLimit, "at most this many hits")
	offset := fs.Int("offset", 0, "skip this many hits (conversations in the printed list): next_offset of the previous --json page, or the offset its list says")
	after := fs.StringSlice("after", nil, "with --sort newest or oldest: start after this hit (its \"sort\" values from --json, comma-separated)")
	sortBy := fs.String("sort", query.SortRelevance, "relevance, newest or oldest")
	groupBy := fs.BoolP("group", "g", false, "with --json or --jsonl: one hit per conversation (its best), with the number of hits in it (the printed list is grouped so by default)")
	allHits := fs.Bool("all-hits", false, "print every matching message, topic and decision, not the best few per conversation")
	contextN := fs.IntP("context", "C", 0, "show N messages before and after each message hit")
	noHidden := fs.Bool("no-hidden", false, "leave out injected and procedural messages")
	facets := fs.Bool("facets", false, "print counts by type, source, project and role")
	if err := parseFlags(env, fs, "search", args); err != nil {
		return err
	}
	sf.NoDefaults = true // search reconciles only the roots it is given
	if *asJSON && *asJSONL {
		return usagef("search: --json and --jsonl exclude each other")
	}
	if *limit < 1 {
		return usagef("search: --limit must be at least 1")
	}
	if *contextN < 0 || *contextN > 50 {
		return usagef("search: --context must be between 0 and 50")
	}
	since, until, err := ff.times()
	if err != nil {
		return err
	}
	req := query.Request{
		Query: strings.Join(fs.Args(), " "), Types: ff.Types, Projects: ff.Projects, Sources: ff.Sources, Roles: ff.Roles,
		Since: since, Until: until, Limit: *limit, Offset: *offset, After: *after, Sort: *sortBy, Group: *groupBy,
		Facets: *asJSON || *facets, ExcludeHidden: *noHidden,
	}
	// No query argument is an empty query: Validate lists what a filter
	// keeps and refuses it only without one.
	if err := req.Validate(); err != nil {
		var se *query.SyntaxError
		if fs.NArg() == 0 && errors.As(err, &se) {
			return usagef("search: give a query, e.g. convsearch search 'bootstrap confidence intervals', or a filter (--type, --project, --source, --role, --since, --until) to list what it keeps")
		}
		return usagef("search: %v", err)
	}
	// The printed list shows conversations, each with its best hits: a
	// question should not print a page of one conversation's messages.
	// Search-after pages single hits, so --after prints them so too.
	byConversation := !*asJSON && !*asJSONL && !*allHits && len(req.After) == 0
	page := req
	if byConversation {
		req.Group = false
		req.Offset = 0
		req.Limit = min(max((page.Offset+page.Limit)*perConversationLook, 50), query.MaxLimit)
	}
	if _, err := query.Parse(req.Query); err != nil {
		return queryError(env, req.Query, err)
	}
	be, err := openBackend(ctx, env, &sf, "search")
	if err != nil {
		return err
	}
	defer be.Close()
	// A mistyped --source would find nothing in silence, where a
	// mistyped --role or --type is refused: the same rule as the API's.
	if err := all.UnknownSource(ctx, indexer.SourceCounts(be.Stats), req.Sources); err != nil {
		return usagef("search: %v", err)
	}
	// One time limit for the whole search, the count of the printed
	// list's hits included: each search of the engine's own would restart
	// it.
	start := time.Now()
	sctx, cancel := context.WithTimeout(ctx, query.DefaultTimeout)
	defer cancel()
	res, err := be.Search(sctx, req)
	if err != nil {
		return queryError(env, req.Query, err)
	}
	var convs []convHits
	var listed, looked int // the conversations of the hits looked at, and those hits
	var full bool          // the hits looked at are fewer than the matches
	if byConversation {
		var more bool
		convs, more, listed = groupHits(res.Hits, page.Offset, page.Limit, req.Sort == query.SortRelevance)
		looked = len(res.Hits)
		full = len(res.Hits) == req.Limit && uint64(len(res.Hits)) < res.Total
		// The engine's next page was the window's: the printed page's is
		// the next conversation's, when one follows within the window or
		// the page is full and the window left hits unread (as a grouped
		// search says More when its scan stops short).
		res.NextOffset = 0
		if next := page.Offset + len(convs); (more || full && len(convs) == page.Limit) && next <= query.MaxOffset {
			res.NextOffset = next
		}
		if full {
			// A full window counted only the hits it held: one long
			// conversation would read "50 hits" of its 1201.
			if err := countConversations(sctx, be, req, convs); err != nil {
				return queryError(env, req.Query, err)
			}
		}
		// The time printed is the whole search's, the count's included.
		res.TookMS = float64(time.Since(start).Microseconds()) / 1000
		res.Hits = res.Hits[:0]
		for _, c := range convs {
			res.Hits = append(res.Hits, c.hits...)
		}
	}
	if err := be.AddContext(ctx, res.Hits, *contextN); err != nil {
		return err
	}
	switch {
	case *asJSON:
		return writeJSON(env.Stdout, res)
	case *asJSONL:
		for _, h := range res.Hits {
			if err := writeJSONLine(env.Stdout, h); err != nil {
				return err
			}
		}
		return nil
	}
	if res.Total == 0 {
		// An empty index is the likely reason on a first run: say what to do.
		if st, err := be.Stats(ctx); err == nil && st.Documents == 0 {
			fmt.Fprintln(env.Stderr, emptyIndexNote(st.Dir, be.Indexing))
		}
	}
	if byConversation {
		if len(convs) == 0 && res.Total > 0 {
			// Paged past the last conversation: the query matches, the
			// page is empty.
			fmt.Fprintln(env.Stdout, pastLastConversation(res, page.Offset, listed, looked, full))
			return nil
		}
		printConversations(env, res, regroup(res.Hits, convs), page.Offset, true, *facets)
		return nil
	}
	printResult(env, res, req.Offset, *facets)
	return nil
}

// emptyIndexNote says why a search of an empty index found nothing. While
// the daemon's first pass runs, `convsearch index` would only fail on the
// daemon's lock: the answer is to wait.
func emptyIndexNote(dir string, indexing bool) string {
	if indexing {
		return "convsearch: the daemon is still indexing " + dir + " (a first pass, or a full rebuild) and nothing is searchable yet; try again shortly"
	}
	return "convsearch: the index in " + dir + " is empty: run `convsearch index` or give --root DIR"
}

// perConversationLook is how many hits are looked at per conversation
// shown: enough to fill the page with distinct conversations.
const perConversationLook = 5

// hitsShown is how many hits of one conversation the grouped list prints.
const hitsShown = 3

// convHits is a conversation's best hits, in rank order, and how many of
// the hits looked at were in it (all its hits, once countConversations has
// counted them).
type convHits struct {
	hits  []query.Hit
	count int
}

// groupHits groups ranked hits by conversation, in the rank of each
// conversation's best hit, keeping hitsShown hits each, and returns the
// conversations offset to offset+limit, whether more follow them, and how
// many conversations the hits are in. byScore ranks them as a grouped search does (query.GroupScore), so that
// the list's best hits are the ones --group, the API and MCP give.
func groupHits(hits []query.Hit, offset, limit int, byScore bool) (page []convHits, more bool, total int) {
	if byScore {
		hits = slices.Clone(hits)
		slices.SortStableFunc(hits, func(a, b query.Hit) int { return cmp.Compare(query.GroupScore(&b), query.GroupScore(&a)) })
	}
	var out []convHits
	pos := map[string]int{}
	for _, h := range hits {
		i, ok := pos[h.ConversationID]
		if !ok {
			i = len(out)
			pos[h.ConversationID] = i
			out = append(out, convHits{})
		}
		c := &out[i]
		c.count++
		if len(c.hits) < hitsShown {
			c.hits = append(c.hits, h)
		}
	}
	total = len(out)
	if offset >= total {
		return nil, false, total
	}
	out = out[offset:]
	return out[:min(limit, len(out))], len(out) > limit, total
}

// pastLastConversation says that the printed list of res, paged to offset,
// has no conversation there although the query matches: listed
// conversations hold the looked hits looked at, which are the best of more
// when full.
func pastLastConversation(res *query.Result, offset, listed, looked int, full bool) string {
	if full {
		return fmt.Sprintf("no more conversations after %d: the list goes through the best %d of the %d matches of %q, in %d conversations (--all-hits pages through every match)",
			offset, looked, res.Total, res.Query, listed)
	}
	return fmt.Sprintf("no more conversations after %d: the %d matches of %q are in %d conversations", offset, res.Total, res.Query, listed)
}

// searcher is what countConversations asks.
type searcher interface {
	Search(ctx context.Context, r query.Request) (*query.Result, error)
}

// countConversations sets each conversation's count to its number of hits
// for req, as a grouped search counts them (the Count --group, the API and
// MCP give): one grouped search within these conversations, which reads
// only their documents (the engine steps from one of theirs to the next),
// so that it costs little next to the search that found them.
func countConversations(ctx context.Context, be searcher, req query.Request, convs []convHits) error {
	if len(convs) == 0 {
		return nil
	}
	ids := make([]string, len(convs))
	for i, c := range convs {
		ids[i] = c.hits[0].ConversationID
	}
	req.Conversations = ids
	req.Group = true
	req.Limit = len(ids)
	req.Offset = 0
	req.After = nil
	req.Facets = false
	req.NoHighlight = true
	res, err := be.Search(ctx, req)
	if err != nil {
		return fmt.Errorf("count the hits of %d conversations: %w", len(ids), err)
	}
	counts := make(map[string]int, len(res.Hits))
	for _, h := range res.Hits {
		counts[h.ConversationID] = h.Count
	}
	for i := range convs {
		convs[i].count = max(convs[i].count, counts[ids[i]])
	}
	return nil
}

// regroup puts hits (with their context now) back into the groups they
// came from, in order.
func regroup(hits []query.Hit, convs []convHits) []convHits {
	for i := range convs {
		n := len(convs[i].hits)
		convs[i].hits, hits = hits[:n], hits[n:]
	}
	return convs
}

// printConversations prints the conversations of a search, each with its
// best hits; grouped says the hits were grouped (a conversation's other
// hits left out), not one conversation a hit.
func printConversations(env *Env, res *query.Result, convs []convHits, offset int, grouped, facets bool) {
	w := env.Stdout
	st := style{term.Style{On: term.Color(env.Getenv, w)}}
	if len(convs) == 0 {
		if res.Total > 0 && offset > 0 {
			fmt.Fprintf(w, "no more matches after %d: %q has %d\n", offset, res.Query, res.Total)
			return
		}
		fmt.Fprintf(w, "no match for %q\n", res.Query)
		return
	}
	note := ""
	if res.Relaxed {
		note = " — nothing matched every word; these match the most of them"
	}
	if grouped {
		note += "; the best in each conversation (--all-hits for every one)"
	}
	fmt.Fprintln(w, st.Dim(fmt.Sprintf("%d matches in %.1f ms%s", res.Total, res.TookMS, note)))
	for i, c := range convs {
		best := c.hits[0]
		fmt.Fprintln(w)
		title := best.Title
		if title == "" {
			title = "(untitled)"
		}
		meta := []string{best.Source, shortDate(best.Date)}
		if best.Project != "" {
			meta = append(meta, best.Project)
		}
		if c.count > 1 {
			meta = append(meta, fmt.Sprintf("%d hits", c.count))
		}
		// Title, source, project: untrusted, made safe before styled.
		fmt.Fprintf(w, "%d. %s  %s\n", offset+i+1, st.Bold(term.Safe(conversation.OneLine(title, 80))), st.Dim(term.Safe(strings.Join(meta, " · "))))
		for _, h := range c.hits {
			printHitBody(w, st, &h)
		}
		fmt.Fprintf(w, "   %s\n", st.Dim(term.Safe(showRef(&best)))) // the id is the file's
	}
	if res.NextOffset > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, st.Dim(fmt.Sprintf("%d–%d shown; more with --offset %d", offset+1, offset+len(convs), res.NextOffset)))
	}
	if facets {
		printFacets(w, st, res)
	}
}

// showRef is the command that opens a hit.
func showRef(h *query.Hit) string {
	ref := "convsearch show " + term.ShellQuote(h.ConversationID)
	if h.MessageIndex != nil {
		ref += fmt.Sprintf(" --message %d", *h.MessageIndex)
	}
	return ref
}

// queryError reports a query syntax error with a caret under the place, as
// a usage error (exit 2). The daemon's answer to query q reads as the
// index's own would, without "daemon: … (HTTP 400)".
func queryError(env *Env, q string, err error) error {
	var ae *daemon.APIError
	if errors.As(err, &ae) {
		if e := ae.EngineError(q); e != nil {
			var se *query.SyntaxError
			if ae.Status == http.StatusBadRequest && !errors.As(e, &se) {
				return usagef("%v", e) // refused as the index refuses it: still a usage error
			}
			err = e
		}
	}
	var se *query.SyntaxError
	if errors.As(err, &se) {
		fmt.Fprintln(env.Stderr, se.Caret())
		return usagef("%v", se)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("search: stopped: it took longer than its limit of %v; narrow it: rarer words, prefixes (*) with more letters, fewer fuzzy (~) words, a filter (--project, --since, --type), or no phrase", query.DefaultTimeout)
	}
	return err
}

// style colours terminal output and marks matches in fragments.
type style struct{ term.Style }

// mark returns a fragment as plain text with its matches marked. The text
// is made safe (term.Safe) piece by piece, before the marks go in: it is
// untrusted, the marks may be escape sequences of our own.
func (s style) mark(frag string) string {
	open, close := "«", "»"
	if s.On {
		open, close = "\033[1;33m", "\033[0m"
	}
	sn := query.PlainSnippet(frag)
	r := []rune(sn.Text)
	var b strings.Builder
	at := 0
	for _, m := range sn.Matches {
		b.WriteString(term.Safe(string(r[at:m[0]])))
		b.WriteString(open + term.Safe(string(r[m[0]:m[1]])) + close)
		at = m[1]
	}
	b.WriteString(term.Safe(string(r[at:])))
	return b.String()
}

// printResult prints a search's hits one by one (--all-hits, --after),
// numbered from offset on.
func printResult(env *Env, res *query.Result, offset int, facets bool) {
	convs := make([]convHits, len(res.Hits))
	for i := range res.Hits {
		convs[i] = convHits{hits: res.Hits[i : i+1], count: 1}
	}
	printConversations(env, res, convs, offset, false, facets)
}

// decisionParts returns what to print of a hit with fragment frag: the
// fragment, marked, and the hit's rationale. A decision's fragment is cut
// from its decision and rationale together (one line apart): each goes on
// its own line, marked where it matched, and neither twice.
func decisionParts(st style, h *query.Hit, frag string) (text, because string) {
	if h.Kind != "decision" || h.Rationale == "" {
		return st.mark(frag), term.Safe(h.Rationale)
	}
	if dec, why, ok := strings.Cut(frag, "\n"); ok {
		if strings.TrimSpace(query.PlainFragment(dec, "", "")) == "" {
			return term.Safe(h.Text), st.mark(why) // plain text already: marking would unescape it
		}
		return st.mark(dec), st.mark(why)
	}
	plain := strings.Trim(query.PlainFragment(frag, "", ""), "… ")
	if !strings.Contains(h.Text, plain) && strings.Contains(h.Rationale, plain) {
		return term.Safe(h.Text), st.mark(frag) // it matched in the rationale only
	}
	return st.mark(frag), term.Safe(h.Rationale)
}

// printHitBody prints what a hit says: its kind and place, its best
// fragment (or text), its rationale and the messages around it.
func printHitBody(w io.Writer, st style, h *query.Hit) {
	label := h.Kind
	if h.Kind == "message" && h.MessageIndex != nil {
		label = fmt.Sprintf("%s #%d", term.Safe(h.Role), *h.MessageIndex)
		if h.Hidden {
			label += ", hidden"
		}
	}
	if h.Count > 1 {
		label += fmt.Sprintf(", %d hits in this conversation", h.Count)
	}
	// Conversation text is untrusted: it is made safe to print (term.Safe)
	// here or, marked, in decisionParts.
	text, because := term.Safe(h.Text), term.Safe(h.Rationale)
	if len(h.Fragments) > 0 {
		text, because = decisionParts(st, h, h.Fragments[0])
	}
	fmt.Fprintf(w, "   %s %s\n", st.Dim("["+label+"]"), conversation.OneLine(text, 300))
	if because != "" {
		fmt.Fprintf(w, "   %s %s\n", st.Dim("because:"), conversation.OneLine(because, 200))
	}
	for _, m := range h.Context {
		marker := "  "
		if h.MessageIndex != nil && m.Index == *h.MessageIndex {
			marker = "▶ "
		}
		fmt.Fprintf(w, "     %s%s %s\n", marker, st.Dim(fmt.Sprintf("%s #%d:", term.Safe(m.Role), m.Index)), term.Safe(conversation.OneLine(m.Content, 160)))
	}
}

func printFacets(w io.Writer, st style, res *query.Result) {
	if len(res.Facets) > 0 {
		fmt.Fprintln(w)
		for _, name := range []string{"type", "source", "project", "role"} {
			var parts []string
			for _, f := range res.Facets[name] {
				parts = append(parts, fmt.Sprintf("%s %d", term.Safe(f.Value), f.Count))
			}
			if len(parts) > 0 {
				fmt.Fprintf(w, "%s %s\n", st.Dim(name+":"), strings.Join(parts, ", "))
			}
		}
	}
}

func writeJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
