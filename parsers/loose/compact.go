package loose

import (
	"bytes"
	"encoding/json"
	"io"
)

// CompactJSON returns raw, one JSON value, as compact JSON text to show and
// index: the escapes writers put in for no reason undone (Python's json.dump
// writes "naïveté" as "na\u00efvet\u00e9", Go's json.Marshal writes "<" as
// "\u003c"), so the words are found as typed and counted as read. Keys keep
// their order and numbers their text; only what JSON requires stays
// escaped (quotes, backslashes, control characters, U+2028 and U+2029).
// ok is false when raw is not one JSON value.
func CompactJSON(raw []byte) (string, bool) {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return "", false
	}
	if bytes.IndexByte(b.Bytes(), '\\') < 0 {
		return b.String(), true // nothing escaped: most JSON
	}
	out, err := reencode(b.Bytes())
	if err != nil {
		return b.String(), true // cannot happen for valid JSON; keep it as written
	}
	return out, true
}

// reencode writes valid JSON token by token: a map would sort the keys.
func reencode(valid []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(valid))
	dec.UseNumber()
	var out bytes.Buffer
	out.Grow(len(valid))
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	// For each open object or array, how many keys and values it has had:
	// in an object an odd count means a key was just written.
	var (
		counts  []int
		objects []bool
	)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out.String(), nil
		}
		if err != nil {
			return "", err
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			out.WriteByte(byte(d))
			counts, objects = counts[:len(counts)-1], objects[:len(objects)-1]
			continue
		}
		if n := len(counts); n > 0 {
			switch {
			case objects[n-1] && counts[n-1]%2 == 1:
				out.WriteByte(':')
			case counts[n-1] > 0:
				out.WriteByte(',')
			}
			counts[n-1]++
		}
		switch v := tok.(type) {
		case json.Delim:
			out.WriteByte(byte(v))
			counts, objects = append(counts, 0), append(objects, v == '{')
		case string:
			if err := enc.Encode(v); err != nil {
				return "", err
			}
			out.Truncate(out.Len() - 1) // Encode's newline
		case json.Number:
			out.WriteString(v.String())
		case bool:
			if v {
				out.WriteString("true")
			} else {
				out.WriteString("false")
			}
		case nil:
			out.WriteString("null")
		}
	}
}
