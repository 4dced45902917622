package extract

// The forms of a user's reply that settle something without a decision
// verb: a yes before or after what was proposed, restated in the user's own
// words; a thing kept, ruled out or refused; a pick among numbered or
// lettered options; "topic: what we do about it". Found in conversations
// written apart from the extractor (the labelled set's files 87 on).

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/extract/internal/words"
)

// Picks among the options the assistant numbered or lettered.

// reItemList is a pick of several numbered options: "1 and 2 are in",
// "let's do 1, 3 and 4", "2 and 3, please", "points 1 to 3 go in as
// written".
var reItemList = re(`^\s*(?:(?:let'?s (?:go with|do|take)|go with|(?:we'll|i'll) (?:do|take)|do)\s+)?(?:(?:options|items|points|steps|#)\s*)?(#?[0-9](?:\s*,\s*#?[0-9])*,?\s*(?:and|&|\+|-|–|to)\s*#?[0-9]|[a-h](?:\s*,\s*[a-h])*,?\s*(?:and|&|\+)\s*[a-h]\b)\s*(?:(?:are|is) in|go in(?: as written| as is)?|stay as (?:written|is)|as written|as is|please|then|it is|for now|now|yes|ok|okay|fine)?\s*(?:[.!,;—–]|$)`)

// reItemTail is what takes the points or steps a reply numbers: "points 1
// to 3 go in as written", "steps 1 and 3, please".
var reItemTail = re(`^(?:please|go in|are in|is in|stay as|as written|as is|yes|ok|okay|fine|then|it is|go ahead|let's|do (?:it|them|those))\b`)

// pickedItems returns the options a reply picks by their numbers, in the
// order named, or nil unless there are two or more and each is offered.
func pickedItems(sl []byte, p *proposal) []string {
	if !p.hasOptions() {
		return nil
	}
	start := leadEnd(sl)
	m := reItemList.FindSubmatchIndex(head(sl[start:]))
	if m == nil {
		return nil
	}
	list := sl[start+m[2] : start+m[3]] // the numbers or letters, without the lead
	if named := bytes.TrimLeft(sl[start:start+m[2]], " "); (bytes.HasPrefix(named, []byte("point")) || bytes.HasPrefix(named, []byte("step"))) &&
		!reItemTail.Match(bytes.TrimLeft(sl[start+m[3]:], " .!,;—–")) {
		return nil // "Steps 1 to 3, done.", "Points 2 and 3, not sure about those": a report or a doubt, not a pick
	}
	if span := sl[start : start+m[1]]; bytes.ContainsAny(list, "-–") && span[0] >= '0' && span[0] <= '9' && !bytes.Contains(span, []byte(" in")) && !bytes.Contains(span, []byte("please")) {
		return nil // "5-7. Haven't looked at those yet" numbers a line of the reply; "do 1-3" picks
	}
	var nums []int
	span := list
	letters := span[0] >= 'a' && span[0] <= 'h'
	for i, c := range span {
		if letters && c >= 'a' && c <= 'h' && (i == 0 || !wordByte(span[i-1])) && (i+1 == len(span) || !wordByte(span[i+1])) {
			nums = append(nums, -int(c-'a')-1) // "A and C, go ahead": letters, kept apart from numbers
			continue
		}
		if c < '0' || c > '9' {
			continue
		}
		n := int(c - '0')
		if k := len(nums); k > 0 && (bytes.ContainsAny(span[:i], "-–") || bytes.Contains(span[:i], []byte(" to "))) && !bytes.ContainsAny(span[:i], ",&+") {
			if nums[k-1] >= n {
				return nil // "3 to 1" is no range
			}
			for f := nums[k-1] + 1; f < n; f++ {
				nums = append(nums, f) // "do 1-3", "points 1 to 3": 1, 2 and 3
			}
		}
		nums = append(nums, n)
	}
	var out []string
	for _, n := range nums {
		key := strconv.Itoa(n)
		if n < 0 {
			key = string(rune('a' - n - 1))
		}
		o, ok := p.option(key)
		if !ok {
			return nil
		}
		out = append(out, o)
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// reItemNo is a numbered item refused: "2 no, 10 min stale is fine".
var reItemNo = re(`^#?([0-9])\s*(?:[-—–:]\s*)?(?:no|nope|not now|skip)\b\s*[,.!;—–]`)

// answersItem reports whether the reply's numbered line sl (its number n)
// settles the assistant's item n: a yes without a "but" takes the item's
// text ("4. yep, banners go."); a line that restates it ("3. In-process
// cache with a 60s TTL on the directory") is the decision as written.
func (st *decisionState) answersItem(text string, sl []byte, n int, p *proposal) (string, bool) {
	item, ok := p.option(strconv.Itoa(n))
	title, section := p.section(n)
	if !ok && !section || isQuestion(sl) || bytes.IndexByte(sl, '?') >= 0 || reHypothetical.Match(sl) || reOpenItem.Match(sl) || bytes.Contains(sl, []byte(" but ")) {
		return "", false
	}
	if loc := reLead.FindIndex(head(sl)); loc != nil && acceptingLead(sl[:loc[1]]) {
		if reOwnWords.Match(sl[loc[1]:]) {
			return "", false // "3. agreed, we'll add a focus ring …": the reply says what, read as written
		}
		return item, ok // a section that advises nothing ("## 2. SCIM") takes nothing
	}
	if speakerFirst(sl) || reTaskItem.Match(sl) || reTentative.Match(sl) || reFiniteVerb.Match(sl) || bytes.Contains(sl, []byte(" has ")) {
		return "", false // "Context loss - the agent has a mental model …" states, it settles nothing
	}
	if st.mostlySaid(sl, 3) || bytes.Count(bytes.TrimSpace(sl), []byte{' '}) == 0 && st.mostlySaid(sl, 1) {
		// "1. WorkOS." names the choice for point 1; under a section's
		// title ("SSO: build or buy") it says what it was chosen for.
		if section {
			return underTitle(title, trimText(text)), true
		}
		return trimText(text), true
	}
	return "", false
}

// numberedQuestion is a question of a numbered list an assistant asks,
// and the title it opens with, if any ("Cancellations").
type numberedQuestion struct {
	num   int
	title string
}

// numberedQuestions appends the numbered questions of an assistant's
// message to out: "2. **Cancellations.** Delete cancelled appointments, or
// keep them with a `status`?" is question 2, titled "Cancellations";
// "4. **Where to enforce**: at Envoy or in the Go services?" is titled
// "Where to enforce".
func numberedQuestions(text string, lower []byte, sents []sentence, out []numberedQuestion) []numberedQuestion {
	for k, s := range sents {
		if !s.lineStart || s.num == 0 || s.heading {
			continue
		}
		// The question may follow a title on its line, and advice follow
		// it ("1. **Time zones.** Do clinics span time zones? I'd store
		// `timestamptz`.").
		end, asks := k, false
		for ; end < len(sents) && (end == k || !sents[end].lineStart); end++ {
			asks = asks || isQuestion(lower[sents[end].start:sents[end].end])
		}
		if !asks {
			continue
		}
		end--
		out = append(out, numberedQuestion{num: s.num, title: questionTitle(text[s.start:sents[end].end])})
	}
	return out
}

// question returns the title of the assistant's numbered question n, and
// whether its last message asked one.
func (st *decisionState) question(n int) (title string, ok bool) {
	for _, q := range st.questions {
		if q.num == n {
			return q.title, true
		}
	}
	return "", false
}

// asks reports whether the assistant's last message asked a numbered
// question n.
func (st *decisionState) asks(n int) bool {
	_, ok := st.question(n)
	return ok
}

// underTitle puts a decision under the title of the point it answers
// ("Patients: Per clinic"), unless it names the title's words itself.
func underTitle(title, dec string) string {
	if title == "" || subset(contentWords(title), contentWords(dec)) {
		return dec
	}
	return title + ": " + dec
}

// questionTitle is what a numbered question opens with, set off in bold or
// by a colon: "**Time zones.** Do clinics span time zones?" is "Time
// zones", "Monthly quota: hard or soft?" "Monthly quota"; else "".
func questionTitle(q string) string {
	if t, rest, ok := boldLead(q); ok && strings.TrimLeft(rest, " :.—–-") != "" && !strings.HasSuffix(t, "?") && strings.Count(t, " ") < 6 {
		return t
	}
	if i := strings.IndexByte(q, ':'); i > 0 && strings.Count(q[:i], " ") < 4 {
		return strings.TrimSpace(strings.ReplaceAll(q[:i], "*", ""))
	}
	return ""
}

// answersQuestion returns the decision the reply's numbered line sl (its
// number n) makes by answering the assistant's question n: a short answer
// that names what was asked about ("Per clinic.", "Keep them, with a
// status column"), under the question's title ("Patients: Per clinic").
// An answer that is still open ("not sure yet", "still arguing with billing
// about this"), hedged, asks back, or is only a yes or no settles nothing
// said in so many words.
func (st *decisionState) answersQuestion(text string, sl []byte, n int) (string, bool) {
	title, found := st.question(n)
	// Not hedged(): "fail open" is no news of a failure.
	if !found || isQuestion(sl) || bytes.IndexByte(sl, '?') >= 0 || reHypothetical.Match(sl) || reTentative.Match(sl) ||
		reOpenItem.Match(sl) || reTaskItem.Match(sl) || bytes.Contains(sl, []byte("let me")) {
		return "", false
	}
	start := leadEnd(sl)
	ans := sl[start:]
	if speakerFirst(ans) || bytes.Count(bytes.TrimSpace(ans), []byte{' '}) > 12 || !st.saidAny(ans) {
		return "", false
	}
	dec := trimText(text[start:])
	if len(dec) < 3 {
		return "", false
	}
	return underTitle(title, dec), true
}

// reOwnWords opens a decision in the speaker's own words after a yes.
var reOwnWords = re(`^(?:we'll|we will|we're going to|we are going to|let's|i'll|i will|i'm going to) [a-z]`)

// tableRows reads the rows of a markdown table that number or letter their
// first cell, a table of recommendations being a list too: "| 5 | VPC
// endpoints: … |" is item 5, its text the second cell; "| (b) S3 gateway
// endpoint + interface endpoints | … |" is option b, its text the rest of
// the first cell.
func tableRows(text string) (items []numberedItem, opts map[string]string) {
	if !strings.Contains(text, "\n|") {
		return nil, nil
	}
	next := 0 // where the line after this one starts in text
	for line := range strings.Lines(text) {
		start := next
		next += len(line)
		line = strings.TrimSuffix(line, "\n")
		cells := strings.SplitN(strings.TrimSpace(line), "|", 4)
		if len(cells) < 3 || cells[0] != "" {
			continue
		}
		if c := strings.TrimSpace(cells[1]); len(c) >= 5 && c[0] == '(' && c[2] == ')' && (c[1]|0x20) >= 'a' && (c[1]|0x20) <= 'h' {
			if opts == nil {
				opts = map[string]string{}
			}
			opts[string(c[1]|0x20)] = strings.TrimSpace(c[3:])
			continue
		}
		if key := tableLetter(cells[1]); key != "" && len(cells) == 4 {
			// "| **B** | Authenticated + one core action | … |": option b,
			// its text the second cell.
			if cell := trimText(strings.ReplaceAll(cells[2], "*", "")); len(cell) >= 3 {
				if opts == nil {
					opts = map[string]string{}
				}
				opts[key] = cell
			}
			continue
		}
		n, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(cells[1]), "#"))
		if err != nil || n <= 0 || len(cells) < 4 {
			continue
		}
		cell := strings.TrimSpace(cells[2])
		if cell == "" {
			continue
		}
		off := strings.Index(line, cells[2]) + strings.Index(cells[2], cell)
		items = append(items, numberedItem{num: n, start: start + off, end: start + off + len(cell)})
	}
	return items, opts
}

