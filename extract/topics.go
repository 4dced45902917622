package extract

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/extract/internal/words"
)

// Weights of where a phrase occurs: the title and summaries say what the
// conversation is about more densely than its messages.
var (
	titleWeight   = 2.0
	summaryWeight = 1.0
	messageWeight = 1.0
	phraseMix     = 0.5
)

// minSpread is the number of texts a phrase must occur in: a key phrase
// recurs between turns, a phrase said once is mostly an accident of wording.
const minSpread = 2

var spreadPenalty, lenBonus = 0.6, 0.35

// maxN is the longest phrase, in words.
const maxN = 3

// key is a phrase as word ids (0 pads phrases shorter than maxN).
type key [maxN]int32

func (k key) len() int {
	n := 0
	for n < maxN && k[n] != 0 {
		n++
	}
	return n
}

// contains reports whether phrase b occurs, word for word, inside phrase a.
func (k key) contains(b key) bool {
	na, nb := k.len(), b.len()
	for i := 0; i+nb <= na; i++ {
		if slices.Equal(k[i:i+nb], b[:nb]) {
			return true
		}
	}
	return false
}

type variant struct {
	surface key
	count   float64
}

type candidate struct {
	norm key
	tf   float64
	// spread is the number of texts (title, summaries, messages) the phrase
	// occurs in; unit is the last of them.
	spread, unit int
	variants     []variant
	score        float64
}

// topicState is the scratch of one Topics call, pooled between calls.
type topicState struct {
	sc       words.Scanner
	normIDs  map[string]int32
	norms    []string // id-1 → folded word
	surfIDs  map[string]int32
	surfs    []string // id-1 → lower-case word as written
	index    map[key]int32
	cands    []candidate
	run      [maxN]int32 // folded ids of the current run's last words
	runSurf  [maxN]int32
	runLen   int
	weight   float64
	unit     int // the text being scanned
	keyBuf   []byte
	dfCache  []int32 // id-1 → background df of the word, -1 unknown
	selected []int
}

func newTopicState() any {
	return &topicState{
		normIDs: make(map[string]int32, 512),
		surfIDs: make(map[string]int32, 512),
		index:   make(map[key]int32, 1024),
	}
}

func (s *topicState) reset() {
	clear(s.normIDs)
	clear(s.surfIDs)
	clear(s.index)
	s.norms = s.norms[:0]
	s.surfs = s.surfs[:0]
	for i := range s.cands {
		s.cands[i].variants = s.cands[i].variants[:0]
	}
	s.cands = s.cands[:0]
	s.runLen = 0
	s.unit = 0
	s.dfCache = s.dfCache[:0]
	s.selected = s.selected[:0]
}

func (s *topicState) Break() { s.runLen = 0 }

func (s *topicState) Word(norm, surface []byte) {
	id, ok := s.normIDs[string(norm)]
	if !ok {
		w := string(norm)
		s.norms = append(s.norms, w)
		id = int32(len(s.norms))
		s.normIDs[w] = id
	}
	sid, ok := s.surfIDs[string(surface)]
	if !ok {
		w := string(surface)
		s.surfs = append(s.surfs, w)
		sid = int32(len(s.surfs))
		s.surfIDs[w] = sid
	}
	if s.runLen == maxN {
		copy(s.run[:], s.run[1:])
		copy(s.runSurf[:], s.runSurf[1:])
		s.runLen--
	}
	s.run[s.runLen] = id
	s.runSurf[s.runLen] = sid
	s.runLen++
	// Every phrase ending at this word.
	for n := 1; n <= s.runLen; n++ {
		var k, sk key
		copy(k[:], s.run[s.runLen-n:s.runLen])
		copy(sk[:], s.runSurf[s.runLen-n:s.runLen])
		s.add(k, sk)
	}
}

func (s *topicState) add(k, sk key) {
	i, ok := s.index[k]
	if !ok {
		i = int32(len(s.cands))
		if len(s.cands) < cap(s.cands) {
			s.cands = s.cands[:len(s.cands)+1]
			c := &s.cands[i]
			c.norm, c.tf, c.score, c.spread, c.unit = k, 0, 0, 0, -1
		} else {
			s.cands = append(s.cands, candidate{norm: k, unit: -1})
		}
		s.index[k] = i
	}
	c := &s.cands[i]
	c.tf += s.weight
	if c.unit != s.unit {
		c.unit = s.unit
		c.spread++
	}
	for j := range c.variants {
		if c.variants[j].surface == sk {
			c.variants[j].count += s.weight
			return
		}
	}
	c.variants = append(c.variants, variant{sk, s.weight})
}

