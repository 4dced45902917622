package query

import (
	"encoding/base64"
	"fmt"
)

// cursorFields is the number of values a search-after cursor holds: the
// date and the document id (the sorts of SortNewest and SortOldest).
const cursorFields = 2

// encodeCursor makes Bleve's sort values printable: a date sorts as
// prefix-coded bytes (NUL included), which a command line cannot carry.
func encodeCursor(sort []string) []string {
	out := make([]string, len(sort))
	for i, v := range sort {
		out[i] = base64.RawURLEncoding.EncodeToString([]byte(v))
	}
	return out
}

// decodeCursor reads back what encodeCursor wrote.
func decodeCursor(after []string) ([]string, error) {
	if len(after) != cursorFields {
		return nil, fmt.Errorf("after: %d values, want the %d of a hit's \"sort\" (from --json)", len(after), cursorFields)
	}
	out := make([]string, len(after))
	for i, v := range after {
		b, err := base64.RawURLEncoding.DecodeString(v)
		if err != nil || len(b) == 0 {
			return nil, fmt.Errorf("after: %q is not a value of a hit's \"sort\" (from --json)", v)
		}
		out[i] = string(b)
	}
	return out, nil
}
