package loose

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
)

// A crash can tear a JSON Lines record in the middle of its line, and the
// tool that resumes appends the next record to the torn line: the complete
// record then sits after the torn one on one physical line. A writer that
// forgets a newline glues two complete records (`}{`). Read whole, such a
// line fails and takes its complete records with it; splitRecords cuts it
// into its records instead, so only the torn part is lost.

// maxResync bounds the places tried in one bad line for the start of a
// record, and resyncBudget (a multiple of the line's length) the bytes
// scanned in splitting it, so a long line of garbage or of many torn pieces
// costs a few passes over it, never one per `{"` or piece in it. Once the
// budget is spent the rest of the line is one piece.
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
	n, suspect := scanValue(line[p:end]) // the first object's length, known here
	if n == end-p {
		// Brackets that match up to the end of the line prove nothing
		// when a record torn inside a string has the next one appended:
		// every quote after the tear is paired wrongly, and the `{"`
		// that begins that record reads as a string ending in `{`. Such
		// a line is one object only if it is valid; else look for a
		// record after the first one's start.
		if !suspect {
			return nil // one object, or one that cannot be told apart
		}
		scanned(n)
		if json.Valid(line[p:end]) {
			return nil // one object
		}
		n = -1
	}
	budget := resyncBudget*len(line) + 64<<10
	var parts [][]byte
	complete := 0
	start := 0     // the current part begins here (leading NULs included)
	valid := false // line[p:p+n] is known to be an object
	for first := true; p < end && (valid || budget > 0); first = false {
		switch {
		case valid:
		case line[p] != '{':
			n = -1
		case !first:
			lim := min(end, p+budget)
			n = valueEnd(line[p:lim])
			if n < 0 {
				budget -= lim - p
			} else {
				budget -= n
			}
		}
		if !valid && n > 0 {
			scanned(n)
			budget -= n
			valid = json.Valid(line[p : p+n])
		}
		if valid {
			valid = false
			parts = append(parts, line[start:p+n])
			complete++
			p = skipSpace(line, p+n, false)
			start = p
			continue
		}
		q, qn := resync(line[:end], p, &budget)
		if q < 0 {
			break
		}
		parts = append(parts, line[start:q])
		p, start = q, q
		n, valid = qn, true
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
// (one followed by the end of the line or by another `{`) and its length,
// or -1. It takes the bytes it scans from *budget. The bytes
// from p are not a complete object. It tries, in turn:
//   - the last `{"` at or before the place where reading from p fails: a
//     record torn inside a string fails just after the quote that begins
//     the next record, one torn elsewhere where it begins;
//   - the objects that, read from p, close where the line ends or another
//     `{` begins: a record torn after a key or inside an array takes the
//     next record for a value, and fails only at the end;
//   - the other `{"` before the place reading fails, the latest first;
//   - the `{"` after that place, the earliest first: a record after bytes
//     that are not JSON (NULs a crash left).
//
// When two records follow a record torn after a key, the first is taken
// for the torn record's value and lost with it.
func resync(line []byte, p int, budget *int) (int, int) {
	if *budget <= 0 {
		return -1, 0
	}
	fail := len(line)
	var se *json.SyntaxError
	if err := json.Unmarshal(line[p:], new(json.RawMessage)); errors.As(err, &se) {
		fail = min(len(line), p+int(se.Offset))
	}
	scanned(fail - p)
	*budget -= fail - p
	tries, found := 0, 0
	try := func(q int) bool {
		if tries >= maxResync || *budget <= 0 {
			return false
		}
		tries++
		lim := line[q:min(len(line), q+*budget)]
		n := valueEnd(lim)
		if n < 0 {
			*budget -= len(lim)
			return false
		}
		*budget -= n
		if next := skipSpace(line, q+n, false); next < len(line) && line[next] != '{' {
			return false
		}
		scanned(n)
		*budget -= n
		found = n
		return json.Valid(line[q : q+n])
	}
	// lastKey returns the last `{"` after p and before hi, or -1. Its
	// scans, all before fail, read those bytes at most twice in all.
	lastKey := func(hi int) int {
		hi = min(hi, len(line))
		i := bytes.LastIndex(line[p+1:hi], []byte(`{"`))
		if i < 0 {
			scanned(hi - p - 1)
			return -1
		}
		scanned(hi - p - 1 - i)
		return p + 1 + i
	}
	last := lastKey(fail + 2)
	if last >= 0 && try(last) {
		return last, found
	}
	for _, q := range closers(line, p, budget) {
		if try(q) {
			return q, found
		}
	}
	for q := last; q >= 0 && tries < maxResync && *budget > 0; {
		if q = lastKey(q + 1); q >= 0 && try(q) {
			return q, found
		}
	}
	for lo := min(fail+2, len(line)); tries < maxResync && *budget > 0; {
		i := bytes.Index(line[lo:], []byte(`{"`))
		if i < 0 {
			scanned(len(line) - lo)
			break
		}
		scanned(i + 2)
		*budget -= i + 2
		q := lo + i
		if try(q) {
			return q, found
		}
		lo = q + 1
	}
	return -1, 0
}

// maxClosers is how many of the objects closers finds it keeps, and
// maxDepth how deep it follows brackets.
const (
	maxClosers = 8
	maxDepth   = 4096
)

// closers reads line from p by its brackets, as valueEnd does, and returns
// where the last objects (up to maxClosers, after p) begin that close where
// the line ends or a `{` follows, the latest first. It reads at most
// *budget bytes, which it takes from the budget.
func closers(line []byte, p int, budget *int) []int {
	var open []int // where each bracket still open began
	var found []int
	lim := line[:min(len(line), p+max(*budget, 0))]
	*budget -= len(lim) - p
	scanned(len(lim) - p)
	for i := p; i < len(lim); i++ {
		switch lim[i] {
		case '"':
			j := stringEnd(lim, i)
			if j < 0 {
				i = len(lim)
				continue
			}
			i = j
		case '{', '[':
			if len(open) == maxDepth {
				i = len(lim) // deeper than any record
				continue
			}
			open = append(open, i)
		case '}', ']':
			if len(open) == 0 {
				i = len(lim)
				continue
			}
			q := open[len(open)-1]
			open = open[:len(open)-1]
			if q > p && lim[i] == '}' && line[q] == '{' {
				if next := skipSpace(line, i+1, false); next == len(line) || line[next] == '{' {
					found = append(found, q)
					if len(found) > maxClosers {
						found = found[1:]
					}
				}
			}
		}
	}
	slices.Reverse(found)
	return found
}

// valueEnd returns the length of the object or array data begins with,
// found by matching brackets outside strings, or -1 when data ends first.
// It is exact for valid JSON, and only a guess otherwise.
func valueEnd(data []byte) int {
	n, _ := scanValue(data)
	return n
}

// scanValue is valueEnd that also reports whether a string it read ends in
// `{` (and white space): what the start of a record looks like when a
// quote before it is paired wrongly, rare in a string otherwise.
func scanValue(data []byte) (n int, suspect bool) {
	depth := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			j := stringEnd(data, i)
			if j < 0 {
				scanned(len(data))
				return -1, suspect
			}
			if !suspect {
				k := j - 1
				for k > i && (data[k] == ' ' || data[k] == '\t' || data[k] == '\r' || data[k] == '\n') {
					k--
				}
				suspect = k > i && data[k] == '{'
			}
			i = j
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth <= 0 {
				scanned(i + 1)
				return i + 1, suspect
			}
		}
	}
	scanned(len(data))
	return -1, suspect
}

// scanHook, set by tests, is told how many bytes each scan of a line for
// records reads, to check that splitting a line costs a few passes over it.
var scanHook func(n int)

func scanned(n int) {
	if scanHook != nil {
		scanHook(n)
	}
}

// stringEnd returns the index of the quote that closes the string opening
// at data[i]: the next one not escaped by an odd run of backslashes. It
// returns -1 when data ends first.
func stringEnd(data []byte, i int) int {
	for {
		j := bytes.IndexByte(data[i+1:], '"')
		if j < 0 {
			return -1
		}
		i += 1 + j
		k := i - 1
		for data[k] == '\\' {
			k--
		}
		if (i-1-k)%2 == 0 {
			return i
		}
	}
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
