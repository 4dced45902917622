package query

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/convsearch/convsearch/indexer"
)

// Ranking for plain-language questions. A question ("what did we decide
// about the retry policy?") is mostly words that say nothing about what is
// looked for; requiring every one of its words finds nothing or the wrong
// thing. So a plain query that looks like a question is ranked instead:
// every content word may match, rarer words weigh more (idf), documents with
// all of the words and with the words next to each other rank higher, and,
// grouped by conversation, a conversation's score adds up its best hits.
// Short keyword queries keep their every-word-must-match meaning.

// fillerWords are words of asking that the English stop list keeps; a
// question's content is what is left. Analysed (stemmed) when an Engine is
// made, so "discussed" and "discuss" are one.
var fillerWords = strings.Fields(`tell remember recall know mention mentioned say said talk talked discuss
discussed ask asked anything something thing things ever please us you me again`)

// Weights of the ranking, tuned on the tune half of the recall questions
// (docs/RECALL.md).
const (
	// allWordsBoost rewards a document holding every content word.
	allWordsBoost = 1.0
	// pairBoost rewards two consecutive content words next to each other.
	pairBoost = 0.5
	// questionWords: a plain query of at least this many content words is
	// ranked as a question even without a question mark.
	questionWords = 3
	// conceptBoost weighs a content word found among a message's concepts
	// (its nouns' broader words: "dish" for "goulash", indexer.FieldConcepts)
	// against the word itself. On the recall set's tune halves it did best at
	// 1.0 (0.4 to 1.0 within a point of R@1): the field's many terms a
	// message already weigh each one down by the length norm.
	conceptBoost = 1.0
	// contextBoost weighs a content word found in the turns either side of
	// a message (indexer.FieldContext) against the word in the message:
	// "When did Pudding swallow the sock?" meets "And Pudding?" answered by
	// "she ate a sock on tuesday". 0.2 did best on the tune halves, by a few
	// questions (0.5 and 1 lost the generated set's first answers).
	contextBoost = 0.2
)

// kindWeight scales a hit's score by its kind when hits are grouped by
// conversation: a decision says what a conversation settled more surely
// than one message does. A topic counts as a message: its document is a
// word or two, which BM25 already ranks high, and at 1.5 a topic of one
// everyday word outranked the turns that answered more of the question
// (tune halves: 3 first answers more at 1.0, 0.5 to 1.25 alike;
// docs/RECALL.md).
var kindWeight = map[string]float64{
	indexer.KindConversation: 1.0,
	indexer.KindTopic:        1.0,
	indexer.KindDecision:     1.5,
	indexer.KindMessage:      1.0,
}

// GroupScore is what a hit counts for when hits are grouped by
// conversation: its score weighted by its kind (kindWeight). A grouped
// result ranks and picks each conversation's best hit by it, and reports
// it as that hit's Score, so that the score shown is the one that chose.
func GroupScore(h *Hit) float64 {
	if w := kindWeight[h.Kind]; w != 0 {
		return h.Score * w
	}
	return h.Score
}

// maxWeight is the most a hit's score can be multiplied by when grouped: by
// its kind, and by a date the question names.
func maxWeight(dated []period) float64 {
	w := 1.0
	for _, k := range kindWeight {
		w = max(w, k)
	}
	if len(dated) > 0 {
		w *= 1 + datedBoost
	}
	return w
}

// rankSettled reports whether the first n conversations of hits, ranked as
// groupRanked ranks them, stay so whatever further hits come, each scoring
// at most bound when weighted: the n-th conversation already scores more.
// A conversation ranks by its best hit alone (convDecay is 0), so hits
// scoring at most bound change neither the order above it nor the set.
func rankSettled(hits []Hit, n int, bound float64) bool {
	if n <= 0 {
		return true
	}
	if convDecay != 0 {
		return false // later hits add to a total: read on to the bound of the scan
	}
	best := make(map[string]float64, n)
	for i := range hits {
		s := GroupScore(&hits[i])
		if b, ok := best[hits[i].ConversationID]; !ok || s > b {
			best[hits[i].ConversationID] = s
		}
	}
	if len(best) < n {
		return false
	}
	scores := make([]float64, 0, len(best))
	for _, s := range best {
		scores = append(scores, s)
	}
	slices.SortFunc(scores, func(a, b float64) int { return cmp.Compare(b, a) })
	return scores[n-1] > bound
}

