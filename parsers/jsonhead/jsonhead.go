// Package jsonhead lists the object keys in the first bytes of a JSON
// document, for Detect methods: the head may be cut anywhere and must not be
// decoded. It is the one way families recognise a JSON format from its head;
// a JSON Lines format scans its first record (FirstObjectLine, which skips
// the NUL bytes and torn or garbage lines a crash can leave before it).
package jsonhead

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// Key is an object key seen in the first bytes of a JSON document.
type Key struct {
	// Path is the chain of keys (and "[]" for array elements) leading to the
	// object that holds the key, joined by "/": "" for the root object,
	// "messages/[]" for a message.
	Path string
	Name string
	// Kind is the first byte of the key's value ('{', '[', '"', 'n', 't',
	// 'f', a digit or '-'), or 0 when the head ends before the value.
	Kind byte
	// Value is a string value as written, escapes and all, without its
	// quotes; "" for other kinds and for a string the head cuts.
	Value string
}

// Shape is what Scan saw.
type Shape struct {
	// Root is the first byte of the document after a BOM and white space.
	Root byte
	Keys []Key
	// Complete is true when the root value ended inside the head.
	Complete bool
}

// Scan lists the object keys of head, a JSON document that may be cut
// anywhere, without decoding it: Detect must be cheap and must not trust the
// head to be valid JSON. Keys are compared as written, escapes and all; the
// markers we look for are plain ASCII. It stops at the end of head or when the
// root value closes.
func Scan(head []byte) Shape {
	type frame struct {
		obj  bool
		path string
		key  string // the last key read in this object
	}
	var (
		s         Shape
		stack     []frame
		expectKey bool
		pending   = -1 // index in s.Keys of the key whose value comes next
	)
	setKind := func(c byte) {
		if pending >= 0 {
			s.Keys[pending].Kind = c
			pending = -1
		}
	}
	i := 0
	if len(head) >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF {
		i = 3
	}
	for ; i < len(head); i++ {
		c := head[i]
		switch c {
		case ' ', '\t', '\n', '\r', ':':
			continue
		}
		if s.Root == 0 {
			s.Root = c
			if c != '{' && c != '[' {
				return s
			}
		}
		switch c {
		case '"':
			j := i + 1
			for j < len(head) && head[j] != '"' {
				if head[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(head) {
				return s // cut inside a string
			}
			if n := len(stack); n > 0 && stack[n-1].obj && expectKey {
				name := string(head[i+1 : j])
				stack[n-1].key = name
				s.Keys = append(s.Keys, Key{Path: stack[n-1].path, Name: name})
				pending = len(s.Keys) - 1
				expectKey = false
			} else if pending >= 0 {
				s.Keys[pending].Kind = '"'
				s.Keys[pending].Value = string(head[i+1 : j])
				pending = -1
			}
			i = j
		case ',':
			if n := len(stack); n > 0 && stack[n-1].obj {
				expectKey = true
			}
		case '{', '[':
			setKind(c)
			path := ""
			if n := len(stack); n > 0 {
				top := stack[n-1]
				child := "[]"
				if top.obj {
					child = top.key
				}
				if top.path == "" {
					path = child
				} else {
					path = top.path + "/" + child
				}
			}
			stack = append(stack, frame{obj: c == '{', path: path})
			expectKey = c == '{'
		case '}', ']':
			if len(stack) == 0 {
				return s
			}
			stack = stack[:len(stack)-1]
			expectKey = false
			if len(stack) == 0 {
				s.Complete = true
				return s
			}
		default:
			// A number or a literal: note its kind and skip to its end.
			setKind(c)
			for i+1 < len(head) && !strings.ContainsRune(" \t\r\n,:]}", rune(head[i+1])) {
				i++
			}
		}
	}
	return s
}

// Kind returns the kind of the value of key name in the object at path, and
// whether the key was seen.
func (s Shape) Kind(path, name string) (byte, bool) {
	for _, k := range s.Keys {
		if k.Path == path && k.Name == name {
			return k.Kind, true
		}
	}
	return 0, false
}

// Value returns the string value of key name in the object at path, as
// written, and whether the key was seen with a whole string value.
func (s Shape) Value(path, name string) (string, bool) {
	for _, k := range s.Keys {
		if k.Path == path && k.Name == name && k.Kind == '"' {
			return k.Value, true
		}
	}
	return "", false
}

// Anywhere reports whether any of names is a key of an object at any depth,
// for formats whose marker keys may sit in a conversation object or in an
// array of them.
func (s Shape) Anywhere(names ...string) bool {
	for _, k := range s.Keys {
		for _, n := range names {
			if k.Name == n {
				return true
			}
		}
	}
	return false
}

// First returns the first key of the object at path ("" for the root,
// "[]" for the first object of a root array) and whether it has one.
func (s Shape) First(path string) (string, bool) {
	for _, k := range s.Keys {
		if k.Path == path {
			return k.Name, true
		}
	}
	return "", false
}

// FirstLine returns the first non-blank line of head, for JSON Lines
// formats that are recognised by their first record alone. A first line cut
// by the end of head is returned as it is.
func FirstLine(head []byte) []byte {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	first := bytes.TrimSpace(head)
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = bytes.TrimSpace(first[:i])
	}
	return first
}

// FirstObjectLine is FirstLine for a head that may begin with damage: a
// crash or a disk that preallocated the file can leave NUL bytes or a torn
// line before the records. It skips NUL bytes, white space and whole lines
// that are not a JSON object, and returns the first line that is one, or
// the last line, cut by the end of head, when it begins like one. A line
// whose record was torn, with the next record written after it on the same
// line, gives that next record. It
// returns nil when the head holds nothing else, so there is nothing to
// judge.
func FirstObjectLine(head []byte) []byte {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for len(head) > 0 {
		line, rest, whole := bytes.Cut(head, []byte("\n"))
		head = rest
		line = bytes.TrimSpace(bytes.TrimLeft(line, "\x00 \t\r\f\v"))
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		// A whole line can be checked; a cut one is judged by its keys.
		if whole && json.Valid(line) {
			return line
		}
		// A record torn by a crash, with the next one appended to its
		// line: judge the next one.
		if rec := afterTorn(line, whole); rec != nil {
			return rec
		}
		if !whole {
			return line
		}
	}
	return nil
}

// LeadingObjectLine is FirstObjectLine for a file that does not bear its
// family's name: only the first line of head that is not blank (past NUL
// bytes and a BOM) is judged, and only when it begins like a JSON object.
// Skipping lines to find a record is left to files named as the family
// names them: under any name, a text that quotes a record after its own
// lines (notes, a Markdown page) must not be taken for a log.
func LeadingObjectLine(head []byte) []byte {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	head = bytes.TrimLeft(head, "\x00 \t\r\n\f\v")
	line, _, _ := bytes.Cut(head, []byte("\n"))
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return nil
	}
	return line
}

