package loose

import (
	"bytes"
	"encoding/json"
	"errors"
)

// A crash can tear a JSON Lines record in the middle of its line, and the
// tool that resumes appends the next record to the torn line: the complete
// record then sits after the torn one on one physical line. A writer that
// forgets a newline glues two complete records (`}{`). Read whole, such a
// line fails and takes its complete records with it; splitRecords cuts it
// into its records instead, so only the torn part is lost.

// maxResync bounds the places tried in one bad line for the start of a
// record, and resyncBudget (a multiple of the line's length) the bytes
// scanned in all those tries, so a long line of garbage costs a few passes
// over it, never one per `{"` in it.
const (
	maxResync    = 256
	resyncBudget = 4
)

// splitRecords returns the parts of line, a line of a JSON Lines file, when
// it is not one JSON object but holds complete objects beside or after
// something else: each object is a part, and so is each run of bytes
// between them that is not one (a torn record), to be reported bad. It
// returns nil for a line to be read whole: one object (valid or not), a
// line that does not start like a record, or one in which no complete
// object is found. The parts, joined, are line without white space between
// them; leading NUL bytes stay in the first part.
//
// A line that fails as a whole is looked into only at `{"`, where an
// object with a key begins: inside a JSON string a quote is escaped, so
// `{"` is never string content.
func splitRecords(line []byte) [][]byte {
	p := skipSpace(line, 0, true)
	if p == len(line) || line[p] != '{' {
		return nil
	}
	end := len(bytes.TrimRight(line, " \t\r\n"))
	if n := valueEnd(line[p:end]); n == end-p {
		return nil // one object, or one that cannot be told apart
	}
	budget := resyncBudget*len(line) + 64<<10
	var parts [][]byte
	complete := 0
	start := 0 // the current part begins here (leading NULs included)
	for p = skipSpace(line, p, false); p < end; p = skipSpace(line, p, false) {
		if n, ok := object(line[p:end]); ok {
			parts = append(parts, line[start:p+n])
			complete++
			p = skipSpace(line, p+n, false)
			start = p
			continue
		}
		q := resync(line[:end], p, &budget)
		if q < 0 {
			break
		}
		parts = append(parts, line[start:q])
		p, start = q, q
	}
	if start < end {
		parts = append(parts, line[start:end])
	}
	if len(parts) < 2 || complete == 0 {
		return nil
	}
	return parts
}

// resync returns where in line, after p, the next complete object starts
// (one followed by the end of the line or by another `{`), or -1. The bytes
// from p are not a complete object. It tries first the `{"` at or before
// the place where reading from p fails, the latest first: a record torn
// inside a string fails just after the quote that begins the next record,
// one torn elsewhere where the next record begins, or (torn after a key)
// at the end of the record read as its value. Then the `{"` after that
// place, the earliest first (a record after bytes that are not JSON, such
// as NULs a crash left).
func resync(line []byte, p int, budget *int) int {
	if *budget <= 0 {
		return -1
	}
	fail := len(line)
	var se *json.SyntaxError
	if err := json.Unmarshal(line[p:], new(json.RawMessage)); errors.As(err, &se) {
		fail = min(len(line), p+int(se.Offset))
	}
	*budget -= fail - p
	tries := 0
	try := func(q int) bool {
		if tries >= maxResync || *budget <= 0 {
			return false
		}
		tries++
		n, ok := objectWithin(line[q:], budget)
		if !ok {
			return false
		}
		next := skipSpace(line, q+n, false)
		return next == len(line) || line[next] == '{'
	}
	for hi := fail + 2; tries < maxResync && *budget > 0; {
		i := bytes.LastIndex(line[p+1:min(hi, len(line))], []byte(`{"`))
		if i < 0 {
			break
		}
		q := p + 1 + i
		if try(q) {
			return q
		}
		hi = q + 1
	}
	for lo := min(fail+2, len(line)); tries < maxResync && *budget > 0; {
		i := bytes.Index(line[lo:], []byte(`{"`))
		if i < 0 {
			break
		}
		q := lo + i
		if try(q) {
			return q
		}
		lo = q + 1
	}
	return -1
}

// object returns the length of the complete JSON object data begins with.
func object(data []byte) (int, bool) {
	budget := len(data) + 1
	return objectWithin(data, &budget)
}

// objectWithin is object scanning at most *budget bytes, which it takes
// from the budget.
func objectWithin(data []byte, budget *int) (int, bool) {
	if len(data) == 0 || data[0] != '{' {
		return 0, false
	}
	lim := data[:min(len(data), max(*budget, 0))]
	n := valueEnd(lim)
	if n < 0 {
		*budget -= len(lim)
		return 0, false
	}
	*budget -= 2 * n
	return n, json.Valid(data[:n])
}

// valueEnd returns the length of the object or array data begins with,
// found by matching brackets outside strings, or -1 when data ends first.
// It is exact for valid JSON, and only a guess otherwise.
func valueEnd(data []byte) int {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			// Jump to the closing quote: one not escaped by an odd run
			// of backslashes.
			for {
				j := bytes.IndexByte(data[i+1:], '"')
				if j < 0 {
					return -1
				}
				i += 1 + j
				k := i - 1
				for k >= 0 && data[k] == '\\' {
					k--
				}
				if (i-1-k)%2 == 0 {
					break
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth <= 0 {
				return i + 1
			}
		}
	}
	return -1
}

// skipSpace returns the first index from i of line that is not JSON white
// space (nor a NUL byte, when nul).
func skipSpace(line []byte, i int, nul bool) int {
	for i < len(line) {
		switch line[i] {
		case ' ', '\t', '\r', '\n':
		case 0:
			if !nul {
				return i
			}
		default:
			return i
		}
		i++
	}
	return i
}
