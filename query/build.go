package query

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/char/asciifolding"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
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

// term is the query for term in f, with f's boost.
func (f textField) term(term string) bq.Query {
	q := bleve.NewTermQuery(term)
	q.SetField(f.name)
	q.SetBoost(f.boost)
	return q
}

// prefix is the query for the terms of f that start with prefix, with f's
// boost.
func (f textField) prefix(prefix string) bq.Query {
	q := bleve.NewPrefixQuery(prefix)
	q.SetField(f.name)
	q.SetBoost(f.boost)
	return q
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

	expanded  map[string][]string // the terms of the fields and prefixes counted in expansion
	expansion expansion           // what the query's prefixes expand to so far (see expanding)
	typos     map[string][]string // the stems one edit from a typo, by word and stem (see typoStems)
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
			if onlyNot(c) {
				// "react OR -vue" is every document but vue's.
				return nil, &SyntaxError{Query: b.src, Msg: "a word not wanted (-word, NOT word) as one side of an OR matches nearly every document; put it beside the words that must match: react -vue, or (react OR angular) -vue"}
			}
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

// onlyNot reports whether n says only what must not match: a NOT, or
// NOTs together.
func onlyNot(n Node) bool {
	switch n := n.(type) {
	case *Not:
		return true
	case *And:
		return len(n.Clauses) > 0 && !slices.ContainsFunc(n.Clauses, func(c Node) bool { return !onlyNot(c) })
	}
	return false
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
		return b.prefixIn(t, textFields)
	case t.Fuzziness > 0:
		return b.fuzzyIn(t, textFields)
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
				qs = append(qs, f.term(toks[0]))
				if shortHash(toks[0]) {
					// git's short form of a hash, as log --oneline
					// prints it, finds the hash written whole.
					if _, err := b.expanding(t, f.name, toks[0]); err != nil {
						return nil, err
					}
					qs = append(qs, f.prefix(toks[0]))
				}
			}
		default:
			if otherVersion(t.Text) != "" {
				return b.version(t.Text, false), nil
			}
			// "e-mail", "foo.bar": the parts next to each other.
			return b.phrase(&Phrase{Text: t.Text, Pos: t.Pos})
		}
	}
	return disjunction(qs), nil
}

