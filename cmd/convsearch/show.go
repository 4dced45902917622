package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
	"github.com/convsearch/convsearch/internal/term"
	"github.com/convsearch/convsearch/parsers/all"
	"github.com/convsearch/convsearch/query"
	"github.com/convsearch/convsearch/server"
)

func runShow(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "show")
	var sf storeFlags
	sf.register(fs, false)
	asJSON := fs.Bool("json", false, "print the conversation (or the window) in the canonical model as JSON")
	message := fs.IntP("message", "m", -1, "show the window around this message index")
	contextN := fs.IntP("context", "C", 3, "with --message: this many messages before and after")
	showAll := fs.BoolP("all", "a", false, "also show hidden (injected, procedural) messages and full tool output")
	if err := parseFlags(env, fs, "show", args); err != nil {
		return err
	}
	if fs.NArg() != 1 || fs.Arg(0) == "" {
		return usagef("show: give one conversation id (from search or index.json)")
	}
	if *contextN < 0 {
		return usagef("show: --context must not be negative")
	}
	if fs.Changed("message") && *message < 0 {
		return usagef("show: --message must not be negative (messages are numbered from 0)")
	}
	id := fs.Arg(0)
	be, err := openBackend(ctx, env, &sf, "show")
	if err != nil {
		return err
	}
	defer be.Close()
	if *message >= 0 && be.Daemon != nil {
		// Only the window is asked for: the daemon keeps a long
		// conversation once read, but sending all of it, a page at a
		// time, for a few messages costs what the whole does.
		lo := max(*message-*contextN, 0)
		if n := *message + *contextN - lo + 1; n > 0 && n <= server.MaxPage {
			c, count, fromIndex, err := be.Daemon.Window(ctx, id, lo, n)
			if err == nil && *message >= count {
				return fmt.Errorf("show: conversation %s has %d messages (0 to %d); no message %d", id, count, count-1, *message)
			}
			if err == nil {
				return printShown(env, c, fromIndex, *message, *asJSON, *showAll)
			}
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return err
			}
			// Anything else (no such conversation, a message past the
			// end): the whole conversation is loaded below, which says
			// what went wrong as it always has.
		}
	}
	c, fromIndex, err := be.Load(ctx, id)
	if err == nil && *message < 0 {
		// A hit's own id (search --json "id"): its conversation, at the
		// message of a message or decision hit.
		*message = query.HitMessage(c, id)
		if err := query.GoneHit(c, id); err != nil {
			return fmt.Errorf("show: %w", err) // an error, as for --message past the end
		}
	}
	if conv, _ := query.ConversationID(id); conv != id && errors.Is(err, query.ErrNotFound) {
		return fmt.Errorf("show: %w", err) // a hit's id: the error says what is missing, the conversation or its message
	}
	if errors.Is(err, query.ErrNotFound) {
		return fmt.Errorf("show: no conversation %q in the index (search for it, or run convsearch index)", id)
	}
	if err != nil {
		return err
	}
	if *message >= 0 {
		if *message >= len(c.Messages) {
			// Like an unknown id: the thing asked for does not exist (exit 1).
			return fmt.Errorf("show: conversation %s has %d messages (0 to %d); no message %d", id, len(c.Messages), len(c.Messages)-1, *message)
		}
		lo, hi := max(*message-*contextN, 0), min(*message+*contextN, len(c.Messages)-1)
		c.Messages = c.Messages[lo : hi+1]
	}
	return printShown(env, c, fromIndex, *message, *asJSON, *showAll)
}

// printShown prints what show shows of c: its messages (all, or the window
// around focus), as text or as JSON.
func printShown(env *Env, c *conversation.Conversation, fromIndex bool, focus int, asJSON, all bool) error {
	if fromIndex {
		fmt.Fprintf(env.Stderr, "convsearch: %s could not be read again; showing the text the index keeps\n", c.File)
	}
	if asJSON {
		return writeJSON(env.Stdout, c)
	}
	printConversation(env, c, focus, all)
	return nil
}