// tableLetter returns the option a table's first cell labels, lower case
// ("**B**", "A", "Option C"), or "".
func tableLetter(cell string) string {
	c := strings.Trim(cell, " *_")
	if len(c) > 7 && strings.EqualFold(c[:7], "option ") {
		c = c[7:]
	}
	if len(c) == 1 && c[0] >= 'A' && c[0] <= 'H' {
		return string(c[0] | 0x20)
	}
	return ""
}

// sealed reports whether the sentence after sentence k only seals a
// choice: "Final.", "Decided.", "Done deal."
func (st *decisionState) sealed(k int) bool {
	if k+1 >= len(st.sents) {
		return false
	}
	n := st.sents[k+1]
	switch string(bytes.Trim(st.lower[n.start:n.end], " .!*_")) {
	case "final", "decided", "settled", "done deal", "final answer", "final decision", "that's final", "that’s final":
		return true
	}
	return false
}

// pointsElsewhere reports a proposal whose object is a pronoun: what it
// stands for is outside the sentence.
func pointsElsewhere(dec string) bool {
	first, rest, _ := strings.Cut(strings.ToLower(dec), " ")
	if first == "doing" {
		first, _, _ = strings.Cut(rest, " ") // "doing this one right away"
	}
	switch strings.TrimRight(first, ".,;:!") {
	case "it", "that", "this", "them", "those", "these":
		return true
	}
	return false
}

// A yes or a no before or after the thing it takes, and the thing in the
// user's own words.

// reRestateLead is a yes set off by punctuation: "Yeah ok,", "ok that works
// for me —", "Sure, sounds right:".
var reRestateLead = re(`^(?:so\s*:\s*|(?:(?:ok|okay|yes|yeah|so)[,.]?\s+)?(?:let'?s do (?:it|that|this)|do (?:it|that|this))\s*(?::|—|–|\s-)\s*|(?:(?:so|and|then)\s+)?(?:ok|okay|yeah|yep|yes|sure|fine|alright|all right|agreed)(?:[,.!]*\s+(?:ok|okay|yeah|yes|sure|then|so|fine))*(?:[,.!]*\s+(?:that|this|it)?\s*(?:works|makes sense|sounds (?:good|right|fine|reasonable))(?: for (?:me|us))?)?\s*(?:,|—|–|:|;|\s-)\s*)`)

// restated returns where, after a yes, a reply restates what the
// assistant just laid out ("Yeah ok, ARC runners with the in-cluster
// service account, no kubeconfigs in GitHub secrets"), or -1. Most of its
// words must have been said: a yes followed by news of the user's own is
// no choice.
func (st *decisionState) restated(sl []byte) int {
	if !st.replying || len(sl) > 300 {
		return -1
	}
	loc := reRestateLead.FindIndex(head(sl))
	if loc == nil {
		// "Talked to Priya last night and she's on board, so: free on both
		// stores": the conclusion after ", so:".
		if i := bytes.Index(sl, []byte(", so: ")); i > 0 && i < 120 {
			loc = []int{0, i + len(", so: ")}
		}
	}
	if loc == nil || loc[1] >= len(sl) {
		return -1
	}
	rest := sl[loc[1]:]
	if hedged(rest) || reNegation.Match(rest) || speakerFirst(rest) {
		return -1
	}
	first := firstWord(rest)
	first = bytes.TrimRight(first, ",.!")
	if leadWords.Has(first) || reQuestionStart.Match(first) || bytes.HasPrefix(first, []byte("we'")) || bytes.HasPrefix(first, []byte("that'")) || bytes.HasPrefix(first, []byte("it'")) {
		return -1
	}
	if !st.mostlySaid(rest, 3) {
		return -1
	}
	return loc[1]
}

// restatedAfterYes reports a reply's sentence k that restates what was
// proposed right after a sentence that is only a yes ("Fine by me.",
// "Agreed.", "Makes sense."): most of its words said, no verb of its own
// that reports.
func (st *decisionState) restatedAfterYes(sl []byte, k int) bool {
	if !st.replying || k == 0 {
		return false
	}
	p := st.sents[k-1]
	switch string(bytes.Trim(st.lower[p.start:p.end], " .!*_")) {
	case "fine by me", "agreed", "makes sense", "sounds good", "yes", "ok", "okay", "perfect", "works for me", "deal", "approved", "sold", "yep":
	default:
		return false
	}
	first := sl
	if i := bytes.IndexAny(sl, ",;"); i > 0 {
		first = sl[:i] // "…, and we only build a conflict screen if …" comments
	}
	if isQuestion(sl) || hedged(first) || speakerFirst(sl) {
		return false
	}
	return st.mostlySaid(first, 3)
}

// reAcceptedAfter is a yes after the thing it takes: ", yep.", " - yes,",
// ", agreed", ", yes 100%".
var reAcceptedAfter = re(`(?:(?:,| -| —| –)\s*(?:(yes|yep|yeah|agreed|fine|sure|ok|okay|definitely|absolutely|perfect|sounds good|makes sense|(?:perfect|good|great|fair|nice) (?:compromise|idea|plan|call|solution)|deal|love it|works for me)(?: 100%| please| then| for sure)?|(?:totally |fully |completely )?agree|like you (?:say|said|suggest|suggested)|as you (?:say|said|suggest|suggested)|go with (?:that|it)|let'?s do (?:that|it)|do (?:that|it)|that works|(absolutely not|definitely not|hard no|nope|no way))|\s(?:like|as) you (?:say|said|suggested))\s*(?:[.!]+|[,;]|$|(?:—|–|- )\s*())`)

// reFineAfter is a yes that closes a short phrase without a comma (group
// 1).
var reFineAfter = re(`^[a-z0-9][a-z0-9 ./_%$€£-]{2,40}( (?:fine|ok|okay|yes|yep|agree|agreed|i love|i like|love it))\s*(?:[.!]*$|,)`)

// conditional reports a clause that makes what precedes it depend on
// something: "assuming legal signs off", "if the budget allows".
func conditional(b []byte) bool {
	w := firstWord(bytes.TrimLeft(b, " "))
	return conditionOpener(w) || bytes.HasPrefix(bytes.TrimLeft(b, " "), []byte("as long as"))
}

// conditionOpener reports a word that opens a condition: a hedge ("if",
// "unless", "assuming", "maybe") or one of conditionWords.
func conditionOpener(w []byte) bool { return hedges.Has(w) || conditionWords.Has(w) }

// conditionWords open a condition besides the hedges.
var conditionWords = set(`pending provided once depending subject when`)

// reNopeAfter is a no that closes a short phrase without a comma: "google
// forms nope, we're a canvas school" (group 1).
var reNopeAfter = re(`^[a-z0-9][a-z0-9 ./_%$€£-]{2,40}( (?:nope|nah|no way))\s*(?:[.!]*$|,)`)

// reFiniteVerb marks a clause ("everything is fine"), not a thing named.
var reFiniteVerb = re(`\b(?:is|are|was|were|looks?|seems?|works?|feels?|sounds?|went|goes|got|prevents|makes|causes|means|needs|handles|gives|takes|runs)\b|'s\b|'re\b`)

// acceptedAfter returns where the thing a reply takes with a yes after it
// ends ("12 partitions keyed by customer_id, yep"), or 0, and where what a
// dash after the yes adds starts ("Two tiers like that, yes — normal with
// guaranteed share"), or 0. Most of the thing's words must have been said;
// what follows the yes must not object.
func (st *decisionState) acceptedAfter(sl []byte) (end, more int, against bool) {
	if !st.replying || len(sl) > 400 || isQuestion(sl) {
		return 0, 0, false
	}
	// The yes follows the thing within 120 bytes: the pattern need not
	// read further, and most sentences hold none of its words.
	scan := sl[:min(len(sl), 200)]
	var loc []int
	// Every form but "… like you say" needs a comma or a dash before its yes.
	if (bytes.ContainsAny(scan, ",-—–") || bytes.Contains(scan, []byte(" you s"))) &&
		containsAny(scan, "yes", "yep", "yeah", "agree", "fine", "sure", "ok", "definitely", "absolutely", "perfect", "sounds good", "makes sense", "compromise", "d idea", "t idea", "e idea", "d plan", "t plan", "d call", "r call", "t call", "solution", "deal", "love it", "works for me", "you say", "you said", "you suggest", "go with", "do that", "do it", "that works", "not", "nope", "no way", "hard no") {
		loc = reAcceptedAfter.FindSubmatchIndex(scan)
	}
	// "lru-cache as direct dep fine.": a short verbless phrase, then the yes,
	// no comma; it comes first in "The lasagna yes, we put it on top …,
	// good idea."
	if fine := reFineAfter.FindSubmatchIndex(sl); fine != nil && !reFiniteVerb.Match(sl[:fine[2]]) && (loc == nil || fine[2] < loc[0]) {
		loc = []int{fine[2], fine[1], fine[2], fine[3], -1, -1, -1, -1} // the shape of reAcceptedAfter's
	} else if loc == nil && !st.asked && containsAny(sl, "nope", "nah", "no way") {
		if nope := reNopeAfter.FindSubmatchIndex(sl); nope != nil && !reFiniteVerb.Match(sl[:nope[2]]) &&
			!containsAny(sl[nope[1]:], "still", "same", "didn't", "doesn't", "broken", "not working", "no change") {
			loc = []int{nope[2], nope[1], -1, -1, nope[2], nope[3], -1, -1}
		}
	}
	if loc == nil {
		return 0, 0, false
	}
	if loc[0] > 120 {
		return 0, 0, false
	}
	against = loc[4] >= 0 // "status page for security incidents, absolutely not"
	if against && loc[1] < len(sl) && bytes.HasPrefix(bytes.TrimLeft(sl[loc[1]:], " "), []byte("but")) {
		return 0, 0, false
	}
	phrase := sl[:loc[0]]
	if l := reLead.FindIndex(head(phrase)); l != nil && l[1] < len(phrase) {
		phrase = phrase[l[1]:] // "ok second redis with noeviction, fine"
	}
	if after := bytes.TrimLeft(sl[loc[1]:], " "); reservations.Has(firstWord(after)) && (st.asked || !bytes.HasPrefix(after, []byte("but no "))) {
		return 0, 0, false // "Option B, yes, but …"; "…, yes, but no Renovate" turns another thing down
	}
	first := firstWord(bytes.TrimLeft(phrase, " "))
	if pronouns.Has(first) || leadWords.Has(bytes.TrimRight(first, ",.!")) || hedged(phrase) {
		return 0, 0, false
	}
	n, said := st.saidShare(phrase)
	bare := bytes.TrimSpace(phrase)
	for _, det := range []string{"the ", "a ", "an "} {
		bare = bytes.TrimPrefix(bare, []byte(det)) // "The lasagna yes"
	}
	if n == 0 || said*2 < n || n == 1 && (said == 0 || bytes.Count(bare, []byte{' '}) > 0) {
		return 0, 0, false // one word only when it alone is the thing ("alpenverein, yep")
	}
	if after := sl[loc[1]:]; containsAny(after, "let me think", "i'll think", "will think", "will ask", "i'll ask", "need to check", "will check", "i'll check") {
		return 0, 0, false // "Redis for the cache, good idea, let me think about it"
	}
	if loc[6] >= 0 && !against && loc[6] < len(sl) { // "…, yes —" adds nothing
		if conditional(sl[loc[6]:]) {
			return 0, 0, false // "…, yes — assuming legal signs off" is no yes yet
		}
		more = loc[6]
	}
	return loc[0], more, against
}

