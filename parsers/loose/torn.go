package loose

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/convsearch/convsearch/parsers"
)

// Mend repairs a JSON document that was cut short (a crash while its writer
// rewrote it, a partial copy or download) so that it decodes with every
// complete element kept. It reports false when data is not such a document:
// when it is whole, empty, or broken some other way than by its end.
//
// The tear falls inside a stack of open arrays and objects. Mend picks one
// of them, the unit: the innermost one for which unit(path) is true, or the
// outermost (the root) when none is. It cuts data back to the end of the
// last complete element (array) or member (object) of the unit, dropping the
// element the tear went through, a dangling comma and any half-written key,
// and closes the unit and every container around it. The path of a
// container is the keys that lead to it from the root, an array index given
// as its decimal text: ["messages"] for {"messages":[…]}, ["2","children"]
// for the children of the third object of a root array. A nil unit picks the
// innermost container that holds a complete element.
//
// Choosing the unit is how a caller keeps a message whose own fields were
// torn from being read as if whole: with the array of messages as the unit,
// the torn message is dropped, never kept with half its fields. A string,
// number or literal is complete only once it is closed or followed by a
// delimiter, so `12` at the end (maybe `123`) or `tr` is dropped.
//
// The mended document is data's prefix plus closing brackets, found in one
// linear pass that tracks strings, their escapes, and the containers open.
func Mend(data []byte, unit func(path []string) bool) ([]byte, bool) {
	out, _, ok := MendUnit(data, unit)
	return out, ok
}

// MendUnit is Mend that also returns the path of the unit it cut back in.
func MendUnit(data []byte, unit func(path []string) bool) ([]byte, []string, bool) {
	data = bytes.TrimPrefix(data, bom)
	if !Torn(data) {
		return nil, nil, false
	}
	type frame struct {
		open    byte
		start   int // offset of the bracket
		path    []string
		last    int  // end of the last complete element, or just past the bracket
		wantKey bool // an object expecting a key next
		index   int  // an array's element being read
		key     string
	}
	var (
		stack    []frame
		inString bool
		escape   bool
		strStart int
		scalar   = -1 // start of a number or literal being read
	)
	// complete records that a value ended at end in the top container.
	complete := func(end int) {
		if n := len(stack); n > 0 {
			stack[n-1].last = end
		}
	}
	isKey := func() bool {
		n := len(stack)
		return n > 0 && stack[n-1].open == '{' && stack[n-1].wantKey
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch {
			case escape:
				escape = false
			case c == '\\':
				escape = true
			case c == '"':
				inString = false
				if isKey() {
					top := &stack[len(stack)-1]
					top.wantKey = false
					top.key = ""
					_ = json.Unmarshal(data[strStart:i+1], &top.key)
				} else {
					complete(i + 1)
				}
			}
			continue
		}
		if scalar >= 0 {
			switch c {
			case ',', ']', '}', ' ', '\t', '\r', '\n', ':':
				complete(i)
				scalar = -1
			default:
				continue
			}
		}
		switch c {
		case '"':
			inString, strStart = true, i
		case '{', '[':
			var path []string
			if n := len(stack); n > 0 {
				parent := stack[n-1]
				key := strconv.Itoa(parent.index)
				if parent.open == '{' {
					key = parent.key
				}
				path = append(append(make([]string, 0, len(parent.path)+1), parent.path...), key)
			}
			stack = append(stack, frame{open: c, start: i, path: path, last: i + 1, wantKey: c == '{'})
		case '}', ']':
			if len(stack) == 0 {
				return nil, nil, false
			}
			stack = stack[:len(stack)-1]
			complete(i + 1)
		case ',':
			if n := len(stack); n > 0 {
				stack[n-1].wantKey = stack[n-1].open == '{'
				stack[n-1].index++
			}
		case ':', ' ', '\t', '\r', '\n':
		default:
			scalar = i
		}
	}
	if len(stack) == 0 {
		return nil, nil, false // a torn scalar at the top: nothing to keep
	}
	u := 0
	for j := len(stack) - 1; j >= 0; j-- {
		if unit != nil && unit(stack[j].path) || unit == nil && stack[j].last > stack[j].start+1 {
			u = j
			break
		}
	}
	out := make([]byte, 0, stack[u].last+u+1)
	out = append(out, data[:stack[u].last]...)
	for j := u; j >= 0; j-- {
		if stack[j].open == '{' {
			out = append(out, '}')
		} else {
			out = append(out, ']')
		}
	}
	if !json.Valid(out) {
		return nil, nil, false
	}
	return out, stack[u].path, true
}