// otherVersion is a version number written the other way, "v1.2.3" for
// "1.2.3" and "1.2.3" for "v1.2.3" or "V1.2.3", or "" when text is not
// one: digits and dots, two numbers or more. The index holds the first
// number with its v (v1, 2, 3), so each finds only itself.
func otherVersion(text string) string {
	bare := text
	if len(bare) > 0 && (bare[0] == 'v' || bare[0] == 'V') {
		bare = bare[1:]
	}
	dots, digit := 0, false
	for i := 0; i < len(bare); i++ {
		switch c := bare[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c == '.' && digit:
			dots++
			digit = false
		default:
			return ""
		}
	}
	if dots == 0 || !digit {
		return ""
	}
	if bare == text {
		return "v" + text
	}
	return bare
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

// prefixIn matches t, a prefix, in fields: the words that begin so and,
// for a prefix that is a whole word, its stem ("retry*" finds retries:
// the index holds retri); a word of joined parts as joinedPrefix says.
func (b *builder) prefixIn(t *Term, fields []textField) (bq.Query, error) {
	if q, ok, err := b.joinedPrefix(t, fields); ok || err != nil {
		return q, err
	}
	return b.plainPrefix(t, fields)
}

// plainPrefix is prefixIn for a prefix taken as one word.
func (b *builder) plainPrefix(t *Term, fields []textField) (bq.Query, error) {
	var qs []bq.Query
	prefix := foldPrefix(t.Text)
	st := b.prefixStem(prefix) // the same in every field
	for _, f := range fields {
		if _, err := b.expanding(t, f.name, prefix); err != nil {
			return nil, err
		}
		qs = append(qs, f.prefix(prefix))
		if st != "" {
			qs = append(qs, f.term(st))
		}
	}
	return disjunction(qs), nil
}

// fuzzyIn matches t, a word with typos, in fields: its stem within t's
// edits, and for one word the stems of the words one edit from it as typed
// (see typoStems).
func (b *builder) fuzzyIn(t *Term, fields []textField) (bq.Query, error) {
	var qs []bq.Query
	toks := analyze(b.e.analyzer, t.Text)
	if len(toks) == 0 {
		toks = []string{strings.ToLower(t.Text)}
	}
	var edits []string // the stems one edit from a single word
	if len(toks) == 1 {
		edits = b.typoStems(strings.ToLower(t.Text), toks[0])
	}
	for _, f := range fields {
		var parts []bq.Query
		for _, tok := range toks {
			q := bleve.NewFuzzyQuery(tok)
			q.SetFuzziness(t.Fuzziness)
			q.SetField(f.name)
			q.SetBoost(f.boost)
			parts = append(parts, q)
		}
		qs = append(qs, combine(parts, nil, nil))
		stems, err := b.heldTerms(f.name, edits)
		if err != nil {
			return nil, err
		}
		for _, st := range stems {
			qs = append(qs, f.term(st))
		}
	}
	return disjunction(qs), nil
}

// foldPrefix is a prefix as the index holds words: lower case, accents
// folded (café* begins cafe).
func foldPrefix(text string) string {
	return string(asciifolding.New().Filter([]byte(strings.ToLower(text))))
}

// joinedPrefix is the query for a prefix of a word whose parts are joined
// by punctuation (pg_stat*, Button.ts*, src/comp*) in fields: the index
// holds the parts, not the word, so its whole parts and then a part that
// starts with the last (or is the last's stem: src/components* is compon),
// in a row, a common word the index leaves out a gap (get_the_val*). ok is
// false for a prefix of one part; a joiner before any word is dropped
// (__init* is init*).
func (b *builder) joinedPrefix(t *Term, fields []textField) (q bq.Query, ok bool, err error) {
	text := strings.ToLower(strings.TrimLeft(t.Text, joiners))
	i := strings.LastIndexAny(text, joiners)
	if i <= 0 {
		if text == strings.ToLower(t.Text) || text == "" {
			return nil, false, nil
		}
		// "__init*": "__init__" may be a word of the index as it is,
		// "_stat*" the part of "pg_stat" after its joiner.
		var qs []bq.Query
		for _, form := range []string{strings.ToLower(t.Text), text} {
			q, err := b.plainPrefix(&Term{Text: form, Prefix: true, Pos: t.Pos}, fields)
			if err != nil {
				return nil, true, err
			}
			qs = append(qs, q)
		}
		return disjunction(qs), true, nil
	}
	lead, last := text[:i], foldPrefix(text[i+1:])
	kept := b.e.analyzer.Analyze([]byte(lead))
	if len(kept) == 0 {
		if last == "" {
			return nil, false, nil // "the_*": a common word, whole
		}
		// Only common words before it ("the_val*"): its last part's
		// prefix alone, as the index holds no word of them to start at.
		q, err := b.plainPrefix(&Term{Text: last, Prefix: true, Pos: t.Pos}, fields)
		return q, true, err
	}
	if last == "" {
		if lead := t.Text[:len(t.Text)-1]; otherVersion(lead) != "" {
			return b.version(lead, true), true, nil // "v1.2.*": 1.2.3, 1.2.10
		}
		q, err := b.term(&Term{Text: t.Text[:len(t.Text)-1], Pos: t.Pos}) // "pg_*": the word before
		return q, true, err
	}
	// The places of the lead's words, counted with the common words the
	// index leaves out (the verbatim analyzer keeps them).
	places := len(kept) + kept[0].Position - 1
	if b.e.verbatim != nil {
		if all := b.e.verbatim.Analyze([]byte(lead)); len(all) > 0 {
			places = all[len(all)-1].Position
		}
	}
	first := kept[0].Position
	seq := make([][]string, places-first+2)
	for i := range seq {
		seq[i] = []string{""} // a gap: any word
	}
	for _, tok := range kept {
		seq[tok.Position-first] = []string{string(tok.Term)}
	}
	st := b.prefixStem(last)
	// The common words the last part begins ("send_aft*" for send_after):
	// the index holds none of them, so each is the lead's phrase with it,
	// checked in the stored text.
	commons := b.commonWords(last)
	var qs []bq.Query
	for _, f := range fields {
		for _, w := range commons {
			qs = append(qs, b.matchPhrase(text[:i+1]+w, f.name, f.boost))
		}
		terms, err := b.expanding(t, f.name, last)
		if err != nil {
			return nil, true, err
		}
		if st != "" && !slices.Contains(terms, st) {
			terms = append(slices.Clip(terms), st) // not into the builder's copy
		}
		if len(terms) == 0 {
			continue
		}
		fseq := slices.Clone(seq)
		fseq[len(fseq)-1] = terms
		mq := bq.NewMultiPhraseQuery(fseq, f.name)
		mq.SetBoost(f.boost)
		qs = append(qs, mq)
	}
	if len(qs) == 0 {
		return bleve.NewMatchNoneQuery(), true, nil
	}
	return disjunction(qs), true, nil
}

// englishStopWords is Bleve's list of English stop words, which the
// analyzer's stop filter drops.
var englishStopWords = sync.OnceValue(func() []string {
	m := analysis.NewTokenMap()
	if err := m.LoadBytes(en.EnglishStopWords); err != nil {
		return nil
	}
	words := make([]string, 0, len(m))
	for w := range m {
		words = append(words, w)
	}
	slices.Sort(words)
	return words
})

// commonWords returns the common words that begin with prefix and the index
// leaves out (the stop words the analyzer drops), none for a prefix of less
// than two letters: each costs a check of the stored text.
func (b *builder) commonWords(prefix string) []string {
	if len(prefix) < 2 || b.e.verbatim == nil {
		return nil
	}
	var out []string
	for _, w := range englishStopWords() {
		if strings.HasPrefix(w, prefix) && !strings.ContainsAny(w, "'’") && len(analyze(b.e.analyzer, w)) == 0 {
			out = append(out, w)
		}
	}
	return out
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
// given text fields, as term does in the text.
func (b *builder) textIn(t *Term, fields ...string) (bq.Query, error) {
	tf := make([]textField, 0, len(fields))
	for _, f := range fields {
		tf = append(tf, textField{f, 1})
	}
	switch {
	case t.Prefix:
		return b.prefixIn(t, tf)
	case t.Fuzziness > 0:
		return b.fuzzyIn(t, tf)
	}
	qs := make([]bq.Query, 0, len(fields))
	for _, f := range fields {
		qs = append(qs, b.matchPhrase(t.Text, f, 1))
	}
	return disjunction(qs), nil
}
