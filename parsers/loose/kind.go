package loose

import (
	"bytes"
	"encoding/json"
)

// KindOf names the kind of a raw JSON value ("an object", "a string", …) for
// warnings that say what a file held where something else was expected.
func KindOf(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