// reTakenOver is a thing taken over another, without a verb: "One index with
// per-language fields, not index-per-language.", "for amounts go integer
// cents not Decimal, stripe wants cents anyway". Group 1 is the thing
// taken, 2 the one passed over, 3 what follows a comma.
var reTakenOver = re(`^([a-z0-9][^,;:?]{2,70}?),? (?:not|rather than|instead of) ([^,;:?]{2,50}?)(?:[.!]*$|,\s+(\S.*)$)`)

// contrast returns where the thing a reply takes over another ends, the
// other included, or 0: the sentence opens with it, with no verb of its
// own, and what it is weighed against was on the table.
func (st *decisionState) contrast(sl []byte) int {
	if !st.replying || len(sl) > 240 {
		return 0
	}
	if !bytes.Contains(sl, []byte(" not ")) && !bytes.Contains(sl, []byte(" than ")) && !bytes.Contains(sl, []byte(" instead ")) {
		return 0
	}
	m := reTakenOver.FindSubmatchIndex(sl)
	if m == nil || hedged(sl) || st.askedFact {
		return 0 // "Only on Safari, not Chrome." answers "does it crash on Chrome or on Safari?"
	}
	taken, other := sl[m[2]:m[3]], sl[m[4]:m[5]]
	if first, rest, _ := bytes.Cut(taken, []byte(" ")); reportWords.Has(first) || string(first) == "a" && bytes.HasPrefix(rest, []byte("bug")) ||
		containsAny(sl[m[5]:], "profiled", "measured", "checked", "tested", "confirmed", "traced") {
		return 0 // "happens on wifi, not on ethernet" reports
	}
	if speakerFirst(taken) || reFiniteVerb.Match(taken) || leadWords.Has(taken) || len(contentWords(string(taken))) == 0 || bytes.HasPrefix(taken, []byte("make sure ")) {
		return 0 // "make sure it flags at 60 days, not 45" asks for a check
	}
	if first := firstWord(other); notContrast.Has(first) {
		return 0 // "this week, not sure yet": no thing passed over
	}
	if n, said := st.saidShare(other); n == 0 || said*2 < n {
		return 0
	}
	return m[5]
}

// reportWords open what a contrast reports rather than takes: "only on
// Safari", "happens on wifi", "a bug in the parser".
var reportWords = set(`only happens happened just mostly mainly even also still bug error crash crashes fails`)

// factQuestions open a question about the facts.
var factQuestions = set(`does did is are was were do can has have`)

// notContrast open what follows "not" when it passes nothing over: "not
// sure", "not yet".
var notContrast = set(`sure yet now really quite much bad great too so that this it a an only just entirely`)

// reOptionLabel is the label before an option's name: "A) ", "2. ".
var reOptionLabel = re(`^(?:[a-h0-9][.)]|\([a-h0-9]\))\s+`)

// headingNames returns the names the assistant's last message sets in bold
// at the start of a line or list item ("**Drizzle**", "- **B) Drizzle** –
// schema in TS"), without their labels, lower case: the alternatives it
// laid out by name.
func (st *decisionState) headingNames() []string {
	var names []string
	for m := range st.lastAnswers(1) {
		for line := range strings.Lines(m.Content) {
			line, _, _ = stripMarker(strings.TrimSpace(line))
			lead, _, ok := boldLead(line)
			if !ok {
				continue
			}
			name := strings.TrimSpace(lead)
			if loc := reOptionLabel.FindIndex([]byte(strings.ToLower(name))); loc != nil {
				name = name[loc[1]:]
			}
			if name = strings.ToLower(strings.TrimSpace(name)); name != "" && len(strings.Fields(name)) <= 4 && !slices.Contains(names, name) && !sectionNames.HasString(name) && !notionLabels.HasString(name) {
				names = append(names, name)
			}
		}
	}
	return names
}

// pickInContext returns a short pick ("weekly", "plan 1") as the
// assistant's last message lays it out, or "": the pick alone does not say
// what it is a pick of. A pick that opens a heading is that option, its
// heading and first line ("Plan 1: Mountains first: Hanoi 2 · Ha Giang 4 ·
// …"); a pick named in the part under one heading is a pick of what the
// heading asks ("Summary cadence: weekly"). A heading is a "#" line or a
// line that is all bold. Nothing is returned for a pick of more than two
// words, one named under two headings or none, or a heading that names a
// part of the answer ("Recommendation") or a file.
func (st *decisionState) pickInContext(pick string) string {
	if strings.Count(pick, " ") > 1 {
		return ""
	}
	lp := strings.ToLower(pick)
	// "plan 1", "option b": a label, which a heading may open with. Any
	// other pick is looked for under a heading, and only an everyday word
	// needs one: "pgvector" or "Frankfurt" says what it is.
	_, last, _ := strings.Cut(lp, " ")
	labelled := last != "" && len(last) <= 2 && (last[0] >= '0' && last[0] <= '9' || len(last) == 1)
	if !labelled && !everyday(lp) {
		return ""
	}
	for m := range st.lastAnswers(1) {
		heading, found, titled := "", "", ""
		firstLine := false // the next line of text is the first under titled
		for line := range strings.Lines(m.Content) {
			t := strings.TrimSpace(line)
			if h, ok := headingLine(t); ok {
				heading, firstLine = h, false
				if lh := strings.ToLower(h); labelled && strings.HasPrefix(lh, lp) && (len(lh) == len(lp) || !wordByte(lh[len(lp)])) {
					if titled != "" {
						return "" // two headings open with it
					}
					titled, firstLine = h, true
				}
				continue
			}
			if firstLine && t != "" {
				titled += ": " + trimText(t) // the option's first line says what it is
				firstLine = false
				continue
			}
			if heading == "" || wordIndex(asciiLower(nil, t), []byte(lp)) < 0 {
				continue
			}
			switch {
			case found == "":
				found = heading
			case found != heading:
				found = "-" // named under two headings
			}
		}
		if titled != "" {
			return titled
		}
		if labelled || found == "" || found == "-" || wordIndex(asciiLower(nil, found), []byte(lp)) >= 0 || sectionNames.HasString(strings.ToLower(found)) || strings.Count(found, " ") > 5 ||
			strings.ContainsAny(found, "`/\\.=()[]{}<>") { // a file's name or code heads a snippet, not a question
			return ""
		}
		return found + ": " + pick
	}
	return ""
}

// headingLine returns the text of a markdown heading line ("## Summary
// cadence") or of a line that is all bold ("**Streak rules**"), without
// the marks and a closing colon.
func headingLine(t string) (string, bool) {
	var h string
	switch {
	case strings.HasPrefix(t, "#"):
		h = strings.TrimLeft(t, "# ")
	case len(t) > 4 && strings.HasPrefix(t, "**") && strings.HasSuffix(strings.TrimRight(t, ":"), "**") && !strings.Contains(t[2:len(strings.TrimRight(t, ":"))-2], "**"):
		h = strings.Trim(t, "*: ")
	default:
		return "", false
	}
	h = strings.TrimRight(strings.TrimSpace(h), ":")
	return h, h != ""
}

// dislikes say after a name that it is not the one: "kysely, my old team
// hated it", "timeline, 6 weeks feels tight"; "please" asks for it.
var dislikes = set(`hate hated hates never worried tight bad awful terrible please`)

// sectionNames are bold headings that name a part of the answer, not an
// alternative: "**Pros**", "**Rule of thumb:**", and the labels of
// notionLabels ("**Note:**", "**Summary**").
var sectionNames = words.NewSetOf([]string{"notes", "tl;dr", "rule of thumb", "pros", "cons",
	"timeline", "budget", "risks", "risk", "recommendation", "my recommendation", "short version", "why", "caveat",
	"caveats", "example", "examples", "steps", "next steps", "overview", "bottom line",
	"verdict", "cost", "costs", "trade-offs", "tradeoffs", "options", "option", "important", "warning", "tip",
	"questions", "step 1", "step 2", "step 3", "step 4", "step 5"})

// pickedByName returns where the name ends of the alternative a reply's
// first sentence opens with, as the assistant laid it out in bold among
// others ("drizzle, we like having the schema in ts" after "**Drizzle**"
// and "**Kysely**"), or 0.
func (st *decisionState) pickedByName(sl []byte) int {
	if !st.user || !st.replying || isQuestion(sl) {
		return 0
	}
	end := bytes.IndexAny(sl, ",.;!—–")
	if end < 0 {
		end = len(sl)
	}
	h := bytes.TrimSpace(sl[:end])
	if len(h) == 0 || len(h) > 30 || bytes.Count(h, []byte{' '}) > 2 {
		return 0
	}
	if first := firstWord(h); pronouns.Has(first) || leadWords.Has(first) {
		return 0
	}
	if rest := sl[end:]; anyWord(rest, dislikes) || containsAny(rest, "not ", "n't") {
		return 0 // "kysely, my old team used it and hated it", "summary, please"
	}
	names := st.headingNames()
	if len(names) < 2 {
		return 0
	}
	lh := strings.ToLower(string(h)) // sl is lowered in ASCII only: "İstanbul", "Palácio Ção"
	for _, n := range names {
		if n == lh {
			return end
		}
	}
	return 0
}

// reYesTo is a yes or a no to a thing named (groups 1 and 2): "And yes to
// peer assessment", "no to the vivas".
var reYesTo = re(`^(?:(?:and|so|also|ok|okay)[,]?\s+)*(yes|no|nope|a big yes|a hard no|big no) to ((?:the |a |an |your )?[a-z0-9])`)

// reTopicChoice is a reply's "topic: what we do about it" (groups 1 and 2).
var reTopicChoice = re(`^([a-z][a-z0-9 /_-]{1,24}):\s+(\S.*)$`)

// topicChoice reports "Handoff day: moving it to Wednesday", "splitting:
// timing-based w/ gotestsum, 4 shards", "Tickets: I love the tiered idea":
// the topic was said, and what follows is a change under way, a liking
// for what was proposed, or most of it said, with no question or hedge.
func (st *decisionState) topicChoice(sl []byte) bool {
	if !st.replying || len(sl) > 240 || !bytes.Contains(head(sl), []byte(": ")) {
		return false
	}
	m := reTopicChoice.FindSubmatchIndex(sl)
	if m == nil {
		return false
	}
	topic, rest := sl[m[2]:m[3]], sl[m[4]:m[5]]
	if bytes.Count(topic, []byte{' '}) > 2 || !st.saidAny(topic) || hedged(rest) ||
		containsAny(rest, "idk", "not sure", "pretty sure", "no idea", "undecided", "torn", "need to", "have to check") {
		return false
	}
	first := firstWord(rest)
	first = bytes.TrimRight(first, ",.")
	switch {
	case underWay(first):
		return true // "moving it to Wednesday"
	case reLiking.Match(rest) && !bytes.Contains(rest, []byte(" but ")):
		return true // "I love the tiered idea"
	case speakerFirst(rest):
		return false
	}
	if reFiniteVerb.Match(rest) {
		return false // "Memory cleanup: proper cleanup prevents leaks" states
	}
	if t := bytes.TrimRight(rest, ".! "); bytes.Count(t, []byte{' '}) <= 2 {
		if st.askedFact || namesState(topic) {
			return false // "os: ubuntu.", "current provider: mailchimp." describe
		}
		n, said := st.saidShare(t)
		return n >= 1 && said == n // "cadence: biweekly."
	}
	return st.mostlySaid(rest, 2)
}

// namesState reports a topic with a word of what is, not of what to do:
// "os", "current provider", "last time" ("backlog" and "hosting" are none).
func namesState(topic []byte) bool { return anyWord(topic, stateTopicWords) }

