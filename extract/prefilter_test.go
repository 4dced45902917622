package extract

import (
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

// allPatterns are every decision pattern, anchored or not.
func allPatterns() []*lazyRE {
	return []*lazyRE{reDirect, reUserWill, reUserLets, reUserCommit, reUserRule, reUserPlan, reUserVerdict,
		reImperative, reNotImperative, reAnyAnaphor, reItIs, rePlanLabel, reStartGo, reLabel, reProposal, reProposalLead,
		reQuestionStart, reHypothetical, reTentative, reNegation, reWalkthrough, reLead, reReasonIn, reReasonSo,
		reReasonNext, reAcceptStrong, reAcceptWeak, reContrast, reAnaphor, reOption, reOptionRef, reProposalLabel,
		reCompanion, reEmptyLabel, reAnaphorHow, reHowDecided, reSumsUp, reConfirmTag, reOptionName, reOptionIn,
		reOptionCapital, reLetsTakeThat, reOpinion, reComment, reDecisionLabel, reDecidedBefore, reRelativeStory}
}

// generate writes a random string re matches (assertions aside).
func generate(re *syntax.Regexp, r *rand.Rand, b *strings.Builder) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, c := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && r.IntN(2) == 0 {
				c = []rune(strings.ToUpper(string(c)))[0]
			}
			b.WriteRune(c)
		}
	case syntax.OpCharClass:
		i := 2 * r.IntN(len(re.Rune)/2)
		lo, hi := re.Rune[i], re.Rune[i+1]
		b.WriteRune(lo + rune(r.IntN(int(min(hi-lo, 200))+1)))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte("ax .-"[r.IntN(5)])
	case syntax.OpCapture:
		generate(re.Sub[0], r, b)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			generate(s, r, b)
		}
	case syntax.OpAlternate:
		generate(re.Sub[r.IntN(len(re.Sub))], r, b)
	case syntax.OpQuest:
		if r.IntN(2) == 0 {
			generate(re.Sub[0], r, b)
		}
	case syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
		lo, hi := 0, 2
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpRepeat:
			lo = re.Min
			hi = re.Min + 2
			if re.Max >= 0 {
				hi = min(hi, re.Max)
			}
		}
		for range lo + r.IntN(hi-lo+1) {
			generate(re.Sub[0], r, b)
		}
	}
}

// TestPrefilterKeepsMatches checks that no prefilter rejects a text its
// pattern matches: on thousands of texts generated from each pattern's
// syntax (so every alternative is tried), with and without text after the
// match, and at every word of the labelled conversations and the corpus.
func TestPrefilterKeepsMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2))
	tails := []string{"", " postgres because", ".", "s", " x", "—y", "\n"}
	anchored := 0
	for _, l := range allPatterns() {
		l.get()
		if !l.pf.any {
			anchored++
		}
		re := regexp.MustCompile(l.pattern)
		syn, err := syntax.Parse(l.pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		syn = syn.Simplify()
		matched := 0
		for range 3000 {
			var b strings.Builder
			generate(syn, r, &b)
			text := b.String() + tails[r.IntN(len(tails))]
			if !re.MatchString(text) {
				continue
			}
			matched++
			if !l.pf.mayMatch([]byte(text)) {
				t.Fatalf("prefilter of %.60s… rejects %q, which it matches", l.pattern, text)
			}
		}
		if matched < 100 {
			t.Errorf("%.60s…: only %d generated texts match", l.pattern, matched)
		}
	}
	if anchored < 20 {
		t.Errorf("only %d patterns have a prefilter", anchored)
	}

	// Real text: every word start of every message.
	texts := realTexts(t)
	regexps := make([]*regexp.Regexp, len(allPatterns()))
	for i, l := range allPatterns() {
		regexps[i] = regexp.MustCompile(l.pattern)
	}
	positions := 0
	for _, text := range texts {
		lower := asciiLower(nil, text)
		for i := range lower {
			if i > 0 && isAnchorByte(lower[i-1]) && isAnchorByte(lower[i]) {
				continue
			}
			positions++
			w := lower[i:min(len(lower), i+maxTrigger)]
			for k, l := range allPatterns() {
				if !l.pf.any && regexps[k].Match(w) && !l.pf.mayMatch(w) {
					t.Fatalf("prefilter of %.60s… rejects %q, which it matches", l.pattern, w)
				}
			}
		}
	}
	t.Logf("%d anchored patterns, %d positions of %d messages", anchored, positions, len(texts))
}

func TestPrefilter(t *testing.T) {
	p := newPrefilter(`^(?:we(?:'ll| will) use|let'?s go|x+y)\b`)
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{"we'll use pgx", true}, {"we will use", true}, {"let's go", true}, {"lets go", true},
		{"xxxy", true}, {"x", true}, // x+ stops the expansion at "x"
		{"we", false}, {"we'd use", false}, {"he'll use", false}, {"", false}, {"let us", false},
	} {
		if got := p.mayMatch([]byte(tt.in)); got != tt.want {
			t.Errorf("mayMatch(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	for _, pat := range []string{`\bnot\b`, `^a|b`, `^x*`} {
		if p := newPrefilter(pat); !p.any {
			t.Errorf("%s: want no prefilter", pat)
		}
	}
}

// TestAnchorToks checks that findAtToks finds what findAt finds, for every
// anchored pattern and its anchor set, on every sentence of the labelled
// conversations and the examples.
func TestAnchorToks(t *testing.T) {
	cases := []struct {
		r    *lazyRE
		list string
		bit  uint8
	}{
		{reDirect, directAnchorList, anchorDirect}, {reUserWill, userAnchorList, anchorUser},
		{reUserLets, userAnchorList, anchorUser}, {reUserCommit, commitAnchorList, anchorCommit},
		{reUserPlan, planAnchorList, anchorPlan}, {reUserVerdict, verdictAnchorList, anchorVerdict},
		{reProposal, proposalAnchorList, anchorProposal},
	}
	texts := realTexts(t)
	texts = append(texts, "We’ll use X. Recommendation: Y. i'd pick z; everyone agreed: all agreed. the plan is to ship")
	found := 0
	for _, text := range texts {
		lower := asciiLower(nil, text)
		for _, s := range splitSentences(text, lower, nil) {
			sl := lower[s.start:s.end]
			toks := anchorToks(sl, nil)
			for _, c := range cases {
				want := findAt(c.r, sl, set(c.list))
				got := findAtToks(c.r, sl, toks, c.bit)
				if !slices.Equal(got, want) {
					t.Fatalf("%.40s… in %q: %v, findAt %v", c.r.pattern, sl, got, want)
				}
				if got != nil {
					found++
				}
			}
		}
	}
	if found < 50 {
		t.Errorf("only %d matches: the test sees too little", found)
	}
}

// realTexts returns every message of the labelled set and the examples.
func realTexts(t *testing.T) []string {
	t.Helper()
	var texts []string
	tune, holdout := loadLabelled(t)
	for _, l := range append(tune, holdout...) {
		for _, m := range l.Conversation.Messages {
			texts = append(texts, m.Content)
		}
	}
	for _, c := range loadCorpus(t, 0, "../examples") {
		for _, m := range c.Messages {
			texts = append(texts, m.Content)
		}
	}
	return texts
}
