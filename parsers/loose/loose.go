// Package loose reads JSON values the way real writers produce them, not the
// way specs describe them: numbers given as strings and strings as numbers,
// `{}` or `[]` where a null was meant, epoch seconds or milliseconds or ISO
// text for times, JSON encoded inside strings. Every format family uses it so
// that each quirk is handled once.
package loose

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/convsearch/convsearch/parsers"
)

// MaxFileSize is the most a parser reads into memory for formats that cannot
// be streamed (one JSON document). Larger files are refused with
// parsers.ErrTooLarge rather than risk the machine.
const MaxFileSize = 1 << 30

// bom is the UTF-8 byte-order mark some editors and tools write first.
var bom = []byte("\xef\xbb\xbf")

// ReadAll reads r whole, up to MaxFileSize, without a byte-order mark at
// its start: a document read whole is read as JSON (or as text), which has
// no place for one, and an editor that saved the file may have added it.
func ReadAll(path string, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, parsers.ReadError(path, err)
	}
	if len(data) > MaxFileSize {
		return nil, parsers.Errorf(path, 0, parsers.ErrTooLarge, "over %d bytes", MaxFileSize)
	}
	return bytes.TrimPrefix(data, bom), nil
}

// Unmarshal decodes data into v. A syntax or type error comes back as a
// *parsers.Error naming path and the line, wrapping parsers.ErrSyntax or
// parsers.ErrShape. An empty file is a syntax error too. A byte-order mark
// at the start of data is skipped, as ReadAll skips it.
func Unmarshal(path string, data []byte, v any) error {
	data = bytes.TrimPrefix(data, bom)
	if len(bytes.TrimSpace(data)) == 0 {
		return parsers.Errorf(path, 0, parsers.ErrSyntax, "empty file")
	}
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return &parsers.Error{Path: path, Line: LineAt(data, se.Offset), Err: fmt.Errorf("%w: %v", parsers.ErrSyntax, err)}
	case errors.As(err, &te):
		return &parsers.Error{Path: path, Line: LineAt(data, te.Offset), Err: fmt.Errorf("%w: %v", parsers.ErrShape, err)}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &parsers.Error{Path: path, Line: LineAt(data, int64(len(data))), Err: fmt.Errorf("%w: unexpected end of JSON input", parsers.ErrSyntax)}
	}
	return &parsers.Error{Path: path, Err: fmt.Errorf("%w: %v", parsers.ErrSyntax, err)}
}

// LineAt returns the 1-based line of byte offset off in data.
func LineAt(data []byte, off int64) int {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}

// IsNull reports whether raw is absent, null, or an empty object, array or
// string: the shapes writers use for "nothing".
func IsNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	switch string(t) {
	case "", "null", "{}", "[]", `""`:
		return true
	}
	return false
}

// String returns raw as text: a string as itself, a number or boolean as its
// JSON text, nothing-shapes (see IsNull) as "", and any other object or array
// as its compact JSON text (CompactJSON: escapes undone), so nothing is lost.
func String(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if IsNull(t) {
		return ""
	}
	switch t[0] {
	case '"':
		var s string
		if json.Unmarshal(t, &s) == nil {
			return s
		}
		return string(t)
	case '{', '[':
		if s, ok := CompactJSON(t); ok {
			return s
		}
	}
	return string(t)
}

// Int returns raw as an integer: a number, or a string holding one. ok is
// false for anything else.
func Int(raw json.RawMessage) (n int64, ok bool) {
	f, ok := Float(raw)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<62 {
		return 0, false
	}
	return int64(f), true
}