// anyWord reports whether a word of b, whole, is in set: a test of words
// where containsAny, a prefilter, would find "log" in "backlog".
func anyWord(b []byte, set *words.Set) bool {
	for i, j := nextWord(b, 0); i < j; i, j = nextWord(b, j) {
		if set.Has(b[i:j]) {
			return true
		}
	}
	return false
}

var stateTopicWords = set(`os error errors log logs output result results version status current last previous old
	model device browser provider`)

// reLiking is a liking for what was proposed: "I like the guaranteed +
// borrowing model".
var reLiking = re(`^i (?:like|love|prefer|'m happy with|am happy with) (?:the|your)\b`)

// Things kept, ruled out or refused.

// reStays is a thing the user keeps as it is, in a clause of its own:
// "the admin app stays on Jest until …", "so `amount` stays until Q3
// close".
var reStays = re(`^(?:so |and |then |ok |okay )*((?:the |our |` + "`" + `)?[a-z0-9$£€][a-z0-9 ./+#_` + "`" + `-]{0,40}?) (?:(?:stays?|(?:is|are) staying) (?:on|at|in|as|with|until|put|unchanged|where|up|down|off)|stays|(?:go|goes) to (?:[$€£]|[0-9]+|an? )|(?:go|goes) (?:behind|under|next to|beside|against|along|on top of|in front of)|becomes? (?:the|a|an|one|our|its|part)|(?:go|goes|(?:is|are) going) (?:in|into|out of)|(?:comes?|are coming|is coming) (?:off|out(?: of (?:the|our) (?:plan|scope|list|rollout|release|spec|roadmap|sprint|menu|mvp|checklist|template))?)|(?:go|goes) ahead|(?:drops?|moves?|comes? down) to (?:[$€£]|[0-9]+|every |monthly|weekly|daily|hourly|fortnightly|quarterly)|(?:is|are) going (?:away|to stay)|goes)\b`)

// stays returns the clause of a reply that keeps a thing as it is, from its
// subject to the sentence's end, or nil. A report ("memory still stays at
// 2 GB"), a hedge or a question is none.
func (st *decisionState) stays(sl []byte) []int {
	if !st.replying || !containsAny(sl, " stay", " becom", " go to", " goes", " go in", " go out", " going", " go behind", " go under", " go next", " come", " go ahead", " drop", " move") || isQuestion(sl) {
		return nil
	}
	for from := 0; from < len(sl); {
		for from < len(sl) && sl[from] == ' ' {
			from++
		}
		if m := reStays.FindSubmatchIndex(head(sl[from:])); m != nil {
			// A report up to the clause's end ("memory still stays at 2
			// GB"); what follows it may say what the thing does ("the spec
			// diff goes into CI, failing the build unless …").
			end := from + m[1]
			if i := bytes.IndexAny(sl[end:], ",;"); i >= 0 {
				end += i
			} else {
				end = len(sl)
			}
			rest := sl[end:]
			if w := firstWord(bytes.TrimLeft(rest, ",; ")); bytes.HasSuffix(w, []byte("ing")) {
				rest = nil // "…, failing the build unless …" says what it does
			}
			if reNews.Match(sl[:end]) || reNews.Match(rest) || containsAny(sl, "by default", "nothing to change", "whenever") {
				return nil // "…, and it's been failing every build", "drops to 60 seconds by default"
			}
			subj := sl[from+m[2] : from+m[3]]
			bare := sl[from : from+m[1]]
			switch {
			case bytes.HasSuffix(bare, []byte(" goes")):
				// "the km 30 cut-off goes, …" takes up a proposal to drop
				// it; a clause that is no such thing leaves the next
				// clause to be read ("…goes, the car stays").
				if st.dropTaken(sl, from, m) {
					return []int{from + m[2], from + m[1]}
				}
			case bytes.HasSuffix(bare, []byte(" stays")):
				// "the maple stays, …": a bare "stays" ends its clause, and
				// keeps only a thing the assistant spoke of; "the rash
				// stays, even with the cream" reports.
				end := from + m[1]
				first := firstWord(subj)
				if end < len(sl) && !bytes.ContainsRune([]byte(",;!."), rune(sl[end])) || !st.saidAny(subj) && !(st.saidEarlier(subj) && !bytes.HasPrefix(subj, []byte("the "))) ||
					pronouns.Has(first) || conditionOpener(first) || reTentative.Match(sl[:end]) || bytes.Contains(subj, []byte("probably")) ||
					anyWord(sl[end:], concessives) || containsAny(sl[end:], "no matter", "not sure") {
					return nil
				}
				return []int{from + m[2], end} // what follows is a comment: "my partner would divorce me"
			case bytes.HasSuffix(bare, []byte(" out")):
				// "The nightly job comes out.": out of what was planned, the
				// clause ending there ("comes out of our margin" reports).
				if next := bytes.TrimLeft(sl[from+m[1]:], " "); len(next) > 0 && !bytes.ContainsAny(next[:1], ".,;!") && !bytes.HasPrefix(next, []byte("—")) && !bytes.HasPrefix(next, []byte("–")) && !bytes.HasPrefix(next, []byte("and ")) {
					return nil
				}
				return st.keptClause(sl, from, m, subj)
			default:
				return st.keptClause(sl, from, m, subj)
			}
		}
		i := bytes.IndexAny(sl[from:], ",;:")
		if j := bytes.Index(sl[from:], []byte(" — ")); j >= 0 && (i < 0 || j < i) {
			i = j + len(" —") // "That's it — bench goes behind the saw"
		}
		if i < 0 {
			return nil
		}
		from += i + 1
	}
	return nil
}

// keptClause returns the clause of reStays' match m at from, a thing kept,
// moved or become ("the admin app stays on Jest until …"), or nil when it
// is a report, a hedge or about nothing discussed.
func (st *decisionState) keptClause(sl []byte, from int, m []int, subj []byte) []int {
	first := firstWord(bytes.Trim(subj, "`"))
	clause := sl[from:]
	if i := bytes.IndexAny(clause[m[1]:], ",;"); i >= 0 {
		clause = clause[:m[1]+i] // "…, my regulars would riot" is a comment
	}
	if pronouns.Has(first) || reTentative.Match(clause) || reNegation.Match(clause) || reHypothetical.Match(sl[:from+m[3]]) ||
		bytes.HasSuffix(sl[from:from+m[1]], []byte(" ahead")) && containsAny(sl[from+m[1]:], " if ") {
		return nil // "the migration goes ahead if the jobs are paused": not yet
	}
	// "so workers go to 3.11" concludes from what the message said
	// of the workers before.
	concluded := bytes.HasPrefix(sl[from:], []byte("so ")) && st.saidInMessage(subj)
	if !st.saidAny(subj) && !st.saidEarlier(subj) && !concluded {
		return nil // a thing nobody discussed: news ("the fan stays on all night")
	}
	return []int{from + m[2], len(sl)}
}

// dropTaken reports whether the bare "X goes" of reStays' match m at from
// takes up the assistant's proposal to drop X: the clause ends there, X is a
// thing (no pronoun, clause word or adverb: "the car never goes", "wait
// until I see how this goes"), what follows is no report ("…, then comes
// back", "…, after an hour") and the assistant spoke of dropping it ("Drop
// the km 30 cut-off").
func (st *decisionState) dropTaken(sl []byte, from int, m []int) bool {
	subj, end := sl[from+m[2]:from+m[3]], from+m[1]
	if end < len(sl) && !bytes.ContainsRune([]byte(",;!."), rune(sl[end])) && !bytes.HasPrefix(sl[end:], []byte(" — ")) && !bytes.HasPrefix(sl[end:], []byte(" – ")) {
		return false // "The take-home goes — candidates hate it" gives its reason after the dash
	}
	first := firstWord(subj)
	if bytes.Count(subj, []byte(" ")) > 4 || pronouns.Has(first) || anyWord(subj, clauseWords) || anyWord(subj, goesAdverbs) ||
		reTentative.Match(sl[:end]) || goesReport.Has(firstWord(bytes.TrimLeft(sl[end:], ",;!. "))) {
		return false
	}
	thing := bytes.Trim(lastWord(subj), "`'\"")
	return len(thing) > 1 && dropsThing(st.saidLower, thing)
}

// dropsThing reports whether said proposes to drop thing: a drop verb and,
// within the few words after it, the thing.
func dropsThing(said, thing []byte) bool {
	for _, loc := range reDropVerb.get().FindAllIndex(said, -1) {
		window := said[loc[1]:min(len(said), loc[1]+60)]
		if i := bytes.IndexAny(window, ".\n"); i >= 0 {
			window = window[:i]
		}
		for _, w := range bytes.Fields(window) {
			if bytes.Equal(bytes.Trim(w, ",;:*`'\"()"), thing) {
				return true
			}
		}
	}
	return false
}

var reDropVerb = re(`\b(?:drop|dropping|remove|removing|cut|cutting|scrap|scrapping|delete|deleting|retire|retiring|get rid of|lose|losing|without)\b`)

// goesAdverbs in the subject of "goes" report how a thing behaves: "the car
// never goes", "not sure the gym membership goes".
var goesAdverbs = set(`never barely always not sure still just only really also rarely sometimes hardly usually`)

// goesReport opens what follows a bare "goes" that reports: "the headache
// goes, after an hour", "…, then comes back", "…, but slowly".
var goesReport = set(`after then but unless apparently sometimes again eventually slowly once until when`)

// clauseWords in the subject of a bare "goes" make it a clause of its own,
// not a thing: "wait until I see how this goes".
var clauseWords = set(`how until when if whether what see wait everything anything it this that before after once unless while`)

// concessives after "X stays" make it a report: "the rash stays, even with
// the cream".
var concessives = set(`even despite whatever though although still`)

// reFlatNo is a thing ruled out with a bare "no": "and definitely no
// terragrunt, …", "No shim." (group 1 the "no" phrase, group 2 an
// intensifier, group 3 the thing).
var reFlatNo = re(`^(?:(?:ok|okay|so|then|fine|and|also|but)[,.!]*\s+)*((definitely |absolutely |certainly )?no ([a-z0-9][a-z0-9 ./+#_-]{0,48}?)( then)?)\s*(?:[.!]+\s*$|$|,|:\s)`)

// flatNo returns the span of a reply's "no X" that rules out a thing said,
// or nil: with "definitely" before it in any sentence, else only as a
// sentence of its own of a few words. An idiom ("no worries", "no idea")
// rules nothing out.
func (st *decisionState) flatNo(sl []byte) []int {
	if !st.replying || !bytes.Contains(head(sl), []byte("no ")) {
		return nil
	}
	m := reFlatNo.FindSubmatchIndex(head(sl))
	if m == nil {
		return nil
	}
	thing := sl[m[6]:m[7]]
	first := firstWord(thing)
	if notRuledOut.Has(first) || !st.saidAny(thing) {
		return nil
	}
	// "and no bird mesh, …" goes on a list of decisions; "No Snowflake
	// spike: …" gives its reason after the colon.
	listed := bytes.HasPrefix(sl, []byte("and no ")) || bytes.HasPrefix(sl, []byte("also no ")) || m[1] >= 2 && sl[m[1]-2] == ':'
	sealed := m[8] >= 0 // "no chips then, one of our volunteers does timing"
	if m[4] < 0 && !listed && !sealed && (m[1] < len(bytes.TrimRight(sl, " .!")) && !commitsNext(sl[m[1]:]) || bytes.Count(thing, []byte{' '}) > 6) {
		return nil // "No shim." stands alone; "no X, …" needs its "definitely" or a choice after it
	}
	return m[2:4]
}

