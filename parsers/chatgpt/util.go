package chatgpt

import (
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"
)

// ignoreType drops type errors: json fills in what it can around them, and
// a misshapen side field is no reason to lose a message.
func ignoreType(err error) error {
	if _, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		return nil
	}
	return err
}

// titleFrom makes a title of a message: its text on one line, cut near 80
// characters at a word boundary.
func titleFrom(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	const limit = 80
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	cut, n := 0, 0
	for i := range s {
		if n == limit {
			cut = i
			break
		}
		n++
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > limit/2 {
		cut = sp
	}
	return strings.TrimSpace(s[:cut]) + "…"
}