// afterTorn returns the record that begins inside line, a line that is not
// one JSON object (cut by the end of the head unless whole), after a torn
// one: from the last `{"` at or before the place where reading line fails.
// The record must be valid (whole) or read without an error up to the end
// of the head (cut). It returns nil when there is none.
func afterTorn(line []byte, whole bool) []byte {
	var se *json.SyntaxError
	if err := json.Unmarshal(line, new(json.RawMessage)); !errors.As(err, &se) || se.Offset >= int64(len(line)) {
		return nil // a record cut by the end of the head, or not torn
	}
	i := bytes.LastIndex(line[1:min(len(line), int(se.Offset)+2)], []byte(`{"`))
	if i < 0 {
		return nil
	}
	rec := line[1+i:]
	if whole {
		if json.Valid(rec) {
			return rec
		}
		return nil
	}
	if err := json.Unmarshal(rec, new(json.RawMessage)); errors.As(err, &se) && se.Offset < int64(len(rec)) {
		return nil
	}
	return rec
}

// Has reports whether any of names is a key of the object at path.
func (s Shape) Has(path string, names ...string) bool {
	for _, k := range s.Keys {
		if k.Path != path {
			continue
		}
		for _, n := range names {
			if k.Name == n {
				return true
			}
		}
	}
	return false
}

// Any reports whether the head shows any key in the object at path.
func (s Shape) Any(path string) bool {
	for _, k := range s.Keys {
		if k.Path == path {
			return true
		}
	}
	return false
}