// commitsNext reports a clause that goes on to the choice made instead:
// "no inreach, we'll go with the SOS app", "no tent, huts it is".
func commitsNext(rest []byte) bool {
	rest = bytes.TrimLeft(rest, " ,;—–-")
	return reUserWill.Match(head(rest)) || reUserLets.Match(head(rest)) || reStartGo.Match(head(rest)) || reUserPresent.Match(head(rest)) ||
		bytes.HasPrefix(rest, []byte("we put ")) || bytes.HasPrefix(rest, []byte("we add ")) ||
		bytes.HasPrefix(rest, []byte("just ")) || bytes.HasPrefix(rest, []byte("obviously")) || itIs(rest) != nil
}

// reArrow is "thing → where it goes" (group 1 the thing), up to a comma or a
// full stop.
var reArrow = re(`^(?:(?:ok|okay|so|and)[,:]?\s+)?([a-z0-9][a-z0-9 ._/-]{0,30}?)\s*(?:→|->|=>)\s*[a-z0-9][^,;.]{0,60}`)

// arrow returns the span of a reply's "X → Y" whose X was said, or nil.
func (st *decisionState) arrow(sl []byte) []int {
	if !st.replying || !containsAny(sl, "→", "->", "=>") || isQuestion(sl) {
		return nil
	}
	m := reArrow.FindSubmatchIndex(head(sl))
	if m == nil || sl[m[2]] < 'a' || sl[m[2]] > 'z' || !st.saidAny(sl[m[2]:m[3]]) || reTentative.Match(sl[:m[1]]) {
		return nil
	}
	if first := firstWord(sl[m[2]:m[3]]); pronouns.Has(first) {
		return nil // "that 10→20 drop scares me" reports
	}
	return []int{m[2], m[1]}
}

// hedged reports a question, a condition, a hedge or a report of how
// things are: none of them settles anything.
func hedged(b []byte) bool {
	return isQuestion(b) || bytes.IndexByte(b, '?') >= 0 || reHypothetical.Match(b) || reTentative.Match(b) || reNews.Match(b)
}

// speakerFirst reports a phrase opening with a pronoun or "I'…": a clause
// about someone, not a thing named.
func speakerFirst(b []byte) bool {
	w := firstWord(bytes.TrimLeft(b, " "))
	w = bytes.TrimRight(w, ",.!")
	return pronouns.Has(w) || bytes.HasPrefix(w, []byte("i'"))
}

// mostlySaid reports a phrase of at least min content words, three in five
// of them said: what the assistant laid out, in the user's words.
func (st *decisionState) mostlySaid(phrase []byte, min int) bool {
	n, said := st.saidShare(phrase)
	return mostly(n, said, min)
}

// mostly reports at least min of n content words, three in five of them
// said.
func mostly(n, said, min int) bool { return n >= min && said*10 >= n*6 }

// saidShare returns how many content words phrase holds and how many of
// them were said (in saidLower).
func (st *decisionState) saidShare(phrase []byte) (n, said int) { return shareIn(st.saidLower, phrase) }

// shareIn returns how many content words phrase holds and how many of them
// are in t.
func shareIn(t, phrase []byte) (n, in int) {
	for w := range contentWords(string(phrase)) {
		n++
		if saidIn(t, []byte(w)) {
			in++
		}
	}
	return n, in
}

// yesTo returns the match of reYesTo in a reply's sentence sl, or nil.
func (st *decisionState) yesTo(sl []byte) []int {
	if !st.replying || isQuestion(sl) {
		return nil
	}
	m := reYesTo.FindSubmatchIndex(head(sl))
	if m != nil {
		if w := firstWord(sl[m[4]:]); pronouns.Has(bytes.TrimRight(w, ",.!")) {
			return nil // "nope to it, too touristy": nothing named
		}
	}
	return m
}

// userRuledOut is ruledOut for the user's sentences only.
func (st *decisionState) userRuledOut(sl []byte) []int {
	if !st.user {
		return nil
	}
	return ruledOut(sl)
}

// reForget is a reply's sentence dropping a thing named: "yeah forget the
// MG, no way to charge", "so wolf ridge is off, nothing I can do" (groups
// 1, 2: the thing).
var reForget = re(`^(?:forget(?: about)? ([a-z0-9][a-z0-9 .+#/_-]{1,40}?)|([a-z0-9][a-z0-9 .+#/_-]{1,40}?) is off)(?:\s*[,;:.!—–]|\s+(?:then|too|now|for now|anyway)\b|$)`)

// forget returns where the thing a reply's sentence drops with "forget X"
// or "X is off" starts and ends, and where the words that drop it end, X a
// thing the assistant said; or nil.
func (st *decisionState) forget(sl []byte) []int {
	if !st.user || !st.replying || isQuestion(sl) || !containsAny(head(sl), "forget", " is off") {
		return nil
	}
	start := leadEnd(sl)
	m := reForget.FindSubmatchIndex(head(sl[start:]))
	if m == nil {
		return nil
	}
	i, j := m[2], m[3]
	if i < 0 {
		i, j = m[4], m[5]
	}
	thing := sl[start+i : start+j]
	first := firstWord(thing)
	if pronouns.Has(first) || deictic(first) || bytes.Count(thing, []byte(" ")) > 4 || !st.mostlySaid(thing, 1) {
		return nil // "forget it", "forget that I asked", "the heating is off"
	}
	return []int{start + i, start + j, start + m[1]}
}

// reOkThen is a choice named after an "ok" and sealed with "then": "so ok
// SEV2 then", "alright, Friday then".
var reOkThen = re(`^\s*(?:so\s+)?(?:ok|okay|alright|fine|right)[,.!]*\s+([a-z0-9][a-z0-9 .+#/_-]{0,30}?),? then\s*(?:[.!]*$|[,;:—–])`)

// okThen returns where the thing that reOkThen names in a reply's sentence
// sl starts and ends, or nil. The thing must be one said before, and no
// clause about someone: "ok see you then" names nothing.
func (st *decisionState) okThen(sl []byte) []int {
	if !st.user || !st.replying || isQuestion(sl) {
		return nil
	}
	i := bytes.Index(sl, []byte(" then"))
	if i < 0 {
		return nil
	}
	from := choiceClause(sl[:i])
	m := reOkThen.FindSubmatchIndex(sl[from:])
	if m == nil {
		return nil
	}
	thing := sl[from+m[2] : from+m[3]]
	for w := range bytes.FieldsSeq(thing) {
		// "ok see you then" names nobody's choice, "ok Kafka vs SQS then"
		// two things still to weigh.
		if pronouns.Has(w) || bytes.HasPrefix(w, []byte("i'")) || alternativeWords.Has(w) {
			return nil
		}
	}
	if !st.mostlySaid(thing, 1) {
		return nil
	}
	return []int{from + m[2], from + m[3]}
}

var alternativeWords = set(`or vs vs. versus`)

// isClause reports a text with a finite verb ("self-hosting isn't
// happening"), not only a thing and its details.
func isClause(b []byte) bool {
	return reFiniteVerb.Match(b) || bytes.Contains(b, []byte("n't")) || bytes.Contains(b, []byte("n’t"))
}

// notPicked open an "X then," that names no pick: "back to the budget",
// "next week", "same issue".
var notPicked = set(`back next same good tomorrow today tonight later`)

// askingNext open what follows an "X then," that asks or promises
// something else than a pick: a question without its mark, a request, what
// the speaker will do, a "but".
var askingNext = set(`what how why which who where when can could would should is are does do did summarise summarize give tell show
	walk explain talk i'll i'm i'd i’ll i’m i’d but`)

// signOff is what may close an "X then," without saying more of the
// pick: "PgBouncer then, thanks!".
var reSignOff = re(`^(?:thanks|thank you|cheers|please|perfect|ok|okay|great|cool|fine|good|sounds (?:good|great|right)|go ahead|let's (?:go|move on|do it)|i guess)\b`)

// reGetsNod is a reply naming its pick as what gets the nod: "Vite gets
// the nod", "Loki gets the green light". Group 1 is the pick. (A share
// given in general, "Everyone gets the invite", reads as often as a report
// of how things are — "each invoice gets a reference number, that's how
// Xero works" — and is left out.)
var reGetsNod = re(`^(?:(?:and|so|ok|okay|then)[,]?\s+)?((?:the |our )?[a-z0-9/][a-z0-9 ./_-]{1,30}?) gets (the (?:nod|go-ahead|green light|vote))(?:\s*(?:[,;—–.!]|\s-\s|$))`)

// getsNod returns where the pick of a reply's sentence sl of reGetsNod's
// form starts and ends and where its clause ends, or nil. The pick must be
// a thing said before, and no hedge follow it ("…, but I'm not sure").
func (st *decisionState) getsNod(sl []byte) []int {
	m := st.replyMatch(sl, " gets the ", reGetsNod)
	if m == nil {
		return nil
	}
	subj := sl[m[2]:m[3]]
	if pronouns.Has(firstWord(subj)) || !namesThing(subj) || hedgedRest(sl[m[1]:]) || !st.saidAny(subj) {
		return nil
	}
	return []int{m[2], m[3], m[5]}
}

// hedgedRest reports what follows a pick that takes it back or makes it
// depend on something: "…, maybe", "…, if the budget allows", "…, but let
// me check with ops first".
func hedgedRest(rest []byte) bool {
	return containsAny(rest, "maybe", "perhaps", " if ", "unless", "i guess", "i suppose", "probably", "not sure", "let me", "check with", "i think", "for now?")
}

// reForThe is a reply naming what it takes for a purpose: "Nunito for the
// wordmark — it looked friendly", "Postgres for the queue, Redis for the
// cache". Group 1 is what is taken, group 2 the purpose.
var reForThe = re(`^([a-z0-9][a-z0-9 ./+#_-]{1,30}?) for ((?:the|our|my|all|every|each) [a-z0-9][a-z0-9/_-]*(?:\.[a-z0-9]+)*(?: [a-z0-9][a-z0-9/_-]*(?:\.[a-z0-9]+)*){0,2}?)(?:\s*(?:[,;—–]|\s-\s|[.!]*$))`)

// forThe returns where the decision of a reply's sentence sl of
// reForThe's form starts and ends, or nil. What it takes must be a thing
// the assistant named ("thanks for the help", "sorry for the delay" take
// nothing).
func (st *decisionState) forThe(sl []byte) []int {
	m := st.replyMatch(sl, " for ", reForThe)
	if m == nil {
		return nil
	}
	thing, purpose, rest := sl[m[2]:m[3]], sl[m[4]:m[5]], sl[m[1]:]
	if !namesThing(thing) || isClause(thing) || isClause(purpose) || notForThe.Has(firstWord(thing)) || adviceVerbs.Has(firstWord(thing)) ||
		idiomPurposes.Has(lastWord(purpose)) || bytes.HasSuffix(purpose, []byte(" then")) || !st.mostlySaid(thing, 1) {
		// "Go with X for the rest, …" and "X for all three then" are
		// other forms'; "Postgres for the record" is an idiom.
		return nil
	}
	if anyWord(sl, nowWords) || hedgedRest(rest) || refusals.Has(firstWord(bytes.TrimLeft(rest, " ,;—–-"))) || containsAny(rest, " was ", " were ", " used to ", "their ", "no way", "rather not") {
		// "Currently Postgres for the main DB", "…, that was their stack",
		// "…, maybe", "Redis for the cache, no way".
		return nil
	}
	end := m[5]
	for {
		// "SQS for the queue, Redis for the cache": both picks.
		mm := reMoreFor.FindSubmatchIndex(sl[end:])
		if mm == nil || !st.mostlySaid(sl[end+mm[2]:end+mm[3]], 1) {
			break
		}
		end += mm[1]
	}
	return []int{m[2], end}
}

