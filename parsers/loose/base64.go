package loose

import (
	"encoding/json"
	"fmt"
	"strings"
)

// minBase64Run is the shortest run of base64 characters taken for an
// encoded payload: far longer than any word, hash or identifier.
const minBase64Run = 400

// StripBase64Runs replaces each run of at least minBase64Run base64
// characters that mixes upper case, lower case and digits (as encoded bytes
// do, and rules of dashes or hex dumps do not) with a marker giving its
// decoded size, "[base64 data, N bytes]": a command or tool that printed an
// encoded file leaves no payload in the index. Data URLs are StripDataURLs'
// work.
func StripBase64Runs(s string) string {
	if len(s) < minBase64Run {
		return s
	}
	var out strings.Builder
	last, start := 0, -1
	var classes byte
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			if k := base64Class(s[i]); k != 0 {
				if start < 0 {
					start, classes = i, 0
				}
				classes |= k
				continue
			}
		}
		if start >= 0 && i-start >= minBase64Run && classes&7 == 7 {
			end := i
			for end < len(s) && s[end] == '=' { // padding
				end++
			}
			out.WriteString(s[last:start])
			fmt.Fprintf(&out, "[base64 data, %d bytes]", (end-start)*3/4)
			last = end
			i = end
		}
		start = -1
	}
	if last == 0 {
		return s
	}
	out.WriteString(s[last:])
	return out.String()
}

// base64Class returns 1 for an upper-case letter, 2 for lower case, 4 for a
// digit, 8 for + or /, and 0 for a byte outside the base64 alphabet.
func base64Class(c byte) byte {
	switch {
	case c >= 'A' && c <= 'Z':
		return 1
	case c >= 'a' && c <= 'z':
		return 2
	case c >= '0' && c <= '9':
		return 4
	case c == '+' || c == '/':
		return 8
	}
	return 0
}

// Clean is text safe to index: data: URLs and long base64 runs replaced by
// markers naming their type and size. Every family passes the text it
// indexes through it, so no binary payload reaches the index.
func Clean(s string) string { return StripBase64Runs(StripDataURLs(s)) }

// Base64Size is how many bytes the base64 text data decodes to.
func Base64Size(data string) int64 {
	return int64(len(data))*3/4 - int64(len(data)-len(strings.TrimRight(data, "=")))
}

// Arguments returns a tool call's input as text to index: JSON, or JSON
// text inside a JSON string (as some tools write it) unwrapped, cleaned.
func Arguments(raw json.RawMessage) string {
	if Lead(raw) == '"' {
		return Clean(JSONText(String(raw)))
	}
	return Clean(String(raw))
}
