package extract

import (
	"strings"

	"github.com/convsearch/convsearch/conversation"
)

// A topic that is an acronym the conversation spells out ("Employer of
// Record (EOR)", "LGL (Little Green Light)") is named by both: "employer of
// record (eor)". The short form alone reads as noise ("eor", "rls", "cdc"),
// and the long form is never a candidate of its own when it holds a
// stopword, as stopwords break phrases.

// maxAcronym is the longest acronym spelled out, in letters.
const maxAcronym = 6

// minorWords may stand in a long form without giving it a letter ("Employer
// of Record").
var minorWords = set(`of and the for to a an in on at by with &`)

// acronymLongForm returns the long form the conversation's texts give for
// word, lower case, or "" when they give none. word is a topic's single
// word: only letters, 2 to maxAcronym of them, written in capitals where it
// is spelled out.
func acronymLongForm(c *conversation.Conversation, word string) string {
	if len(word) < 2 || len(word) > maxAcronym {
		return ""
	}
	for i := 0; i < len(word); i++ {
		if b := word[i] | 0x20; b < 'a' || b > 'z' {
			return ""
		}
	}
	acr := strings.ToUpper(word)
	for _, text := range topicTexts(c) {
		if long := spelledOut(text, acr); long != "" {
			return long
		}
	}
	return ""
}

// spelledOut finds acr (in capitals) spelled out in text, either way round:
// "long form (ACR)" or "ACR (long form)".
func spelledOut(text, acr string) string {
	for from, seen := 0, 0; seen < 8; seen++ {
		i := strings.Index(text[from:], acr)
		if i < 0 {
			return ""
		}
		i += from
		from = i + len(acr)
		end := i + len(acr)
		if end < len(text) && wordByte(text[end]|0x20) || i > 0 && wordByte(text[i-1]|0x20) {
			continue // inside a longer word: "TEORY"
		}
		if i > 0 && text[i-1] == '(' && end < len(text) && text[end] == ')' {
			if long := longFormBefore(text[:i-1], acr); long != "" {
				return long
			}
		}
		if rest := strings.TrimLeft(text[end:], "*_"); strings.HasPrefix(rest, " (") {
			if j := strings.IndexByte(rest, ')'); j > 2 && j < 80 {
				if long := matchInitials(strings.Fields(rest[2:j]), acr); long != "" {
					return long
				}
			}
		}
	}
	return ""
}

// longFormBefore returns the words ending before "(ACR)" that spell acr out,
// if any: the fewest last words of the clause whose initials are acr.
func longFormBefore(before, acr string) string {
	before = strings.TrimRight(before, " *_")
	if j := strings.LastIndexAny(before, ".,;:!?()[]|\n\"`"); j >= 0 {
		before = before[j+1:]
	}
	fields := strings.Fields(strings.NewReplacer("**", "", "__", "").Replace(before))
	for n := 1; n <= len(fields) && n <= len(acr)+3; n++ {
		if long := matchInitials(fields[len(fields)-n:], acr); long != "" {
			return long
		}
	}
	return ""
}

// matchInitials returns ws joined in lower case when their initials are
// acr: every word gives its first letter, a hyphenated word one letter or
// one a part ("row-level security", RLS), and a minor word one or none
// ("Employer of Record", EOR). The first word must give the first letter.
func matchInitials(ws []string, acr string) string {
	if len(ws) < 2 && !strings.Contains(strings.Join(ws, ""), "-") {
		return ""
	}
	lower := make([]string, len(ws))
	for i, w := range ws {
		w = strings.ToLower(strings.Trim(w, "*_\"'"))
		if w == "" || !wordByte(w[0]) {
			return ""
		}
		lower[i] = w
	}
	if minorWords.HasString(lower[0]) || !initials(lower, strings.ToLower(acr)) {
		return ""
	}
	return strings.Join(lower, " ")
}

// initials reports whether the words' initials can spell acr, with the
// choices matchInitials allows.
func initials(ws []string, acr string) bool {
	if len(ws) == 0 {
		return acr == ""
	}
	w, rest := ws[0], ws[1:]
	if minorWords.HasString(w) && len(rest) > 0 && initials(rest, acr) {
		return true
	}
	if acr == "" || w[0] != acr[0] {
		return false
	}
	if initials(rest, acr[1:]) {
		return true
	}
	// Each part of a hyphenated word gives a letter.
	parts := strings.Split(w, "-")
	if len(parts) < 2 || len(parts) > len(acr) {
		return false
	}
	for k, p := range parts {
		if p == "" || p[0] != acr[k] {
			return false
		}
	}
	return initials(rest, acr[len(parts):])
}