// Float returns raw as a number: a number, or a string holding one.
func Float(raw json.RawMessage) (float64, bool) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return 0, false
	}
	if t[0] == '"' {
		var s string
		if json.Unmarshal(t, &s) != nil {
			return 0, false
		}
		t = []byte(strings.TrimSpace(s))
	}
	f, err := strconv.ParseFloat(string(t), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// Bool returns raw as a boolean: true, "true", "TRUE", 1 or "1" are true.
func Bool(raw json.RawMessage) bool {
	switch strings.ToLower(strings.Trim(string(bytes.TrimSpace(raw)), `"`)) {
	case "true", "1", "yes":
		return true
	}
	return false
}

// Time returns raw as a time: ISO 8601 or similar text (see ParseTime), or a
// number of epoch seconds (milliseconds when it is too large to be seconds),
// integer or fractional. Nothing-shapes and anything unreadable give the zero
// time.
func Time(raw json.RawMessage) time.Time {
	t := bytes.TrimSpace(raw)
	if IsNull(t) {
		return time.Time{}
	}
	if t[0] == '"' {
		var s string
		if json.Unmarshal(t, &s) != nil {
			return time.Time{}
		}
		tm, _ := ParseTime(s)
		return tm
	}
	if f, ok := Float(t); ok {
		return Epoch(f)
	}
	return time.Time{}
}

// Epoch turns epoch seconds, milliseconds or microseconds (told apart by
// size) into a UTC time.
func Epoch(f float64) time.Time {
	switch {
	case f <= 0:
		return time.Time{}
	case f > 1e15: // microseconds
		f /= 1e6
	case f > 1e11: // milliseconds: 1e11 s is the year 5138
		f /= 1e3
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(math.Round(frac*1e6))*1e3).UTC()
}

// timeLayouts are tried in order. Times with no zone are read as UTC so a
// conversation gets the same date and id on every machine.
var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02 15:04:05.999999999 -0700 MST",
	"2006-01-02T15:04",
	"2006-01-02 15:04",
	"2006-01-02",
	time.RFC1123Z,
	time.RFC1123,
	time.UnixDate,
	"Mon Jan 2 2006 15:04:05 GMT-0700",
	"20060102150405",
	"2006/01/02 15:04:05",
	// Written for people, as transcripts and datasets keep them ("1:56 pm on
	// 8 May, 2023").
	"3:04 pm on 2 January, 2006",
	"3:04 PM on 2 January, 2006",
	"3:04 pm on 2 Jan, 2006",
	"3:04 PM on 2 Jan, 2006",
	"January 2, 2006 3:04 PM",
	"January 2, 2006",
	"Jan 2, 2006",
	"2 January 2006",
	"2 Jan 2006",
}

// ParseTime reads a time written as text in any of the common layouts,
// including epoch seconds or milliseconds as digits. Times without a zone are
// taken as UTC.
func ParseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false
	}
	// JavaScript's Date.toString() adds " (Zone Name)".
	if i := strings.Index(s, " ("); i > 0 && strings.HasSuffix(s, ")") {
		s = s[:i]
	}
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f > 0 && len(s) >= 9 {
		return Epoch(f), true
	}
	return time.Time{}, false
}

// JSONText returns s reformatted as compact JSON (CompactJSON) when s is
// JSON text encoded inside a string (tool arguments and outputs often are),
// and s unchanged otherwise. A JSON string inside the string is unwrapped to
// its text.
func JSONText(s string) string {
	t := strings.TrimSpace(s)
	if t == "" {
		return s
	}
	switch t[0] {
	case '{', '[':
		if c, ok := CompactJSON([]byte(t)); ok {
			return c
		}
	case '"':
		var inner string
		if json.Unmarshal([]byte(t), &inner) == nil {
			return inner
		}
	}
	return s
}

// DataURL describes a data: URL without decoding it: its media type and the
// approximate size of its payload in bytes. ok is false when url is not a
// data: URL. Payloads are never kept or indexed; only this description is.
func DataURL(url string) (mediaType string, size int64, ok bool) {
	if !strings.HasPrefix(url, "data:") {
		return "", 0, false
	}
	meta, payload, found := strings.Cut(url[len("data:"):], ",")
	if !found {
		return strings.TrimSuffix(meta, ";base64"), 0, true
	}
	mediaType = meta
	base64 := false
	if strings.HasSuffix(meta, ";base64") {
		mediaType = strings.TrimSuffix(meta, ";base64")
		base64 = true
	}
	if i := strings.IndexByte(mediaType, ';'); i >= 0 {
		mediaType = mediaType[:i]
	}
	size = int64(len(payload))
	if base64 {
		size = Base64Size(payload)
	}
	return mediaType, size, true
}

// StripDataURLs replaces every data: URL in text with a short marker naming
// its type and size, so no base64 payload reaches the index.
func StripDataURLs(text string) string {
	if !strings.Contains(text, "data:") {
		return text
	}
	var b strings.Builder
	for {
		i := strings.Index(text, "data:")
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		rest := text[i:]
		end := strings.IndexFunc(rest, func(r rune) bool {
			return r == '"' || r == '\'' || r == ')' || r == '<' || r == '>' || r == ' ' || r == '\n' || r == '\r' || r == '\t' || r == ']'
		})
		if end < 0 {
			end = len(rest)
		}
		url := rest[:end]
		if mt, size, ok := DataURL(url); ok && strings.Contains(url, ",") {
			fmt.Fprintf(&b, "[%s data, %d bytes]", orUnknown(mt), size)
		} else {
			b.WriteString(url)
		}
		text = rest[end:]
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "binary"
	}
	return s
}
