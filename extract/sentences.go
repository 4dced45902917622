package extract

import (
	"bytes"
	"strings"

	"github.com/convsearch/convsearch/extract/internal/words"
)

// sentence is a span of a message's text, with what is known of its place.
type sentence struct {
	start, end int // byte offsets into the message's content
	// para is the number of the paragraph (block of lines without a blank
	// line) the sentence is in.
	para int
	// lineStart is set when the sentence starts its line; afterLabel when the
	// line follows a line that is only a "Decision:" label or heading.
	lineStart  bool
	afterLabel bool
	// heading is set for a markdown heading's sentences ("### 4. Banners"):
	// a title, never wrapped onto the line below it.
	heading bool
	// afterPlan is set when the line follows a line that only announces a
	// plan ("Final plan:", "Let's do this:"), or is an item of the list
	// after one: from the user these are decisions, from the assistant a
	// proposal.
	afterPlan bool
	// afterProposal is afterPlan for a line that announces a proposal
	// ("Proposed backup policy:", "My recommendation:"): what a yes to it
	// takes, and from the user no decision yet.
	afterProposal bool
	// num is the number of the numbered list item ("2. ristretto – …") the
	// sentence opens, 0 for none.
	num int
}

// splitSentences appends the sentences of text to out. lower is text with
// ASCII letters lowered (same offsets). Fenced and indented code, quoted lines
// ("> …") and table rows are left out: nothing in them is a decision stated in
// the conversation.
func splitSentences(text string, lower []byte, out []sentence) []sentence {
	fence := ""
	para := 0
	label := false // the previous non-empty line was a bare decision label
	inLabelList := false
	plan, inPlanList := false, false // the same for a plan announcement
	proposed := false                // the plan announced is a proposal
	for pos := 0; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		lineStart, line := pos, text[pos:end]
		pos = end + 1
		trimmed := strings.TrimLeft(line, " \t")
		off := lineStart + len(line) - len(trimmed)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		switch {
		case strings.HasPrefix(trimmed, "```"):
			fence = "```"
			continue
		case strings.HasPrefix(trimmed, "~~~"):
			fence = "~~~"
			continue
		case strings.TrimSpace(trimmed) == "":
			para++
			if !label {
				inLabelList = false
			}
			if !plan {
				inPlanList = false
			}
			continue
		case words.IsCodeLine(line), trimmed[0] == '>', trimmed[0] == '|':
			label, inLabelList = false, false
			plan, inPlanList = false, false
			continue
		}
		// Strip list markers and headings.
		body, isItem, num := stripMarker(trimmed)
		heading := trimmed[0] == '#'
		off += len(trimmed) - len(body)
		bodyLower := lower[off : off+len(body)]
		after := label || inLabelList && isItem
		afterPlan, proposedList := plan || inPlanList && isItem, proposed
		if num == 0 && isLabelLine(bodyLower) { // "4. agreed" answers point 4
			label, inLabelList = true, true
			continue
		}
		if isPlanLine(bodyLower) {
			plan, inPlanList, proposed = true, true, false
			continue
		}
		if isProposalLine(bodyLower) {
			plan, inPlanList, proposed = true, true, true
			continue
		}
		if label && !isItem {
			inLabelList = false
		}
		if plan && !isItem {
			inPlanList = false
		}
		label, plan = false, false
		// "Went through this with Marco this morning. Where we landed:": the
		// line's last sentence announces the list below.
		stop := off + len(body)
		if t := bytes.TrimRight(bodyLower, " \t*_"); len(t) > 0 && t[len(t)-1] == ':' {
			i := lastSentenceStart(lower, off, stop)
			starts := []int{i}
			if c := bytes.LastIndex(lower[i:stop], []byte(", ")); c > 0 {
				starts = append(starts, i+c+2) // "Talked it through with Dan, here's where we landed:"
			}
			for _, i := range starts {
				if i == off || i >= stop {
					continue
				}
				if tail := lower[i:stop]; isLabelLine(tail) {
					label, inLabelList, stop = true, true, i
					break
				} else if isPlanLine(tail) {
					plan, inPlanList, proposed, stop = true, true, false, i
					break
				} else if isProposalLine(tail) {
					plan, inPlanList, proposed, stop = true, true, true, i
					break
				}
			}
		}
		first := true
		for s := off; s < stop; {
			e := sentenceEnd(lower, s, stop)
			if st, en := trimSpan(text, s, e); en > st {
				sn := sentence{start: st, end: en, para: para, lineStart: first, afterLabel: after && first, heading: heading,
					afterPlan: afterPlan && first && !proposedList, afterProposal: afterPlan && first && proposedList}
				if first {
					sn.num = num
				}
				out = append(out, sn)
			}
			first = false
			s = e
		}
	}
	return out
}