// reMoreFor is another pick for a purpose after the first: ", Redis for
// the cache". Group 1 is what is taken.
var reMoreFor = re(`^\s*[,;]\s*(?:and )?([a-z0-9][a-z0-9 ./+#_-]{1,30}?) for (?:the|our|my|all|every|each) [a-z0-9][^,;.!?—–]{1,40}`)

// idiomPurposes end a "for the …" that names no purpose: "for the
// record", "for the win".
var idiomPurposes = set(`record win moment best love sake fun hell life time being`)

// notForThe open a "X for the Y" that takes nothing.
var notForThe = set(`thanks thank sorry good great bad same time space room enough nothing something everything`)

// nowWords say a sentence reports how things are, not how they will be.
var nowWords = set(`now today currently already usually always sometimes still often`)

// reConcession is what may stand before ", but" and a decision without
// being part of it: "Tempting", "Good point", "I hear you", "I know it's
// slower", "Not ideal".
var reConcession = re(`^(?:(?:ok|okay|yeah|yes|well|and|so)[,.]?\s+)?(?:tempting|good point|fair point|fair enough|point taken|i hear you|i know\b.*|i get (?:it|that|the point)|i see (?:the|your) point|true|sure|not ideal|nice idea|good idea|interesting|i agree|agreed|understood|noted|i understand|makes sense|both are (?:fine|good|ok))$`)

// laterThen open what follows an "X then," whose "then" is a time: "hash
// set then, when we have the memory budget".
var laterThen = set(`when once if after before until unless later next in`)

// detailsOnly reports a list of a choice's details, short parts without a
// verb or a pronoun ("transaction mode, pool size 20, and CONN_MAX_AGE back
// to 0"), not a reason ("same as Stripe, customers already expect that").
func detailsOnly(b []byte) bool {
	b = bytes.TrimRight(b, " .!")
	for part := range bytes.SplitSeq(b, []byte(",")) {
		part = bytes.TrimSpace(part)
		and := bytes.HasPrefix(part, []byte("and "))
		part = bytes.TrimPrefix(part, []byte("and "))
		if determiners.Has(firstWord(part)) && (!and || bytes.Count(part, []byte(" ")) > 2) {
			// "the memory matters more" says why; "and the startup probe"
			// is one more, "and the question of monitoring" is not.
			return false
		}
		n := 0
		for w := range bytes.FieldsSeq(part) {
			if pronouns.Has(w) {
				return false
			}
			n++
		}
		if n == 0 || n > 4 || isClause(part) {
			return false
		}
	}
	return true
}

var determiners = set(`the a an my our your its their this that these those`)

// saidSince reports whether a word of phrase was said in the last answer
// or turns before it.
func (st *decisionState) saidSince(phrase []byte) bool {
	if st.saidAny(phrase) {
		return true
	}
	_, said := shareIn(st.past(), phrase)
	return said > 0
}

// halfSaid reports whether half the content words of phrase, one at least,
// were said in the last answer, or else in the answers before it.
func (st *decisionState) halfSaid(phrase []byte) bool {
	half := func(n, said int) bool { return said > 0 && said*2 >= n }
	return half(st.saidShare(phrase)) || half(shareIn(st.past(), phrase))
}

// replyMatch returns r's submatches in a user's reply sentence sl that is
// no question and holds word (which spares most sentences the pattern),
// or nil.
func (st *decisionState) replyMatch(sl []byte, word string, r *lazyRE) []int {
	if !st.user || !st.replying || isQuestion(sl) || !bytes.Contains(sl, []byte(word)) {
		return nil
	}
	return r.FindSubmatchIndex(sl)
}

// reMakeNot is a reply setting a number against the one proposed: "Make
// the overdue flag 60 days, not 45", "Make working papers 8 years, not 7".
var reMakeNot = re(`^(?:(?:and|also|so|but|ok|okay|mostly fine|fine)[,.]?\s+)?(make (?:the |our |all )?[a-z][a-z0-9 _/-]{1,40}? [$£€]?[0-9]+(?:[.,][0-9]+)*` + numberUnit + `,? not [$£€]?[0-9]+(?:[.,][0-9]+)*` + numberUnit + `)(?:[\s,;.!—–]|$)`)

// numberUnit is the unit that may follow a number in reMakeNot.
const numberUnit = `(?:%| ?(?:per ?cent|days?|weeks?|months?|years?|hours?|hrs?|minutes?|mins?|seconds?|secs?|ms|s|am|pm|gb|mb|kb|tb|k|x|euros?|dollars?|pounds?|people|seats|slots|bikes|tickets))?`

// makeNot returns where the setting of a reply's sentence sl of
// reMakeNot's form starts and ends, or nil. The number it replaces must
// have been said.
func (st *decisionState) makeNot(sl []byte) []int {
	m := st.replyMatch(sl, "make ", reMakeNot)
	if m == nil || makeIdioms.Has(firstWord(bytes.TrimLeft(sl[m[2]+len("make"):], " "))) || hedgedRest(sl[m[3]:]) {
		return nil // "make sure it runs in 30 seconds, not 45", "…, not 45, if the pubs agree"
	}
	old := sl[bytes.LastIndex(sl[:m[3]], []byte("not "))+len("not ") : m[3]]
	if n := bytes.TrimRight(firstWord(old), ".,"); !st.said(n) && !saidIn(st.past(), n) {
		return nil // the number replaced was never proposed
	}
	return []int{m[2], m[3]}
}

// reSwap is a reply swapping one thing for another it names: "And swap the
// theme to Furo", "Swap Furo for the RTD theme", "Swap to vinyl". Group 1
// is what comes in.
var reSwap = re(`^(?:(?:and|also|so|ok|okay)[,]?\s+)?swap (?:(?:out )?(?:the |our )?[a-z0-9][a-z0-9 ./_-]{0,40}? )?(?:to|for) ((?:the )?[a-z0-9][a-z0-9 ./_-]{1,40}?)(?:\s+(?:while|when|as|since|because)\b|\s*[,;.!—–]|$)`)

// swap returns where the swap of a reply's sentence sl of reSwap's form
// starts and ends, or nil. What comes in must have been named: "swap
// places with me", "swap out the battery and check again" swap nothing
// discussed.
func (st *decisionState) swap(sl []byte) []int {
	m := st.replyMatch(sl, "swap ", reSwap)
	if m == nil || !st.mostlySaid(sl[m[2]:m[3]], 1) || hedgedRest(sl[m[3]:]) {
		return nil
	}
	return []int{bytes.Index(sl, []byte("swap ")), m[3]}
}

// makeIdioms follow a "make" that sets nothing: "make sure", "make it".
var makeIdioms = set(`sure certain it them this that these those me us him her do`)

// reThenComma is a reply opening with the thing it takes, sealed with
// "then" and a comma: "PgBouncer as a sidecar then, transaction mode, pool
// size 20", "Sentry SaaS on the EU region then, self-hosting isn't
// happening".
var reThenComma = re(`^(?:(?:ok|okay|so|right|alright|fine)[,.!]*\s+)?([a-z0-9][a-z0-9 ./+#_-]{2,60}?(?:, [a-z0-9][a-z0-9 ./+#_-]{2,30}?)?),? then[,;]\s+(\S)`)

// thenComma returns, for a reply's sentence sl of that form, where the
// thing taken starts and ends and where what follows the comma starts; nil
// for any other sentence. The thing must be one said before and name
// something ("see you then, bye" does not).
func (st *decisionState) thenComma(sl []byte) []int {
	m := st.replyMatch(sl, " then", reThenComma)
	if m == nil {
		return nil
	}
	thing, rest := sl[m[2]:m[3]], sl[m[4]:]
	if first, second, two := bytes.Cut(thing, []byte(", ")); two {
		// "snake_case object_action, past tense then": both parts said;
		// "Ugh, the labels then", "Sam, polyester then" are not two.
		if !st.saidSince(first) && !bytes.Contains(first, []byte(" ")) || !st.saidSince(second) {
			return nil
		}
	}
	if !namesThing(thing) || isClause(thing) || alternativeWords.Has(firstWord(thing)) || notPicked.Has(firstWord(thing)) ||
		laterThen.Has(firstWord(rest)) || askingNext.Has(firstWord(rest)) || bytes.Contains(rest, []byte(" me ")) || bytes.HasSuffix(bytes.TrimRight(rest, " .!"), []byte(" me")) {
		// "Back to the budget then, walk me through it", "Next week then,
		// I'll report back", "The notes then, summarise them for me".
		return nil
	}
	// "PgBouncer as a sidecar then" after PgBouncer was proposed adds where
	// it runs; "NAS then" comes back to the options of the first answer.
	if !st.halfSaid(thing) {
		return nil
	}
	return []int{m[2], m[3], m[4]}
}

// reLabelledNo is a thing named, then refused: "async: no.", "Kafka —
// nope."
// reSoNo is a sentence that weighs a thing and ends turning it down: "hybrid
// i dont really get the point of, two systems to maintain, so no."
var reSoNo = re(`[,;]\s*so (?:no|nope|nah|that's a no|not for us)[.!]*$`)

// soNo returns where the thing a sentence ending in ", so no" turns down
// ends: its first words, up to a pronoun or a comma, which must name
// something the assistant said; or 0.
func (st *decisionState) soNo(sl []byte) int {
	if !st.replying || st.asked || len(sl) > 200 || !bytes.Contains(sl, []byte(" so n")) || !reSoNo.Match(sl) ||
		containsAny(sl, "tried", "checked", "same", "still", "already", "bought") {
		return 0 // "the router, bought it 4 years ago, so no." answers a question
	}
	end := 0
	for i, j := nextWord(sl, 0); i < j; i, j = nextWord(sl, j) {
		if w := sl[i:j]; pronouns.Has(w) || bytes.HasPrefix(w, []byte("i'")) {
			end = i
			break
		}
		if j < len(sl) && sl[j] == ',' {
			end = j
			break
		}
	}
	thing := bytes.TrimRight(sl[:end], " ,")
	if len(thing) == 0 || bytes.Count(thing, []byte{' '}) > 3 || leadWords.Has(thing) || !st.saidAny(thing) {
		return 0
	}
	return len(thing)
}

// reservedAfter reports a clause that takes back what precedes it: "…, but
// the team overruled me", "… last time, right".
func reservedAfter(rest []byte) bool {
	w, _, _ := bytes.Cut(bytes.TrimLeft(rest, " ,;"), []byte(" "))
	return reservations.Has(w) || bytes.Contains(rest, []byte("overrul")) || bytes.Contains(rest, []byte("right?"))
}

// reLabelledDecidedNo is "X: …, we decided no", the thing in group 1.
var reLabelledDecidedNo = re(`^(?:and |also |so |ok,? |okay,? )?([a-z0-9][a-z0-9 ./+#_-]{0,30}?)\s*:\s*(?:[^:]{0,80}?,\s*)?(?:we|i)(?: have| 've|'ve)? (?:decide|decided|said|say) no(?:[,.;!]|$)`)

var reLabelledNo = re(`^([a-z0-9][a-z0-9 ./+#_-]{0,30}?)\s*(?::|—|–| -)\s*(?:no|nope|not now|no way|nah)\s*[.!]*$`)

// labelledNo returns where the thing a reply refuses in "X: no." starts and
// ends, or 0, 0. The thing must have been said.
func (st *decisionState) labelledNo(sl []byte) (start, end int) {
	if !st.replying || len(sl) > 160 {
		return 0, 0
	}
	var m []int
	if len(sl) <= 48 {
		m = reLabelledNo.FindSubmatchIndex(sl)
	}
	if m == nil && bytes.Contains(sl, []byte(" no")) && bytes.IndexByte(sl, ':') > 0 && !isQuestion(sl) {
		// "And lifetime: we talked at dinner, we decide no, at least for
		// the launch.": the thing, refused after how it was decided; not
		// "i said no, but the team overruled me".
		if m = reLabelledDecidedNo.FindSubmatchIndex(sl); m != nil && reservedAfter(sl[m[1]:]) {
			m = nil
		}
	}
	if m == nil {
		return 0, 0
	}
	thing := sl[m[2]:m[3]]
	if first := firstWord(thing); pronouns.Has(first) || leadWords.Has(first) || !st.saidAny(thing) {
		return 0, 0
	}
	return m[2], m[3]
}