// convDecay weighs a conversation's hits after its best when grouping: the
// second counts this much, the third this squared, and so on (at most
// convHits hits).
const (
	convDecay = 0.0
	convHits  = 3
)

func analyzedSet(an analysis.Analyzer, words []string) map[string]bool {
	set := map[string]bool{}
	for _, w := range words {
		for _, t := range analyze(an, w) {
			set[t] = true
		}
	}
	return set
}

// plainWords returns the words of a query made only of plain words (no
// fields, operators, phrases, prefixes or typos), in order; ok is false for
// any other query.
func plainWords(n Node) (words []string, ok bool) {
	clauses := []Node{n}
	if and, isAnd := n.(*And); isAnd {
		clauses = and.Clauses
	}
	for _, c := range clauses {
		t, isTerm := c.(*Term)
		if !isTerm || t.Field != "" || t.Prefix || t.Fuzziness > 0 {
			return nil, false
		}
		words = append(words, t.Text)
	}
	return words, true
}

// question returns the ranked query for a plain query that reads as a
// question (a question mark, or at least questionWords content words; or,
// grouped, two words or more with a time: "camping yesterday"), and nil for
// any other query. It sets b.match to the query that finds the same
// documents without ranking them.
func (b *builder) question(n Node) bq.Query {
	words, ok := plainWords(n)
	if !ok {
		return nil
	}
	var terms []word // a CJK run is one word of several terms (queryWords)
	for _, w := range words {
		terms = append(terms, queryWords(b.e.analyzer, w)...)
	}
	content := terms[:0:0]
	for _, t := range terms {
		if len(t) > 1 || !b.e.filler[t[0]] {
			content = append(content, t)
		}
	}
	if len(content) == 0 {
		content = terms
	}
	content = dedupe(content)
	asked := strings.Contains(b.src, "?")
	// A question that says when ("what did we book in June?") or a query
	// with a time back from now ("camping yesterday") is ranked, so that
	// its time can weigh: every word required would want "yesterday" in
	// the message itself. "June budget" stays two keywords, and so does any
	// query not grouped, where no time weighs (b.dated is empty). The
	// time's words still count as words: a message's "last year" may be the
	// one asked about, told from its own day.
	timed := len(content) > 1 && (asked && len(b.dated) > 0 || slices.ContainsFunc(b.dated, func(p period) bool { return p.relative != "" }))
	if !timed && (len(content) < 2 || (!asked && len(content) < questionWords)) {
		return nil
	}
	var nounParts []string // the parts of words that are nouns with concepts
	for _, w := range words {
		for _, part := range wordParts(w) {
			if indexer.HasConcepts(part) {
				nounParts = append(nounParts, part)
			}
		}
	}
	nouns := analyzedSet(b.e.analyzer, nounParts)
	q := bleve.NewBooleanQuery()
	around := bleve.NewBooleanQuery()
	all := make([]bq.Query, 0, len(content))
	matchers := make([]bq.Query, 0, 2*len(content)) // what finds a document; the rest only ranks it
	for _, w := range content {
		if len(w) > 1 {
			// A CJK run: its terms in order. Its score adds up theirs,
			// which is about the run's own rarity if its characters were
			// independent. The context field has no positions: there the
			// terms need only all be there.
			sq := newTermSequence(w, indexer.FieldContent, 1)
			q.AddShould(sq)
			all = append(all, sq)
			matchers = append(matchers, sq)
			cxs := make([]bq.Query, 0, len(w))
			for _, t := range w {
				cx := bleve.NewTermQuery(t)
				cx.SetField(indexer.FieldContext)
				cxs = append(cxs, cx)
			}
			cx := bleve.NewConjunctionQuery(cxs...)
			cx.SetBoost(contextBoost)
			around.AddShould(cx)
			continue
		}
		t := w[0]
		tq := bleve.NewTermQuery(t)
		tq.SetField(indexer.FieldContent)
		q.AddShould(tq)
		all = append(all, tq)
		matchers = append(matchers, tq)
		cx := bleve.NewTermQuery(t)
		cx.SetField(indexer.FieldContext)
		cx.SetBoost(contextBoost)
		around.AddShould(cx)
		if nouns[t] {
			concept := bleve.NewTermQuery(t)
			concept.SetField(indexer.FieldConcepts)
			concept.SetBoost(conceptBoost)
			q.AddShould(concept)
			matchers = append(matchers, concept)
		}
	}
	if allWordsBoost > 0 {
		cq := bleve.NewConjunctionQuery(all...)
		cq.SetBoost(allWordsBoost)
		q.AddShould(cq)
	}
	b.every = bleve.NewConjunctionQuery(all...)
	if pairBoost > 0 {
		for i := 1; i < len(content); i++ {
			q.AddShould(newTermSequence(slices.Concat(content[i-1], content[i]), indexer.FieldContent, pairBoost))
		}
	}
	q.SetMinShould(1)
	// The neighbours' words only add to a message that matches itself: a
	// hit always holds a word of the question, or its concept.
	ranked := bleve.NewBooleanQuery()
	ranked.AddMust(q)
	ranked.AddShould(around)
	b.match = bleve.NewDisjunctionQuery(matchers...)
	return ranked
}