// lastSentenceStart returns where the last sentence of lower[off:end]
// starts, or off when it has one sentence.
func lastSentenceStart(lower []byte, off, end int) int {
	last := off
	for s := off; s < end; {
		e := sentenceEnd(lower, s, end)
		if e < end {
			last = e
		}
		s = e
	}
	for last < end && lower[last] == ' ' {
		last++
	}
	return last
}

// stripMarker removes a list bullet, number or heading marks from the start of
// a line and says whether it was a list item, and its number if numbered
// ("2. …", "2) …"; 0 otherwise).
func stripMarker(s string) (body string, item bool, num int) {
	switch {
	case strings.HasPrefix(s, "- "), strings.HasPrefix(s, "* "), strings.HasPrefix(s, "+ "), strings.HasPrefix(s, "• "):
		_, rest, _ := strings.Cut(s, " ")
		return strings.TrimLeft(rest, " \t"), true, 0
	case strings.HasPrefix(s, "#"):
		// "## 4. Let admins enforce SSO": a numbered section, which a reply
		// going through the points answers by its number.
		body := strings.TrimLeft(s, "# \t")
		if rest, _, num := stripMarker(body); num > 0 {
			return rest, false, num
		}
		return body, false, 0
	}
	if strings.HasPrefix(s, "**") && len(s) > 5 && s[2] >= '1' && s[2] <= '9' {
		// "**1. Fixed wait in checkout**": the number inside the bold.
		if body, item, num := stripMarker(s[2:]); num > 0 {
			return body, item, num
		}
	}
	i := 0
	for i < len(s) && i < 3 && s[i] >= '0' && s[i] <= '9' {
		num = num*10 + int(s[i]-'0')
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
		return strings.TrimLeft(s[i+2:], " \t"), true, num
	}
	return s, false, 0
}

// isLabelLine reports a line that only announces decisions below it:
// "Decision:", "**Decisions**", "## Final decision".
func isLabelLine(l []byte) bool {
	if len(l) > 48 {
		// "OK, decided after going through it with Maria this morning:"
		return len(l) <= 100 && bytes.HasSuffix(bytes.TrimRight(l, " \t*_"), []byte(":")) && reDecidedLine.Match(l)
	}
	l = bytes.Trim(l, " \t*_:#-–—")
	if bytes.Contains(l, []byte("’")) {
		l = bytes.ReplaceAll(l, []byte("’"), []byte("'"))
	}
	switch string(l) {
	case "decision", "decisions", "final decision", "final decisions", "decisions made", "decided", "agreed", "resolution", "outcome",
		"decisions so far", "key decisions", "the decisions", "our decisions", "decision log", "decisions log", "summary of decisions",
		"what we decided", "what we agreed", "what we agreed on", "summary of what we agreed", "summary of what we decided",
		"we agreed", "we agreed on the following", "we agreed on", "we decided", "we've decided", "we have decided",
		"we decided on the following", "we settled on", "here's where we landed", "here is where we landed", "where we landed",
		"agreed decisions", "agreed so far", "decided so far":
		return true
	}
	return false
}

// reDecidedLine announces the decisions below it with when or with whom
// they were taken: "Decided after going through it with Maria this
// morning:", "we agreed at standup:".
var reDecidedLine = re(`^[*_#\s]*(?:(?:ok|okay|so|right|alright)[,.!]*\s+)?(?:we(?:'ve| have)? )?(?:finally )?(?:decided|agreed|settled)(?: (?:after|with|at|in|during|on|over|this|today|yesterday|last)\b[^.;:!?]{0,70})?[*_\s]*:[*_\s]*$`)

// announcement returns a short line (an announcement's length, not a "!"
// cheer) folded for comparison: trimmed of marks, its interjection ("OK,")
// cut, curly apostrophes straightened. ok is false for other lines.
func announcement(l []byte) ([]byte, bool) {
	if len(l) > 48 { // the longest announcement, with an interjection and marks
		return nil, false
	}
	if t := bytes.TrimRight(l, " \t*_"); len(t) > 0 && t[len(t)-1] == '!' {
		return nil, false // "Let's do this!" cheers; a plan is announced with ":" or "."
	}
	l = bytes.Trim(l, " \t*_:#-–—.!")
	if i := bytes.IndexAny(l, ",!"); i >= 0 && i < 12 {
		// An interjection first: "OK, here's the plan".
		if lead := bytes.TrimSpace(l[:i]); planLeads.Has(lead) {
			l = bytes.TrimLeft(l[i+1:], " ")
		}
	} else if first, rest, ok := bytes.Cut(l, []byte(" ")); ok && planLeads.Has(first) {
		l = rest
	}
	if bytes.Contains(l, []byte("’")) {
		l = bytes.ReplaceAll(l, []byte("’"), []byte("'"))
	}
	return l, true
}

