package parsers

import (
	"errors"

	"strconv"
	"strings"
)

// ErrTextCut means a text was longer than a parser reads and its end was
// left out (the text holds a CutNote where it was cut).
var ErrTextCut = errors.New("text cut")

// cutMarker begins every CutNote; cutWarnings finds cut texts by it.
const cutMarker = " [… convsearch left out the rest of this text: "

// CutNote is the marker put in a text where a parser cut it, saying how
// many bytes (of the file) were left out, so that whoever reads the text
// (show, an agent) knows it goes on in the file. It holds no character
// JSON would escape, so it may be put inside a JSON string as it is.
func CutNote(left int64) string {
	return cutMarker + strconv.FormatInt(left, 10) + " more bytes in the file]"
}

// cutWarnings warns of every text of res's conversations that holds a
// CutNote, naming path and the message: a cut must not pass for the whole
// text.
func cutWarnings(res *Result, path string) {
	for _, c := range res.Conversations {
		for _, m := range c.Messages {
			texts := []string{m.Content, m.Thinking}
			for _, tc := range m.ToolCalls {
				texts = append(texts, tc.Arguments)
			}
			for _, tr := range m.ToolResults {
				texts = append(texts, tr.Content)
			}
			for _, s := range texts {
				if left, ok := cutLeft(s); ok {
					res.Warn(Errorf(path, 0, ErrTextCut, "conversation %s, message %d: a text over the most a parser reads was cut, %d bytes left out", c.ID, m.Index, left))
				}
			}
		}
	}
}

// cutLeft returns the bytes left out that the first CutNote in s says.
func cutLeft(s string) (int64, bool) {
	_, rest, ok := strings.Cut(s, cutMarker)
	if !ok {
		return 0, false
	}
	digits, _, _ := strings.Cut(rest, " ")
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}