// wordParts are the lower-case words of a query word as the concept table
// lists nouns: without punctuation or a possessive, and split where the
// analyser splits ("dish?", "Grandma's", "ex-wife", "dog/cat" give "dish",
// "grandma", "ex" and "wife", "dog" and "cat").
func wordParts(w string) []string {
	return strings.FieldsFunc(strings.ToLower(w), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func dedupe(ws []word) []word {
	seen := map[string]bool{}
	out := ws[:0:0]
	for _, w := range ws {
		if k := w.key(); !seen[k] {
			seen[k] = true
			out = append(out, w)
		}
	}
	return out
}

// groupRanked keeps the best hit of each conversation by GroupScore, which
// becomes its Score, counting the hits each had, and ranks the
// conversations by their hits' GroupScores: the best, plus the next ones
// decaying by convDecay. Ties go to
// the conversation id, so a ranking never depends on the order Bleve's
// segments answer in. Without byScore (hits sorted by date) conversations
// keep the order of their first hit. It returns the page offset, limit of
// them, and whether more conversations follow it.
func groupRanked(hits []Hit, offset, limit int, byScore bool) ([]Hit, bool) {
	type conv struct {
		best   Hit
		bestW  float64
		scores []float64 // kind-weighted, one a hit
		total  float64
	}
	var order []*conv
	byID := map[string]*conv{}
	for _, h := range hits {
		s := GroupScore(&h)
		c, ok := byID[h.ConversationID]
		if !ok {
			c = &conv{best: h, bestW: s}
			byID[h.ConversationID] = c
			order = append(order, c)
		}
		c.scores = append(c.scores, s)
		if s > c.bestW {
			c.best, c.bestW = h, s
		}
	}
	for _, c := range order {
		slices.SortFunc(c.scores, func(a, b float64) int { return cmp.Compare(b, a) })
		f := 1.0
		for _, v := range c.scores[:min(len(c.scores), convHits)] {
			c.total += f * v
			f *= convDecay
		}
	}
	if byScore {
		slices.SortFunc(order, func(a, b *conv) int {
			if c := cmp.Compare(b.total, a.total); c != 0 {
				return c
			}
			return cmp.Compare(a.best.ConversationID, b.best.ConversationID)
		})
	}
	if offset >= len(order) {
		return []Hit{}, false
	}
	order = order[offset:]
	more := len(order) > limit
	if more {
		order = order[:limit]
	}
	out := make([]Hit, 0, len(order))
	for _, c := range order {
		h := c.best
		h.Count = len(c.scores)
		if byScore {
			h.Score = c.bestW // what it was chosen and ranked by
		}
		out = append(out, h)
	}
	return out, more
}