// isPlanLine reports a line (or sentence) that only announces the plan that
// follows it.
func isPlanLine(l []byte) bool {
	l0 := l
	l, ok := announcement(l)
	if !ok {
		return false
	}
	switch string(l) {
	case "plan", "the plan", "final plan", "our plan", "new plan", "the final plan", "revised plan", "updated plan",
		"here's the plan", "here is the plan", "this is the plan", "the plan is", "plan of record",
		"let's do this", "let's do the following", "let's go with this", "we'll do this", "we'll do the following",
		"here's what we'll do", "here is what we'll do", "this is what we'll do", "here's what we're doing",
		"here's what we're going to do", "here's what i'm going to do", "here's what i'll do":
		return true
	}
	if string(bytes.TrimSpace(l0)) == "ok:" || string(bytes.TrimSpace(l0)) == "okay:" {
		return true // "ok:" and a list of what is settled
	}
	// "talked w/ Dana + Ravi this morning.": a meeting reported, its outcome
	// listed below.
	return reMeetingLine.Match(l)
}

// isProposalLine reports a line that only announces a proposal: "Proposed
// backup policy:", "Recommended setup:", "My recommendation:".
func isProposalLine(l []byte) bool {
	l, ok := announcement(l)
	// "Suggested options:" lists things to choose among, "Recommended
	// against:" things not to do: a yes takes neither list whole.
	return ok && containsAny(l, "propos", "recommend", "suggest") && reProposalLine.Match(l) &&
		!containsAny(l, "option", "alternative", "choice", "against", "instead")
}

var reProposalLine = re(`^(?:(?:my|the|our|a) )?(?:(?:proposed|recommended|suggested) [a-z0-9 /()-]{1,48}|recommendations?|proposal|suggestions?)$`)

var reMeetingLine = re(`^(?:update: )?(?:we |i )?(?:(?:talked|spoke|met|chatted|discussed it|went through (?:it|this)|had a (?:call|chat|meeting|sync))(?: it through)? (?:to|with|w/) [^.;:!?]{1,40}?|(?:talked|went) (?:it|this) (?:over|through) (?:on|at|in) [^.;:!?]{1,30}?)(?: (?:this morning|today|tonight|yesterday|last night|earlier|on (?:monday|tuesday|wednesday|thursday|friday)))?$`)

var planLeads = words.NewSetOf(strings.Fields(`ok okay so alright right then great good perfect fine`))

// abbreviations whose dot does not end a sentence.
// "No." abbreviates only before a number (isAbbrev).
var abbreviations = []string{"e.g", "i.e", "etc", "vs", "approx", "incl", "esp", "cf", "mr", "ms", "dr", "fig", "eq"}

// sentenceEnd returns the offset just past the sentence starting at s: after
// '.', '!' or '?' followed by a space or the end, not after an abbreviation or
// inside a number.
func sentenceEnd(lower []byte, s, limit int) int {
	for i := s; i < limit; i++ {
		c := lower[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < limit && (lower[j] == '.' || lower[j] == '!' || lower[j] == '?' || lower[j] == ')' || lower[j] == '"' || lower[j] == '*') {
			j++
		}
		if j < limit && lower[j] != ' ' && lower[j] != '\t' {
			continue
		}
		if c == '.' && isAbbrev(lower[s:i], lower[j:limit]) {
			continue
		}
		return j
	}
	return limit
}

// optionNamers are words after which a lone letter is an option's label.
var optionNamers = set(`with option plan pick choose take then approach variant`)

// isAbbrev reports whether the dot between before and after ends an
// abbreviation or an initial rather than a sentence.
func isAbbrev(before, after []byte) bool {
	k := len(before)
	for k > 0 && (before[k-1] >= 'a' && before[k-1] <= 'z' || before[k-1] == '.') {
		k--
	}
	w := string(before[k:])
	if len(w) == 1 && k > 0 && before[k-1] >= '0' && before[k-1] <= '9' {
		return false // "$1.5M.", "10k.": a unit after a number, no initial
	}
	if len(w) == 1 {
		// An initial ("J. Smith"), unless the letter names an option:
		// "ok go with C. For step 2, …".
		prev := bytes.TrimRight(before[:k], " ")
		if len(prev) == 0 && w[0] <= 'h' {
			return false // "A. transactional enqueue is the win": a reply's pick
		}
		i := bytes.LastIndexByte(prev, ' ')
		return !optionNamers.Has(prev[i+1:])
	}
	if w == "no" {
		// "No. 5" abbreviates; "pyupgrade: no. it touches every file" ends.
		n := bytes.TrimLeft(after, " ")
		return len(n) > 0 && n[0] >= '0' && n[0] <= '9'
	}
	for _, a := range abbreviations {
		if w == a {
			return true
		}
	}
	return false
}

func trimSpan(text string, s, e int) (int, int) {
	for s < e && (text[s] == ' ' || text[s] == '\t' || text[s] == '\r') {
		s++
	}
	for e > s && (text[e-1] == ' ' || text[e-1] == '\t' || text[e-1] == '\r') {
		e--
	}
	return s, e
}
