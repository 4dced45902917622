package query

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
)

// textField is a searched text field and its weight. Every kind carries its
// text in content (see indexer.SearchFields), so a word is one term lookup.
// Conversation, topic and decision documents are short (a title and its
// topics, a topic's name, a decision and its reason), so the length norm
// ranks a match in them above the same match in a long message: the boost
// for titles, topics and decisions comes from the data, at no query cost.
type textField struct {
	name  string
	boost float64
}

var textFields = []textField{
	{indexer.FieldContent, 1.0},
}

// kindAliases maps what people type after type: to a document kind.
var kindAliases = map[string]string{
	"conversation": indexer.KindConversation, "conversations": indexer.KindConversation, "conv": indexer.KindConversation,
	"message": indexer.KindMessage, "messages": indexer.KindMessage, "msg": indexer.KindMessage,
	"topic": indexer.KindTopic, "topics": indexer.KindTopic,
	"decision": indexer.KindDecision, "decisions": indexer.KindDecision,
}

// roles are the values of role:.
var roles = []string{string(conversation.RoleUser), string(conversation.RoleAssistant), string(conversation.RoleSystem), string(conversation.RoleTool)}

// NormalizeKind returns the document kind s names, or "" when none.
func NormalizeKind(s string) string { return kindAliases[strings.ToLower(s)] }

// builder turns a parsed query into a Bleve query.
type builder struct {
	ctx   context.Context
	e     *Engine
	src   string   // the query text, for errors
	dated []period // the times src names, when they can weigh (grouped, by relevance)
	match bq.Query // set by question: the documents its query finds, without what only ranks them
	every bq.Query // set by question: the documents that hold every one of its content words

	negated  int  // how many NOTs the node being built is under
	positive bool // set by build: a word or phrase the index holds, under no NOT

	expanded  map[string]bool // the fields and prefixes counted in expansion
	expansion expansion       // what the query's prefixes expand to so far (see expanding)
}

// build returns nil for a node that matches everything (a clause made only
// of stop words): its parent drops it.
func (b *builder) build(n Node) (bq.Query, error) {
	switch n := n.(type) {
	case *And:
		must, mustNot, err := b.clauses(n)
		if err != nil {
			return nil, err
		}
		return combine(must, nil, mustNot), nil
	case *Or:
		var any []bq.Query
		for _, c := range n.Clauses {
			q, err := b.build(c)
			if err != nil {
				return nil, err
			}
			if q != nil { // a stop word adds nothing to an OR
				any = append(any, q)
			}
		}
		if len(any) == 0 {
			return nil, nil
		}
		return disjunction(any), nil
	case *Not:
		b.negated++
		q, err := b.build(n.Clause)
		b.negated--
		if err != nil || q == nil {
			return nil, err
		}
		return combine(nil, nil, []bq.Query{q}), nil
	case *Term:
		q, err := b.term(n)
		b.positive = b.positive || q != nil && b.negated == 0
		return q, err
	case *Phrase:
		q, err := b.phrase(n)
		b.positive = b.positive || q != nil && b.negated == 0
		return q, err
	}
	return nil, fmt.Errorf("query: unknown node %T", n)
}

// clauses builds an And's clauses: those that must match and those (after
// NOT) that must not. Clauses of stop words only are dropped.
func (b *builder) clauses(n *And) (pos, neg []bq.Query, err error) {
	for _, c := range n.Clauses {
		list, negated := &pos, 0
		if not, ok := c.(*Not); ok {
			c, list, negated = not.Clause, &neg, 1
		}
		b.negated += negated
		q, err := b.build(c)
		b.negated -= negated
		if err != nil {
			return nil, nil, err
		}
		if q != nil {
			*list = append(*list, q)
		}
	}
	return pos, neg, nil
}

// combine makes a boolean query of must, should and mustNot clauses.
func combine(must, should, mustNot []bq.Query) bq.Query {
	if len(mustNot) == 0 && len(should) == 0 {
		switch len(must) {
		case 0:
			return nil
		case 1:
			return must[0]
		}
		return bleve.NewConjunctionQuery(must...)
	}
	q := bleve.NewBooleanQuery()
	if len(must) > 0 {
		q.AddMust(must...)
	} else if len(should) == 0 {
		q.AddMust(bleve.NewMatchAllQuery())
	}
	if len(should) > 0 {
		q.AddShould(should...)
		q.SetMinShould(1)
	}
	if len(mustNot) > 0 {
		q.AddMustNot(mustNot...)
	}
	return q
}

func disjunction(qs []bq.Query) bq.Query {
	if len(qs) == 1 {
		return qs[0]
	}
	return bleve.NewDisjunctionQuery(qs...)
}

// analyze runs text through the index's English analyzer: the terms the
// index holds for it (lower-cased, stemmed, stop words gone).
func analyze(an analysis.Analyzer, text string) []string {
	toks := an.Analyze([]byte(text))
	out := make([]string, 0, len(toks))
	for _, t := range toks {
		out = append(out, string(t.Term))
	}
	return out
}