// refusals turn a thing named into a thing refused: "the status page,
// nope".
var refusals = set(`no nope never nah`)

// reDont is an instruction against, its verb in group 1.
var reDont = re(`^(?:(?:and|also|but|please|so|ok|okay)[,]?\s+)*(?:don't|do not)(?: just)? ([a-z]+)\b`)

// dontIdioms are the verbs of "don't …" that instruct nothing about the
// work: "don't worry", "don't get me wrong".
var dontIdioms = set(`worry forget know think mind get hesitate feel ask panic judge bother care
	tell believe understand remember see expect want need have like answer reply respond explain
	be`)

// Where a decision starts and ends inside a longer sentence.

// clauseAfterDash returns where the last clause of prefix set off by a dash,
// a semicolon or ", but" starts (the last only when rest, what follows
// prefix, points nowhere back), or 0: "two cities feels like plenty —
// we're skipping Osaka" decides only after the dash, "Tempting, but we're
// going with Envoy" after the "but". A comma alone keeps what is before it
// ("For the cache, we'll use Redis").
func clauseAfterDash(prefix []byte, rest []byte) int {
	i := bytes.LastIndex(prefix, []byte("; "))
	for _, end := range []string{",", " because ", " since ", " — ", " as "} {
		if k := bytes.Index(rest, []byte(end)); k >= 0 {
			rest = rest[:k] // the decision's own words, not its reason's
		}
	}
	if j := bytes.LastIndex(prefix, []byte(", but ")); j >= 0 && j+len(", but")-1 > i && !reAnyAnaphor.Match(rest) && reConcession.Match(prefix[:j]) {
		// "Tempting, but we're going with Envoy Gateway": the concession is
		// no part of it; "I had written X, but I'm changing that to Y"
		// needs its X, and "SQLite for now, but we'll move to Postgres" is
		// no concession.
		i = j + len(", but")
	}
	for _, d := range []string{" — ", " – ", " - "} {
		if j := bytes.LastIndex(prefix, []byte(d)); j >= 0 && j+len(d)-1 > i {
			i = j + len(d) - 1
		}
	}
	return i + 1
}

// askedLater reports a sentence whose question mark belongs to a clause
// after the one that decides, from the decision's end: "we're skipping Osaka
// because …, and we can eat okonomiyaki in Kyoto too, right?".
func askedLater(sl []byte, end int) bool {
	if reQuestionStart.Match(head(bytes.TrimLeft(sl, "*_ "))) {
		return false
	}
	rest := sl[end:]
	for _, b := range []string{", and ", "; ", " — ", " – "} {
		if i := bytes.Index(rest, []byte(b)); i >= 0 && !bytes.ContainsRune(rest[:i], '?') {
			return true
		}
	}
	return false
}

// nextClause returns where the clause after sl[from:] starts, past a
// semicolon or a dash, or -1.
func nextClause(sl []byte, from int) int {
	best := -1
	for _, sep := range []string{"; ", " — ", " – "} {
		if i := bytes.Index(sl[from:], []byte(sep)); i >= 0 && (best < 0 || from+i+len(sep) < best) {
			best = from + i + len(sep)
		}
	}
	return best
}

// cutBefore ends a decision of m that runs on into the clause companion (a
// clause of its own after a semicolon or a dash) where that clause starts:
// "Switch to Vitest for the web app; the admin app stays on Jest" is two
// decisions. upTo is the sentence up to the clause.
func (st *decisionState) cutBefore(out []conversation.Decision, m *conversation.Message, upTo, companion string) []conversation.Decision {
	for i := len(out) - 1; i >= 0 && out[i].MessageIndex == m.Index; i-- {
		d := out[i].Decision
		j := strings.Index(d, companion)
		if j <= 0 {
			continue
		}
		head := trimText(d[:j])
		if len(head) < 3 || !strings.Contains(upTo, head) {
			continue
		}
		out[i].Decision = head
		st.words[i] = contentWords(head)
	}
	return out
}

// choiceClause returns where the clause before " it is" starts: after the
// last colon, semicolon, comma, dash or ellipsis ("Yeah fine, Grafana Cloud
// it is", "So… the hotel it is"), or after an "and" that ends a longer
// clause ("We had the meeting yesterday and Slurm it is"; "SQS and Redis it
// is" keeps both).
func choiceClause(prefix []byte) int {
	from := bytes.LastIndexAny(prefix, ":;,") + 1
	for _, sep := range []string{" — ", " – ", "…"} {
		if j := bytes.LastIndex(prefix, []byte(sep)); j >= 0 && j+len(sep) > from {
			from = j + len(sep)
		}
	}
	for _, conj := range []string{" and ", " so "} {
		if j := bytes.LastIndex(prefix, []byte(conj)); j >= from && bytes.Count(bytes.TrimSpace(prefix[from:j]), []byte{' '}) >= 3 {
			from = j + len(conj)
		}
	}
	return from
}

var asItIs = set(`as what how where when why way like`)

// relativeClause reports a prefix that makes what follows a relative
// clause: "the modals we're replacing anyway" describes the modals.
func relativeClause(prefix []byte) bool {
	t := bytes.TrimRight(prefix, " ")
	if len(t) == 0 || !wordByte(t[len(t)-1]) {
		return false
	}
	i := bytes.LastIndexByte(t, ' ')
	w := t[i+1:]
	if w[0] >= 0x80 || clauseOpeners.Has(w) {
		return false // a dash ("plenty — we're skipping") opens a clause
	}
	// "So after another round we're switching": a fronted adverbial, no
	// noun the clause describes.
	clause := t[bytes.LastIndexAny(t, ",;:")+1:]
	first := firstWord(bytes.TrimLeft(clause, " "))
	return !adverbialOpeners.Has(first)
}

var adverbialOpeners = set(`so after in on at for this next from since once by with then now today also
	before during over`)

var clauseOpeners = set(`and but so then now also yes yeah ok okay well because since as if when while once
	until anyway actually honestly basically plus today tomorrow finally instead`)

// concludes reports a prefix whose last clause is a bare "so": "SRE won't
// take security pages, so we're doing C", "she's in so we run the steam
// playtest" (without the comma, after a clause of a few words).
func concludes(prefix []byte) bool {
	return bytes.HasSuffix(prefix, []byte(", so ")) || bytes.HasSuffix(prefix, []byte("; so ")) || string(prefix) == "so " || string(prefix) == "so, " ||
		bytes.HasSuffix(prefix, []byte(" so ")) && bytes.Count(prefix, []byte{' '}) >= 4
}

// rePicksThing ends a trigger whose object is a thing picked.
var rePicksThing = re(`(?:go with|going with|use|using|switch to|switching to|change to|pick|choose|stay with|stick with|opt for|go for|settled on)$`)

// rePicksAfterLabel opens what follows a label with a pick: "change of
// plan: we go with …".
var rePicksAfterLabel = re(`^(?:we |i )?(?:'ll |will |'re |are )?(?:go with|going with|use|using|switch to|switching to|pick|choose|stay with|stick with|opt for|go for)\b`)

// reClauseAfter is a comma and a clause with a subject of its own: "…, the
// admin will have next/previous buttons".
var reClauseAfter = re(`, (?:the |our |my |their )?[a-z0-9/_.-]+(?: [a-z0-9/_.-]+){0,2} (?:is|are|was|were|will|would|has|have|had|can|could|does|did|isn't|aren't|won't|doesn't|didn't)\b`)

// reTaskAfter is a clause of the speaker's own task after a decision.
var reTaskAfter = re(`, (?:and )?i(?:'ll| will|'m going to| need to| have to| can) `)

// reColonAfter opens an explanation after a colon: "voted to buy rather
// than build: nobody wanted to own SAML".
// reDashAfter is a clause with someone as its subject after a dash, perhaps
// after a phrase of circumstance ("— with the grant it's only 4-5k more"):
// group 1 the clause.
var reDashAfter = re(` [—–] ((?:with [a-z0-9 ]{1,30}? |since [a-z0-9 ]{1,30}? )?(?:she|he|they|we|i|it|you|everyone|nobody|the team|my [a-z]+|our [a-z]+)(?:'s|'re|'ve|'ll|'d| [a-z]+ed| [a-z]+s| need| want| like| love| have| had| can| can't| don't| plan)\b)`)

var reColonAfter = re(`: (?:nobody|no one|we|it|they|this|that|the|our|i)\b`)

// reViewAfter is the speaker's view after a comma.
var reViewAfter = re(`, (?:and )?i (?:prefer|think|guess|feel|want|like|hope|believe)\b`)

// reCommentAfter opens a comment on the decision after a comma: "we stay
// with Traefik, no reason to install another thing".
var reCommentAfter = re(`, (?:no reason to|not worth|no point in|which (?:is|was|would|means|makes)|that way|(?:it's|its|it is) (?:a|an|too|so|just|really|way|kind of|always|never)|(?:they're|theyre|they are) (?:a|too|so|just|really|way|always|never))\b`)

// What is no decision, or not yet one.

// reNews marks a report of how things are ("ok, the deploy still fails
// on ARC runners"), not a restated choice.
var reNews = re(`\b(?:still|already|again|fails?|failed|failing|broke|broken|errors?|crash(?:es|ed|ing)?)\b`)

// reOpenItem marks a list item that leaves its point open: "Shard count: not
// settled", "Labels probably sprint 1 as well, depends …", "Analytics:
// still a fight".
var reOpenItem = re(`\b(?:` + stillOpen + `|not sure|not decided|still a fight|open question|parking it|parked|tbd|tbc|idk|no idea|\?\?\?|probably|maybe|depends|haven't (?:looked|decided)|wants to see|waiting on|no decision|before we (?:commit|order|buy|decide|sign)|but (?:we|i) (?:need|want|have) to|is split|nobody has looked|leaned towards|second quote)\b`)

// rePresentI is a choice in the first person present.
var rePresentI = re(`^i (?:take (?:option [a-z0-9]|this one|that one|the [^ ]+ (?:route|option|one|plan|offer|package|version))|change (?:the |my )?[a-z0-9-]+ to|book (?:the|option))\b`)

// reGerundStart opens a reply's sentence with a change under way and no
// subject: "Keeping all 5 as buffer", "Going with B".
var reGerundStart = re(`^(?:keeping|sticking with|staying with|staying on|dropping|ditching|skipping|switching to|moving to|migrating to)\b`)

// reGerundSubject finds the verb a gerund phrase is the subject of:
// "Keeping both platforms on the same train was non-negotiable".
var reGerundSubject = re(`^[^,;:]{0,60}? (?:was|is|were|are|has been|would be|will be)\b`)

// rePassiveDecision is a decision in the passive, its subject a thing:
// "the old endpoint will be removed in June", "pnpm was chosen".
var rePassiveDecision = re(`(?:^|[,;:] )(?:(?:so|and|also|ok|okay)[,]?\s+)?(?:the |our )?[a-z0-9][a-z0-9 ._/-]{0,40}? (?:will be (?:removed|retired|deprecated|dropped|decommissioned|shut down|sunset|turned off|deleted|replaced)|(?:was|were|has been|have been) (?:chosen|picked|selected|approved|adopted))\b`)

