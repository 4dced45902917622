package portable

import "strings"

// headKey is an object key seen in the first bytes of a JSON document.
type headKey struct {
	// path is the chain of keys (and "[]" for array elements) leading to the
	// object that holds the key, joined by "/": "" for the root object,
	// "messages/[]" for a message.
	path string
	name string
	// kind is the first byte of the key's value ('{', '[', '"', 'n', 't',
	// 'f', a digit or '-'), or 0 when the head ends before the value.
	kind byte
}

// headShape is what scanHead saw.
type headShape struct {
	// root is the first byte of the document after a BOM and white space.
	root byte
	keys []headKey
	// complete is true when the root value ended inside the head.
	complete bool
}

// scanHead lists the object keys of head, a JSON document that may be cut
// anywhere, without decoding it: Detect must be cheap and must not trust the
// head to be valid JSON. Keys are compared as written, escapes and all; the
// markers we look for are plain ASCII. It stops at the end of head or when the
// root value closes.
func scanHead(head []byte) headShape {
	type frame struct {
		obj  bool
		path string
		key  string // the last key read in this object
	}
	var (
		s         headShape
		stack     []frame
		expectKey bool
		pending   = -1 // index in s.keys of the key whose value comes next
	)
	setKind := func(c byte) {
		if pending >= 0 {
			s.keys[pending].kind = c
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
		if s.root == 0 {
			s.root = c
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
				s.keys = append(s.keys, headKey{path: stack[n-1].path, name: name})
				pending = len(s.keys) - 1
				expectKey = false
			} else {
				setKind('"')
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
				s.complete = true
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

// kind returns the kind of the value of key name in the object at path, and
// whether the key was seen.
func (s headShape) kind(path, name string) (byte, bool) {
	for _, k := range s.keys {
		if k.path == path && k.name == name {
			return k.kind, true
		}
	}
	return 0, false
}

// has reports whether any of names is a key of the object at path.
func (s headShape) has(path string, names ...string) bool {
	for _, k := range s.keys {
		if k.path != path {
			continue
		}
		for _, n := range names {
			if k.name == n {
				return true
			}
		}
	}
	return false
}

// any reports whether the head shows any key in the object at path.
func (s headShape) any(path string) bool {
	for _, k := range s.keys {
		if k.path == path {
			return true
		}
	}
	return false
}