// prefixStem is the index's term for a prefix typed as a whole word, when
// stemming changes its end: the index holds "retri" for retry, retries and
// retrying, and "manag" for manage and managed, which the prefixes "retry"
// and "manage" do not begin. "" when the stem is the prefix itself (then
// the prefix query finds it) or the prefix is no word (a stop word).
func (b *builder) prefixStem(prefix string) string {
	toks := analyze(b.e.analyzer, prefix)
	if len(toks) != 1 || toks[0] == prefix || strings.HasPrefix(toks[0], prefix) {
		return ""
	}
	return toks[0]
}

func (b *builder) term(t *Term) (bq.Query, error) {
	if t.Field != "" {
		return b.fieldTerm(t)
	}
	var qs []bq.Query
	switch {
	case t.Prefix:
		if q, ok, err := b.joinedPrefix(t); ok || err != nil {
			return q, err
		}
		prefix := strings.ToLower(t.Text)
		st := b.prefixStem(prefix) // the same in every field
		for _, f := range textFields {
			if err := b.expanding(t, f.name, prefix); err != nil {
				return nil, err
			}
			q := bleve.NewPrefixQuery(prefix)
			q.SetField(f.name)
			q.SetBoost(f.boost)
			qs = append(qs, q)
			if st != "" {
				sq := bleve.NewTermQuery(st)
				sq.SetField(f.name)
				sq.SetBoost(f.boost)
				qs = append(qs, sq)
			}
		}
	case t.Fuzziness > 0:
		toks := analyze(b.e.analyzer, t.Text)
		if len(toks) == 0 {
			toks = []string{strings.ToLower(t.Text)}
		}
		for _, f := range textFields {
			var parts []bq.Query
			for _, tok := range toks {
				q := bleve.NewFuzzyQuery(tok)
				q.SetFuzziness(t.Fuzziness)
				q.SetField(f.name)
				q.SetBoost(f.boost)
				parts = append(parts, q)
			}
			qs = append(qs, combine(parts, nil, nil))
			if len(toks) != 1 {
				continue
			}
			// The word meant, one typo away, stems otherwise (see typoStems).
			stems, err := b.typoStems(f.name, strings.ToLower(t.Text), toks[0])
			if err != nil {
				return nil, err
			}
			for _, st := range stems {
				q := bleve.NewTermQuery(st)
				q.SetField(f.name)
				q.SetBoost(f.boost)
				qs = append(qs, q)
			}
		}
	default:
		toks := analyze(b.e.analyzer, t.Text)
		switch len(toks) {
		case 0:
			return nil, nil // a stop word
		case 1:
			if b.e.verbatim != nil && len(b.e.verbatim.Analyze([]byte(t.Text))) > 1 {
				// "no-verify", "up-to-date": a common word left out of
				// the index; checked in the stored text, as its phrase
				// is, or it were verify alone.
				return b.phrase(&Phrase{Text: t.Text, Pos: t.Pos})
			}
			for _, f := range textFields {
				q := bleve.NewTermQuery(toks[0])
				q.SetField(f.name)
				q.SetBoost(f.boost)
				qs = append(qs, q)
				if shortHash(toks[0]) {
					// git's short form of a hash, as log --oneline
					// prints it, finds the hash written whole.
					if err := b.expanding(t, f.name, toks[0]); err != nil {
						return nil, err
					}
					pq := bleve.NewPrefixQuery(toks[0])
					pq.SetField(f.name)
					pq.SetBoost(f.boost)
					qs = append(qs, pq)
				}
			}
		default:
			// "e-mail", "foo.bar": the parts next to each other.
			return b.phrase(&Phrase{Text: t.Text, Pos: t.Pos})
		}
	}
	return disjunction(qs), nil
}

// shortHash reports whether w reads as the short form of a hash: 7 to 12
// hexadecimal digits, letters and digits both.
func shortHash(w string) bool {
	if len(w) < 7 || len(w) > 12 {
		return false
	}
	letter, digit := false, false
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'f':
			letter = true
		default:
			return false
		}
	}
	return letter && digit
}

// joinedPrefix is the query for a prefix of a word whose parts are joined
// by punctuation (pg_stat*, Button.ts*, src/comp*): the index holds the
// parts, not the word, so its whole parts and then a part that starts with
// the last, next to each other. ok is false for a prefix of one part.
func (b *builder) joinedPrefix(t *Term) (q bq.Query, ok bool, err error) {
	text := strings.ToLower(t.Text)
	i := strings.LastIndexAny(text, `./\_:@`)
	if i <= 0 {
		return nil, false, nil
	}
	lead, last := text[:i], text[i+1:]
	toks := analyze(b.e.analyzer, lead)
	if len(toks) == 0 {
		return nil, false, nil // only common words before it: the prefix alone
	}
	if last == "" {
		q, err := b.term(&Term{Text: t.Text[:i], Pos: t.Pos}) // "pg_*": the word before
		return q, true, err
	}
	var qs []bq.Query
	for _, f := range textFields {
		terms, err := b.prefixTerms(t, f.name, last)
		if err != nil {
			return nil, true, err
		}
		if len(terms) == 0 {
			continue
		}
		seq := make([][]string, 0, len(toks)+1)
		for _, tok := range toks {
			seq = append(seq, []string{tok})
		}
		mq := bq.NewMultiPhraseQuery(append(seq, terms), f.name)
		mq.SetBoost(f.boost)
		qs = append(qs, mq)
	}
	if len(qs) == 0 {
		return bleve.NewMatchNoneQuery(), true, nil
	}
	return disjunction(qs), true, nil
}