// Torn reports whether data is a JSON value cut short: every byte of it
// well-formed, but the value not ended.
func Torn(data []byte) bool {
	if len(bytes.TrimSpace(data)) == 0 {
		return false
	}
	var v json.RawMessage
	se, ok := errors.AsType[*json.SyntaxError](json.Unmarshal(data, &v))
	if !ok {
		return false
	}
	if se.Error() == "unexpected end of JSON input" {
		return true
	}
	// The scanner ends the input with a space: a literal or an escape cut
	// mid-way fails on it, one byte past the end.
	last := data[len(data)-1]
	return se.Offset == int64(len(data)) && strings.HasPrefix(se.Error(), "invalid character ' '") &&
		last != ' ' && last != '\t' && last != '\r' && last != '\n'
}

// UnmarshalMended is Unmarshal for a whole document that may have been cut
// short. When data decodes, it is Unmarshal. When data is torn and Mend
// (with unit) repairs it, the mended document is decoded into v and torn is
// the error Unmarshal gave for data, naming path and the line of the tear,
// for the caller to report with what it kept (see TornWarning). Otherwise
// err is Unmarshal's error.
func UnmarshalMended(path string, data []byte, v any, unit func(path []string) bool) (torn, err error) {
	torn, _, err = UnmarshalMendedUnit(path, data, v, unit)
	return torn, err
}

// UnmarshalMendedUnit is UnmarshalMended that also returns, when data was
// torn, the path of the unit Mend cut it back in (see MendUnit).
func UnmarshalMendedUnit(path string, data []byte, v any, unit func(path []string) bool) (torn error, at []string, err error) {
	err = Unmarshal(path, data, v)
	if err == nil || !errors.Is(err, parsers.ErrSyntax) {
		return nil, nil, err
	}
	mended, at, ok := MendUnit(data, unit)
	if !ok || Unmarshal(path, mended, v) != nil {
		return nil, nil, err
	}
	return &parsers.Error{Path: path, Line: LineAt(data, int64(len(data))), Err: fmt.Errorf("%w: unexpected end of JSON input", parsers.ErrSyntax)}, at, nil
}

// TornWarning is the warning for a document cut short of which kept (say
// "the 3 complete messages") was read: torn, the syntax error at its end,
// with what was kept and what was dropped.
func TornWarning(torn error, kept string) error {
	return fmt.Errorf("%w (the file was cut short: kept %s before the tear; the part the tear went through was dropped)", torn, kept)
}

// KeyIs returns a unit for Mend: the containers whose key is one of keys,
// at any depth. The root's key is "". For a unit at one place, see PathIs.
func KeyIs(keys ...string) func(path []string) bool {
	return func(path []string) bool {
		k := ""
		if len(path) > 0 {
			k = path[len(path)-1]
		}
		for _, want := range keys {
			if k == want {
				return true
			}
		}
		return false
	}
}

// PathIs returns a unit for Mend: the one container at path (see Mend; no
// path is the root). Unlike KeyIs it is anchored: {"messages":[…]} inside
// a message, a tool's argument say, is not the unit, so a tear there drops
// the message, never keeps it with half its fields.
func PathIs(path ...string) func(path []string) bool {
	return func(p []string) bool { return slices.Equal(p, path) }
}
