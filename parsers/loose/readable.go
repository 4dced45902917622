package loose

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"unicode/utf8"
)

// maxNested is how many levels of JSON-inside-a-JSON-string ReadableJSON
// unwraps.
const maxNested = 3

// ReadableJSON renders s, when it is JSON text for an object or array (or
// several, separated by white space, as tools concatenate results), as plain
// text for reading and search: each string with its escapes undone (real
// newlines, so a phrase in the output is found), "key: value" one per line,
// list items one per line, nested levels indented, nulls and empty strings
// left out, and a string that is itself JSON rendered the same way. Text
// that opens like JSON but is cut short (a tool truncated it) has its string
// escapes undone all the same. ok is false, and s is returned unchanged,
// when s does not open like a JSON object or array.
func ReadableJSON(s string) (string, bool) {
	return readable(s, 0)
}

func readable(s string, depth int) (string, bool) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return s, false
	}
	w := jsonWriter{depth: depth}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	for {
		err := w.value(dec, "", "")
		if errors.Is(err, io.EOF) && w.any {
			if len(w.lines) == 0 {
				return t, true // {} or []: nothing to unescape
			}
			return strings.Join(w.lines, "\n"), true
		}
		if err != nil {
			// Not whole JSON: a cut-short output. Undo its escapes so its
			// words and lines can still be found.
			return unescapeJSON(t), true
		}
		w.any = true
	}
}

type jsonWriter struct {
	lines []string
	depth int
	any   bool // a value was read
}

// value writes the next value of dec, prefixed by label ("key: ", "" for
// list items and top-level values), with nested lines indented by indent.
func (w *jsonWriter) value(dec *json.Decoder, label, indent string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch v := tok.(type) {
	case json.Delim:
		if label != "" {
			w.lines = append(w.lines, indent+strings.TrimSuffix(label, " "))
			indent += "  "
		}
		obj := v == '{'
		for dec.More() {
			item := ""
			if obj {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := k.(string)
				item = key + ": "
			}
			if err := w.value(dec, item, indent); err != nil {
				return err
			}
		}
		_, err := dec.Token() // the closing delimiter
		return err
	case string:
		if v == "" {
			return nil
		}
		if w.depth < maxNested {
			if r, ok := readable(v, w.depth+1); ok {
				v = r
			}
		}
		w.lines = append(w.lines, indent+label+v)
	case json.Number:
		w.lines = append(w.lines, indent+label+v.String())
	case bool:
		if v {
			w.lines = append(w.lines, indent+label+"true")
		} else {
			w.lines = append(w.lines, indent+label+"false")
		}
	case nil:
	}
	return nil
}

// unescapeJSON undoes the string escapes of JSON text that could not be
// decoded: \n, \t, \", \\, \/, \uXXXX and the rest. A bad escape is kept
// as written.
func unescapeJSON(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b', 'f':
			b.WriteByte(' ')
		case '"', '\\', '/':
			b.WriteByte(s[i])
		case 'u':
			if r, ok := hex4(s[i+1:]); ok {
				i += 4
				// A surrogate pair is two escapes for one rune.
				if r >= 0xD800 && r < 0xDC00 && strings.HasPrefix(s[i+1:], `\u`) {
					if lo, ok := hex4(s[i+3:]); ok && lo >= 0xDC00 && lo < 0xE000 {
						r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
						i += 6
					}
				}
				if !utf8.ValidRune(r) {
					r = utf8.RuneError
				}
				b.WriteRune(r)
				continue
			}
			b.WriteString(`\u`)
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// hex4 reads the four hex digits that open s.
func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