func (b *builder) phrase(p *Phrase) (bq.Query, error) {
	if p.Field != "" {
		return b.fieldTerm(&Term{Field: p.Field, Text: p.Text, Pos: p.Pos})
	}
	if len(analyze(b.e.analyzer, p.Text)) == 0 {
		if b.e.verbatim != nil && len(b.e.verbatim.Analyze([]byte(p.Text))) > 0 {
			// Matching everything would break the promise of a phrase.
			return nil, &SyntaxError{Query: b.src, Pos: p.Pos, Msg: fmt.Sprintf("the phrase %q has only common words (the, of, is…), which the index does not hold: add a less common word", p.Text)}
		}
		return nil, nil
	}
	var qs []bq.Query
	for _, f := range textFields {
		qs = append(qs, b.matchPhrase(p.Text, f.name, f.boost))
	}
	return disjunction(qs), nil
}

// fieldTerm builds field:value.
func (b *builder) fieldTerm(t *Term) (bq.Query, error) {
	keyword := func(field, value string) bq.Query { return keywordQuery(field, value, t.Prefix) }
	switch t.Field {
	case "role":
		role := strings.ToLower(t.Text)
		if !slices.ContainsFunc(roles, func(r string) bool { return r == role || t.Prefix && strings.HasPrefix(r, role) }) {
			// Else it matches nothing, and says nothing of why.
			return nil, &SyntaxError{Query: b.src, Pos: t.Pos, Msg: fmt.Sprintf("role:%s: the roles are %s", t.Text, strings.Join(roles, ", ")) + QuoteHint(b.src)}
		}
		return keyword(indexer.FieldRole, role), nil
	case "project":
		return anyCase(indexer.FieldProject, t.Text, t.Prefix), nil
	case "source":
		return keyword(indexer.FieldSource, strings.ToLower(t.Text)), nil
	case "model":
		// In any case, as projects: "Bash" and "bash", "GPT-5" and "gpt-5"
		// are one tool, one model, to a person typing them.
		return anyCase(indexer.FieldModel, t.Text, t.Prefix), nil
	case "tool":
		return anyCase(indexer.FieldTools, t.Text, t.Prefix), nil
	case "id":
		return keyword(indexer.FieldConversationID, t.Text), nil
	case "type":
		k := NormalizeKind(t.Text)
		if k == "" {
			return nil, &SyntaxError{Query: b.src, Pos: t.Pos, Msg: fmt.Sprintf("type:%s: the types are conversation, message, topic, decision", t.Text) + QuoteHint(b.src)}
		}
		return keyword(indexer.FieldType, k), nil
	case "decision":
		return b.textIn(t, indexer.FieldDecision, indexer.FieldRationale)
	case "title", "topic":
		// A join: what is in the conversations whose title (topic) matches.
		var q bq.Query
		var err error
		if t.Field == "title" {
			q, err = b.textIn(t, indexer.FieldTitle)
		} else {
			q, err = b.textIn(t, indexer.FieldTopics, indexer.FieldName)
		}
		if err != nil {
			return nil, err
		}
		ids, err := b.e.conversationIDs(b.ctx, q)
		if err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return bleve.NewMatchNoneQuery(), nil
		}
		qs := make([]bq.Query, 0, len(ids))
		for _, id := range ids {
			tq := bleve.NewTermQuery(id)
			tq.SetField(indexer.FieldConversationID)
			qs = append(qs, tq)
		}
		return disjunction(qs), nil
	}
	return nil, &SyntaxError{Query: b.src, Pos: t.Pos, Msg: "unknown field " + t.Field}
}

// textIn matches t's text (a word, prefix, fuzzy word or phrase) in the
// given text fields.
func (b *builder) textIn(t *Term, fields ...string) (bq.Query, error) {
	var qs []bq.Query
	var prefix, st string
	if t.Prefix {
		prefix = strings.ToLower(t.Text)
		st = b.prefixStem(prefix) // the same in every field
	}
	for _, f := range fields {
		switch {
		case t.Prefix:
			if err := b.expanding(t, f, prefix); err != nil {
				return nil, err
			}
			q := bleve.NewPrefixQuery(prefix)
			q.SetField(f)
			qs = append(qs, q)
			if st != "" {
				sq := bleve.NewTermQuery(st)
				sq.SetField(f)
				qs = append(qs, sq)
			}
		case t.Fuzziness > 0:
			q := bleve.NewMatchQuery(t.Text)
			q.SetFuzziness(t.Fuzziness)
			q.SetField(f)
			qs = append(qs, q)
		default:
			qs = append(qs, b.matchPhrase(t.Text, f, 1))
		}
	}
	return disjunction(qs), nil
}
