package loose

import (
	"encoding/json"
	"strings"
)

// FirstText returns the first of s that holds more than white space ("":
// none does), as a title taken from a name, else a description.
func FirstText(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// Lead is the first byte of raw past JSON white space ('{', '[', '"', …),
// or 0 when there is none: what kind of value raw holds, without decoding.
func Lead(raw json.RawMessage) byte {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}