// reDeferVerb opens what a trigger settles with a verb that puts it off:
// "Maria agreed to park TaxDome for now".
var reDeferVerb = re(`^\s*(?:park|postpone|defer|table|shelve|hold off|wait|revisit|punt)\b`)

// reStillOpen says in so many words that the point is not settled.
var reStillOpen = re(`\b(?:` + stillOpen + `)\b`)

// stillOpen are the words that leave a point open in any sentence; a list
// item may hedge in more ways (reOpenItem).
const stillOpen = `still open|not settled|not decided yet|undecided|still (?:arguing|debating|discussing)|(?:choose|decide) between`

// reDeferred is a choice put off to a later meeting or person: "the team
// chooses at the review meeting", "we'll set thresholds at next Tuesday's
// sync".
var reDeferred = re(`\b(?:chooses?|decides?|picks?|set|settle|revisit)\b.{0,40}\b(?:at|in|after) (?:the |our |next |tomorrow'?s |next week'?s )?(?:[a-z]+'?s? )?(?:review|meeting|sync|standup|retro|planning|call|demo)\b`)

// judgement reports a complement that judges rather than names a value:
// "the deadline is going to be tight", "… will be a pain".
func judgement(rest []byte) bool {
	rest = bytes.TrimLeft(rest, " ")
	for _, art := range []string{"a ", "an ", "very ", "really ", "quite ", "pretty ", "super ", "so "} {
		rest = bytes.TrimPrefix(rest, []byte(art))
	}
	w := firstWord(rest)
	return judgementWords.Has(bytes.TrimRight(w, ".,!;:"))
}

var judgementWords = set(`pain problem mess challenge nightmare issue bit lot headache risk stretch
	tight hard tricky easy fine ok okay good great bad interesting fun difficult expensive cheap
	slow fast late early big small huge important critical painful annoying useful enough different
	same worth better worse faster slower cheaper harder easier bigger smaller longer shorter higher
	lower simpler safer riskier`)

// planAnchors open the subject of a plan or a value set ("the plan is",
// "our default will be").
var planAnchors = set(planAnchorList)

// purpose reports a prefix ending in a purpose "so": "…, so I'm not
// ripping on sawhorses" (not "also").
func purpose(prefix []byte) bool {
	return string(prefix) == "so " || bytes.HasSuffix(prefix, []byte(" so "))
}

// yetInClause reports a "yet" in the clause that opens rest: "don't set up
// publishing yet, I need to find out …" paces the work.
func yetInClause(rest []byte) bool {
	if i := bytes.IndexAny(rest, ",;"); i >= 0 {
		rest = rest[:i]
	}
	return bytes.HasSuffix(bytes.TrimRight(rest, " .!"), []byte(" yet"))
}

// goesNamed reports a "let's go" followed by a thing, not a direction or a
// verb: "Let's go Typesense.", not "let's go back" or "let's go see".
func goesNamed(rest []byte) bool {
	i, j := nextWord(rest, 0)
	if i == j {
		return false
	}
	w := rest[i:j]
	return !goWords.Has(w) && !words.IsStopword(string(w)) && !bytes.HasSuffix(w, []byte("ing"))
}

var goWords = set(`back home ahead through over on off out up down away live see check look find get grab try
	fix ask talk write read run build make do have take play eat`)

// reBackPointer takes up the clause before it as what is done: "— yes,
// let's set it up that way", "— that's our scheme from now on", ": that's
// our setup", "— that's what we'll do".
var reBackPointer = re(`^(?:(?:yes|yep|yeah|ok|okay|so|and|sounds good|sounds great|good|great|perfect|agreed|fine)[,.!]*\s+)*(?:(?:let'?s|we'll|we will) (?:do|set|go with|go ahead with|run with|roll with) (?:it|that|this)(?: up)?(?: that way| like that| then)?|that'?s (?:our|the|my) (?:new )?(?:plan|scheme|setup|set-up|approach|policy|route|process|rule|default|arrangement|call|choice|pick|system|way forward)(?: now| from now on| going forward| then| for now| from today| settled)?|that'?s what (?:we'll|we will|we're going to|i'll|we're) (?:do|doing|go with|going with))\s*[.!]*$`)

// describedNouns are what "that's our …" may say of how things are now:
// after the assistant's question ("What does your setup look like?") a
// reply ending "…: that's our setup" describes, unless it says from when.
var describedNouns = set(`setup set-up system process arrangement default rule policy`)

// pointsBack returns where the clause starts and ends that a user's
// sentence sl takes up with reBackPointer after a dash, colon or semicolon
// ("Paging only on SLO burn-rate alerts … — yes, let's set it up that
// way"), or nil, with the reason a leading "since …," gives. The clause
// must say something (three words or more) of its own: not ask or hedge,
// not point elsewhere ("Moving it into CI …"), not name an option by its
// place ("Your second option …", left to the option picks).
func (st *decisionState) pointsBack(sl []byte) (loc []int, why []int) {
	if !containsAny(sl, "let's", "lets", "let’s", "we'll", "we’ll", "we will", "that's", "that’s", "that is") {
		return nil, nil // every reBackPointer has one: most sentences are spared the rest
	}
	for _, sep := range []string{" — ", " – ", " - ", ": ", "; "} {
		i := bytes.LastIndex(sl, []byte(sep))
		if i <= 0 || !reBackPointer.Match(sl[i+len(sep):]) {
			continue
		}
		back := sl[i+len(sep):]
		if st.asked && anyWord(back, describedNouns) && !containsAny(back, " now", "going forward", "today", " new ") {
			return nil, nil // "One primary and two replicas: that's our setup", answering
		}
		from := leadEnd(sl)
		if w := firstWord(sl[from:]); reasonLead.Has(w) {
			// "Since nobody reads Slack at night, paging only on …": the
			// reason first.
			c := bytes.IndexByte(sl[from:i], ',')
			if c < 0 {
				return nil, nil
			}
			why = []int{from + len(w) + 1, from + c}
			from += c + 1
			for from < i && sl[from] == ' ' {
				from++
			}
		}
		clause := sl[from:i]
		if bytes.Count(bytes.TrimSpace(clause), []byte{' '}) < 2 || bytes.ContainsRune(clause, '?') || reTentative.Match(clause) || hedgedRest(clause) ||
			reAnyAnaphor.Match(clause) || reByPlace.Match(clause) {
			return nil, nil
		}
		return []int{from, i}, why
	}
	return nil, nil
}

// reasonLead are the words that open a reason put before what it is for.
var reasonLead = set(`since because as given`)

// reByPlace names an option by its place or label: "your second option",
// "the first one", "option B".
var reByPlace = re(`^(?:your |the )?(?:first|second|third|fourth|last|other|latter|former|option|approach)\b`)

// reSoIts concludes a reply with what it comes to: "So it's the booking
// platform, with 5-minute slots", "So it's online only". Group 1 is the
// thing.
var reSoIts = re(`^(?:so|ok so|okay so|right,? so|which means)[,]?\s+it'?s (?:going to be |gonna be )?((?:the |an? )?[a-z0-9$£€][a-z0-9 ./+#%_-]{1,60}?)\s*(?:[,;—–.!]|$)`)

// soItsState are words after "so it's" that report a state, not a thing:
// "so it's fine", "so it's not ready", "so it's probably the cache".
var soItsState = set(`fine ok okay good bad great not probably likely just too getting been going worth hard easy done
	clear true possible unlikely cheaper faster slower better worse broken down up over still already really quite pretty
	basically either neither both all my your our their his her its this that there here time to`)

// reDoingThing is a thing doing something: "the BI warehouse eating the
// budget".
var reDoingThing = re(`\b[a-z]+ing (?:the|a|an|our|your|its|their|all|up|into|through)\b`)

// reDiagnosis is an answer that names a cause, which "so it's X" then
// repeats: "Most likely the label printer's resolution".
var reDiagnosis = re(`\b(?:most likely|probably|the (?:likely )?(?:cause|culprit)|to blame|the (?:problem|issue) is)\b`)

// soIts returns where the conclusion of a reply's sentence sl of reSoIts'
// form starts, or -1: the thing must be one the assistant spoke of, and be
// a thing, not a state ("so it's fine", "so it's a bit slow").
func (st *decisionState) soIts(sl []byte) int {
	if !st.replying || !bytes.Contains(head(sl), []byte("it")) || isQuestion(sl) {
		return -1
	}
	m := reSoIts.FindSubmatchIndex(head(sl))
	if m == nil {
		return -1
	}
	thing := sl[m[2]:m[3]]
	first := firstWord(thing)
	if soItsState.Has(first) || bytes.HasPrefix(thing, []byte("a ")) && soItsState.Has(firstWord(thing[2:])) ||
		reTentative.Match(sl) || reNews.Match(thing) || containsAny(thing, " that ", " which ", " who ", " causing ", " vs", " versus ", " or ", " between ") ||
		reDoingThing.Match(thing) || !st.saidAny(thing) || reDiagnosis.Match(st.saidLower) {
		// "so it's the cache that keeps timing out", "so it's the BI
		// warehouse eating the budget", "so it's the label printer" after
		// "Most likely the label printer's resolution" say what is wrong.
		return -1
	}
	return m[2]
}

// reSoThing concludes with a bare pick after a report: "he doesn't want
// Redis in the picture just for this — so per-instance breakers, no shared
// state". Group 1 is the pick, with what it leaves out.
var reSoThing = re(`(?:^|[—–;] |\. )so,? ((?:the |an? )?[a-z0-9][a-z0-9 ./+#_-]{1,40}?(?:, (?:no|with|without|plus) [a-z0-9][a-z0-9 ./+#_-]{1,30}?)?)\s*[.!]*$`)

// soThing returns where the pick of a reply's sentence sl of reSoThing's
// form starts and ends, or nil: a thing the assistant spoke of, said
// without a verb ("so it fails", "so we wait" are clauses), not a state
// ("so far", "so much for that").
func (st *decisionState) soThing(sl []byte) []int {
	if !st.replying || !(bytes.HasPrefix(sl, []byte("so")) || containsAny(sl, "— so", "– so", "; so", ". so")) || isQuestion(sl) {
		return nil // reSoThing's "so" opens the sentence or follows a dash, semicolon or stop
	}
	m := reSoThing.FindSubmatchIndex(sl)
	if m == nil {
		return nil
	}
	thing := sl[m[2]:m[3]]
	if !bytes.Contains(thing, []byte(" ")) && adjectiveLike(thing) {
		return nil // "so helpful!", "so cool"
	}
	if isClause(thing) || pronouns.Has(firstWord(thing)) || soItsState.Has(firstWord(thing)) || notPicked.Has(firstWord(thing)) ||
		soNotThing.Has(firstWord(thing)) || containsAny(thing, " vs", " versus ", " or ") || reTentative.Match(sl) || !st.saidAny(thing) {
		return nil
	}
	return m[2:4]
}

// adjectiveLike reports a word that "so" intensifies rather than picks:
// "so helpful", "so cool", "so tired".
func adjectiveLike(w []byte) bool {
	for _, suf := range []string{"ful", "ous", "ive", "ible", "able", "ic", "ed", "ing", "less", "y"} {
		if bytes.HasSuffix(w, []byte(suf)) {
			return true
		}
	}
	return soAdjectives.Has(w)
}

// soAdjectives are everyday words "so" intensifies.
var soAdjectives = set(`cool nice kind good bad sad glad sweet smart clear cheap quick fast slow hard easy weird odd rare
	true fair great bright brave calm close dull fine grim keen neat quiet rich safe simple small big long short`)

// soNotThing are words of a "so …" that is no pick: "so far", "so much",
// "so what", "so be it".
var soNotThing = set(`far much many long what be yes no sorry thanks true`)