// Topics returns the conversation's distinctive phrases, best first (score
// descending, then name), at most Options.MaxTopics, each with Origin
// extracted and its Score.
func (e *Extractor) Topics(c *conversation.Conversation) []conversation.Topic {
	s := e.pool.Get().(*topicState)
	defer e.pool.Put(s)
	s.reset()

	s.weight = titleWeight
	s.sc.Scan(c.Title, s)
	s.Break()
	s.weight = summaryWeight
	for _, t := range c.Summaries {
		s.unit++
		s.sc.Scan(t, s)
		s.Break()
	}
	s.weight = messageWeight
	for i := range c.Messages {
		m := &c.Messages[i]
		if !usable(m) {
			continue
		}
		s.unit++
		s.sc.Scan(m.Content, s)
		s.Break()
	}
	if len(s.cands) == 0 {
		return nil
	}
	e.score(s)

	// Best first; a phrase overlapping one already chosen adds nothing.
	order := make([]int, 0, len(s.cands))
	for i := range s.cands {
		if s.cands[i].score >= e.opts.MinTopicScore || e.opts.MinTopicScore < 0 && s.cands[i].score > 0 {
			order = append(order, i)
		}
	}
	// Only the best few are needed, and names are dear to build: order by
	// score alone (ties by position, cheap and deterministic), then order the
	// head — everything tied with its last score included — by score and
	// name. The tail is ordered the same way only if the head runs out.
	slices.SortFunc(order, func(a, b int) int {
		if c := cmp.Compare(s.cands[b].score, s.cands[a].score); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	byName := func(part []int) {
		slices.SortStableFunc(part, func(a, b int) int {
			ca, cb := &s.cands[a], &s.cands[b]
			if c := cmp.Compare(cb.score, ca.score); c != 0 {
				return c
			}
			return strings.Compare(s.name(ca), s.name(cb))
		})
	}
	head := min(len(order), e.opts.MaxTopics*8)
	for head < len(order) && s.cands[order[head]].score == s.cands[order[head-1]].score {
		head++
	}
	byName(order[:head])
	tailSorted := false
	var out []conversation.Topic
	for k, i := range order {
		if k == head && !tailSorted {
			byName(order[head:])
			tailSorted = true
			i = order[k]
		}
		c := &s.cands[i]
		overlaps := false
		for _, j := range s.selected {
			if o := s.cands[j].norm; s.overlap(o, c.norm) || s.overlap(c.norm, o) {
				overlaps = true
				break
			}
		}
		if overlaps {
			continue
		}
		s.selected = append(s.selected, i)
		out = append(out, conversation.Topic{
			Name:   s.name(c),
			Origin: conversation.OriginExtracted,
			Score:  math.Round(c.score*1000) / 1000,
		})
		if len(out) == e.opts.MaxTopics {
			break
		}
	}
	return out
}

// overlap reports whether phrase b occurs inside phrase a, words compared by
// their stem ("resample" ~ "resampling").
func (s *topicState) overlap(a, b key) bool {
	na, nb := a.len(), b.len()
	for i := 0; i+nb <= na; i++ {
		same := true
		for j := 0; j < nb; j++ {
			if a[i+j] != b[j] && !sameStem(s.norms[a[i+j]-1], s.norms[b[j]-1]) {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// sameStem reports words that differ only in an ending: they share all but
// their last two letters, and at least four.
func sameStem(a, b string) bool {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n >= 4 && n >= min(len(a), len(b))-2
}

// name is the phrase as most often written (lower case), first written on a
// tie.
func (s *topicState) name(c *candidate) string {
	best := 0
	for j := range c.variants {
		if c.variants[j].count > c.variants[best].count {
			best = j
		}
	}
	k := c.variants[best].surface
	var b strings.Builder
	for i := 0; i < maxN && k[i] != 0; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s.surfs[k[i]-1])
	}
	return b.String()
}

// score sets each candidate's score: how often it occurs on its own (not as
// part of a longer candidate), damped, times how rare its words and the phrase
// itself are in the background, with a bonus for longer phrases.
func (e *Extractor) score(s *topicState) {
	n := e.backgroundN()
	maxIDF := math.Log(float64(n+1) / 1)
	// The most frequent longer phrase containing each candidate: occurrences
	// inside it do not count as the candidate's own.
	super := make([]float64, len(s.cands))
	for i := range s.cands {
		c := &s.cands[i]
		if c.norm.len() < 2 {
			continue
		}
		// Sub-phrases of c are its prefixes and suffixes (and the middle word
		// of a three-word phrase).
		k := c.norm
		l := k.len()
		for a := 0; a < l; a++ {
			for b := a + 1; b <= l; b++ {
				if b-a == l {
					continue
				}
				var sub key
				copy(sub[:], k[a:b])
				if j, ok := s.index[sub]; ok && c.tf > super[j] {
					super[j] = c.tf
				}
			}
		}
	}
	for i := range s.cands {
		c := &s.cands[i]
		c.score = 0
		l := c.norm.len()
		if !e.acceptable(s, c.norm, l) {
			continue
		}
		own := c.tf - super[i]
		if own < 0.5 {
			continue
		}
		var sum float64
		for j := 0; j < l; j++ {
			sum += math.Log(float64(n+1) / float64(e.wordDF(s, c.norm[j])+1))
		}
		info := sum / float64(l)
		if l > 1 {
			pdf := e.phraseDF(s, c.norm, l)
			info = (1-phraseMix)*info + phraseMix*math.Log(float64(n+1)/float64(pdf+1))
		}
		info = min(info, maxIDF)
		spread := 1.0
		if c.spread < minSpread {
			spread = spreadPenalty
		}
		c.score = math.Log1p(own) * spread * info * (1 + lenBonus*float64(l-1))
	}
}

// acceptable filters phrases that are not noun-like enough to be a topic.
func (e *Extractor) acceptable(s *topicState, k key, l int) bool {
	first, last := s.norms[k[0]-1], s.norms[k[l-1]-1]
	if l == 1 {
		_, generic := genericNouns[first]
		_, verb := clauseVerbs[first]
		return !generic && !verb && !pastTense(first)
	}
	if _, ok := weakStart[first]; ok {
		return false
	}
	if _, ok := weakEnd[last]; ok {
		return false
	}
	// A verb after the first word makes a clause ("team argues", "logs
	// contain personal"), not a term.
	for j := 1; j < l; j++ {
		if _, ok := clauseVerbs[s.norms[k[j]-1]]; ok {
			return false
		}
	}
	return !pastTense(last)
}

// pastTense reports a word that is most likely a verb's past form ("cached",
// "deployed"), which can start a noun phrase but not end one.
func pastTense(w string) bool {
	return len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed")
}

func (e *Extractor) backgroundN() int {
	if e.table != nil {
		return e.table.n
	}
	_, n := e.bg.DocFreq("")
	return max(n, 1)
}

func (e *Extractor) wordDF(s *topicState, id int32) int {
	for len(s.dfCache) < len(s.norms) {
		s.dfCache = append(s.dfCache, -1)
	}
	if d := s.dfCache[id-1]; d >= 0 {
		return int(d)
	}
	var d int
	if e.table != nil {
		d = int(e.table.df[s.norms[id-1]])
	} else {
		d, _ = e.bg.DocFreq(s.norms[id-1])
	}
	s.dfCache[id-1] = int32(d)
	return d
}

func (e *Extractor) phraseDF(s *topicState, k key, l int) int {
	b := s.keyBuf[:0]
	for j := 0; j < l; j++ {
		if j > 0 {
			b = append(b, ' ')
		}
		b = append(b, s.norms[k[j]-1]...)
	}
	s.keyBuf = b
	if e.table != nil {
		return e.table.lookup(b)
	}
	d, _ := e.bg.DocFreq(string(b))
	return d
}

func set(list string) map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields(list) {
		m[w] = struct{}{}
	}
	return m
}

// genericNouns say nothing about a subject on their own (folded forms).
var genericNouns = set(`way thing lot bit kind sort type part step case point example approach
	option idea question issue problem solution time answer number value result stuff place
	detail reason sense change fix error list item output input line word name end start side
	level term goal plan context note info information help work job task piece area aspect
	factor feature choice alternative pro con tradeoff trade-off downside upside benefit
	advantage disadvantage concern requirement message summary overview recommendation
	decision suggestion draft version call set check run test file code function method data
	use user thank day week month year minute hour second moment today people team question
	look try default current instead call update report customer client service system app
	application platform product company business row page partner instance replica
	environment server machine box tool library framework setup process workflow stack
	layer component module package endpoint request response query document table column
	field record object thing everyone person engineer developer`)

// weakStart and weakEnd are words a topic phrase should not begin or end with.
var weakStart = set(`way thing lot bit kind sort type part step case point example approach
	option idea question issue problem solution answer stuff detail reason sense piece aspect
	choice pro con benefit downside concern decision suggestion recommendation`)

var weakEnd = set(`way thing lot bit kind sort stuff part piece aspect reason sense question
	answer idea point`)

// clauseVerbs are common verbs (folded: "argues" → "argue") that are not
// also the nouns of technical terms; "push", "build", "test", "cache" and the
// like are left out on purpose.
var clauseVerbs = set(`agree allow appear argue arrive ask avoid become believe care cause choose
	cite claim complain consider contain decide describe die disagree ensure expect explain
	fail favour favor feel forget give guess happen hate hope ignore imply involve know
	leave let like listen live lose love matter mean mention miss need notice occur own pay
	pile prefer promise prove realise realize receive recommend reconcile reinstall rely
	remain remember require say seem sound spend stay struggle suffer suggest suppose tend
	think understand vary wait want win wonder worry`)