func printConversation(env *Env, c *conversation.Conversation, focus int, all bool) {
	w := env.Stdout
	st := style{term.Style{On: term.Color(env.Getenv, w)}}
	// All the text below but our own labels is the conversation's, and
	// untrusted: each line is made safe (term.Safe) before it is styled.
	safe := term.Safe
	fmt.Fprintln(w, st.Bold(safe(c.Title)))
	meta := []string{c.ID, c.Source}
	if !c.Date.IsZero() {
		meta = append(meta, c.Date.UTC().Format("2006-01-02 15:04"))
	}
	if c.Project != "" {
		meta = append(meta, "project "+c.Project)
	}
	fmt.Fprintln(w, st.Dim(safe(strings.Join(meta, " · "))))
	fmt.Fprintln(w, st.Dim(safe(c.File)))
	if len(c.Topics) > 0 {
		fmt.Fprintln(w, st.Dim(safe("topics: "+strings.Join(c.TopicNames(), ", "))))
	}
	for _, d := range c.Decisions {
		line := "decision: " + d.Decision
		if d.Rationale != "" {
			line += " — because " + d.Rationale
		}
		fmt.Fprintln(w, st.Dim(safe(conversation.OneLine(line, 200))))
	}
	hidden := 0
	for _, m := range c.Messages {
		if m.Hidden && !all && m.Index != focus {
			hidden++
			continue
		}
		fmt.Fprintln(w)
		head := fmt.Sprintf("── #%d %s", m.Index, m.Role)
		if m.Author != "" {
			head += " (" + m.Author + ")"
		}
		if !m.Timestamp.IsZero() {
			head += " · " + m.Timestamp.Local().Format("2006-01-02 15:04")
		}
		if flags := m.Flags(); len(flags) > 0 {
			head += " [" + strings.Join(flags, ", ") + "]"
		}
		head = safe(head)
		if m.Index == focus {
			head = "▶" + head[len("─"):]
			fmt.Fprintln(w, st.Bold(head))
		} else {
			fmt.Fprintln(w, st.Dim(head))
		}
		if m.Thinking != "" {
			fmt.Fprintln(w, st.Dim(indent(safe("(thinking) "+clip(m.Thinking, all, 400)))))
		}
		if m.Content != "" {
			fmt.Fprintln(w, indent(safe(m.Content)))
		}
		for _, tc := range m.ToolCalls {
			fmt.Fprintln(w, st.Dim(indent(safe("→ "+tc.Name+"("+conversation.OneLine(tc.Arguments, 160)+")"))))
		}
		for _, tr := range m.ToolResults {
			name := tr.Name
			if name == "" {
				name = "result"
			}
			if tr.IsError {
				name += " (error)"
			}
			fmt.Fprintln(w, st.Dim(indent(safe("← "+name+": "+clip(tr.Content, all, 300)))))
		}
		for _, a := range m.Attachments {
			fmt.Fprintln(w, st.Dim(indent(safe(fmt.Sprintf("📎 %s (%s, %d bytes)", a.Name, a.Type, a.Size)))))
		}
	}
	if hidden > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, st.Dim(fmt.Sprintf("(%d hidden messages not shown; --all shows them)", hidden)))
	}
}

// clip shortens long tool output unless all is set, saying how much was cut.
func clip(s string, all bool, n int) string {
	if all || len(s) <= n {
		return s
	}
	cut := strings.LastIndexAny(s[:n], " \n")
	if cut < n/2 {
		cut = n
		for cut > 0 && !utf8.RuneStart(s[cut]) { // not inside a character
			cut--
		}
	}
	return s[:cut] + fmt.Sprintf(" … [%d more bytes; --all shows everything]", len(s)-cut)
}

func indent(s string) string {
	return "   " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n   ")
}

func runTopics(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "topics")
	var sf storeFlags
	sf.register(fs, false)
	projects := fs.StringSlice("project", nil, "only topics of these projects")
	sources := fs.StringSlice("source", nil, "only topics of these formats")
	limit := fs.IntP("limit", "n", 50, "at most this many topics")
	offset := fs.Int("offset", 0, "skip this many topics (to read on after a full page)")
	asJSON := fs.Bool("json", false, "print the topics as JSON")
	if err := parseFlags(env, fs, "topics", args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("topics takes no arguments")
	}
	if *limit < 1 || *limit > query.MaxLimit {
		return usagef("topics: --limit must be between 1 and %d", query.MaxLimit)
	}
	if *offset < 0 || *offset > query.MaxOffset {
		return usagef("topics: --offset must be between 0 and %d", query.MaxOffset)
	}
	be, err := openBackend(ctx, env, &sf, "topics")
	if err != nil {
		return err
	}
	defer be.Close()
	if err := all.UnknownSource(ctx, indexer.SourceCounts(be.Stats), *sources); err != nil {
		return usagef("topics: %v", err)
	}
	topics, err := be.Topics(ctx, query.TopicsRequest{Projects: *projects, Sources: *sources, Limit: *limit, Offset: *offset})
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(env.Stdout, topics)
	}
	for _, t := range topics {
		fmt.Fprintf(env.Stdout, "%5d  %s\n", t.Conversations, term.Safe(t.Name)) // untrusted: conversation text
	}
	if len(topics) == *limit && *offset+*limit <= query.MaxOffset {
		// A full page may have more after it; the hint is no result.
		fmt.Fprintf(env.Stderr, "convsearch: more with --offset %d\n", *offset+*limit)
	}
	return nil
}

func runDecisions(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "decisions")
	var sf storeFlags
	var ff filterFlags
	sf.register(fs, false)
	ff.register(fs, false)
	limit := fs.IntP("limit", "n", 50, "at most this many decisions")
	offset := fs.Int("offset", 0, "skip this many decisions (next_offset of the previous page)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if err := parseFlags(env, fs, "decisions", args); err != nil {
		return err
	}
	since, until, err := ff.times()
	if err != nil {
		return err
	}
	if *limit < 1 || *limit > query.MaxLimit {
		return usagef("decisions: --limit must be between 1 and %d", query.MaxLimit)
	}
	if *offset < 0 || *offset > query.MaxOffset {
		return usagef("decisions: --offset must be between 0 and %d (deeper, narrow with a query, --project or --since)", query.MaxOffset)
	}
	q := strings.Join(fs.Args(), " ")
	// Decisions are a search: its rules (until not before since) apply,
	// checked before the index or the daemon is asked.
	check := query.Request{Query: q, Types: []string{"decision"}, Projects: ff.Projects, Sources: ff.Sources, Since: since, Until: until, Limit: *limit}
	if err := check.Validate(); err != nil {
		return usagef("decisions: %v", err)
	}
	if _, err := query.Parse(q); err != nil {
		return queryError(env, q, err)
	}
	be, err := openBackend(ctx, env, &sf, "decisions")
	if err != nil {
		return err
	}
	defer be.Close()
	if err := all.UnknownSource(ctx, indexer.SourceCounts(be.Stats), ff.Sources); err != nil {
		return usagef("decisions: %v", err)
	}
	res, err := be.Decisions(ctx, query.DecisionsRequest{Query: q, Projects: ff.Projects, Sources: ff.Sources, Since: since, Until: until, Limit: *limit, Offset: *offset})
	if err != nil {
		return queryError(env, q, err)
	}
	// Where the next page starts, if one does: the Result says it, as a
	// search's does.
	next := res.NextOffset
	if *asJSON {
		return writeJSON(env.Stdout, res)
	}
	w := env.Stdout
	st := style{term.Style{On: term.Color(env.Getenv, w)}}
	if len(res.Hits) == 0 {
		fmt.Fprintln(w, "no decisions found")
		return nil
	}
	for _, h := range res.Hits {
		// Decisions, titles and ids are conversation text, untrusted:
		// made safe (term.Safe) before styled.
		fmt.Fprintf(w, "%s %s\n", st.Bold("•"), term.Safe(h.Text))
		if h.Rationale != "" {
			fmt.Fprintf(w, "  %s %s\n", st.Dim("because:"), term.Safe(h.Rationale))
		}
		ref := fmt.Sprintf("%s · %s · convsearch show %s", shortDate(h.Date), conversation.OneLine(h.Title, 60), term.ShellQuote(h.ConversationID))
		if h.MessageIndex != nil {
			ref += fmt.Sprintf(" --message %d", *h.MessageIndex)
		}
		fmt.Fprintf(w, "  %s\n", st.Dim(term.Safe(ref)))
	}
	if next > 0 {
		fmt.Fprintln(w, st.Dim(fmt.Sprintf("%d–%d of %d decisions; more with --offset %d", *offset+1, *offset+len(res.Hits), res.Total, next)))
	}
	return nil
}
