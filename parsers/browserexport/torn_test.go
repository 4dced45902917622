package browserexport

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers/parsertest"
)

// tornExpect returns, for a cut of data, the export of what was written
// whole before it: the threads before the one the tear went through, and
// of that one (dropped when none of its messages is whole) the branches and
// messages that ended before the tear, with what follows each torn array
// (its closing bracket, the fields after it) kept so the document is whole.
// arrays are the export's threads, branches and messages arrays.
func tornExpect(data []byte, threads parsertest.Array, arrays []parsertest.Array) func(cut int) []byte {
	return func(cut int) []byte {
		k, in := threads.Within(cut)
		if cut <= threads.Open {
			return nil
		}
		if !in || k == len(threads.Ends) {
			return data // every thread whole
		}
		start, end := threads.Open+1, threads.Ends[k]
		if k > 0 {
			start = threads.Ends[k-1]
		}
		// The arrays the cut is inside, outermost first.
		chain := []parsertest.Array{threads}
		for _, a := range arrays {
			if a.Open < start || a.Open >= end {
				continue
			}
			if _, inside := a.Within(cut); inside {
				chain = append(chain, a)
			}
		}
		if wholeIn(data, threads, k, arrays, cut) == 0 {
			return threads.Keep(data, k, -1)
		}
		inner := chain[len(chain)-1]
		n, _ := inner.Within(cut)
		if !isMessages(data, inner) && n < len(inner.Ends) && wholeIn(data, inner, n, arrays, cut) > 0 {
			// A thread or branch torn past messages of its own written
			// whole is kept with them.
			n++
		}
		out := inner.Keep(data, n, inner.Close)
		for i := len(chain) - 1; i > 0; i-- {
			outer, a := chain[i-1], chain[i]
			e := slices.IndexFunc(outer.Ends, func(e int) bool { return e > a.Open })
			out = append(out, data[a.Close:outer.Ends[e]]...)
		}
		return append(out, data[threads.Close:]...)
	}
}

// wholeIn is how many messages of element i of a ended before cut.
func wholeIn(data []byte, a parsertest.Array, i int, arrays []parsertest.Array, cut int) int {
	start, end := a.Open+1, a.Ends[i]
	if i > 0 {
		start = a.Ends[i-1]
	}
	whole := 0
	for _, m := range arrays {
		if m.Open >= start && m.Open < end && isMessages(data, m) {
			n, _ := m.Within(cut)
			whole += n
		}
	}
	return whole
}

// isMessages reports whether a is a "messages" array.
func isMessages(data []byte, a parsertest.Array) bool {
	return bytes.HasSuffix(bytes.TrimRight(data[:a.Open], " \t\r\n:"), []byte(`"messages"`))
}

// spineArrays are the export's threads list and its branches and messages
// arrays, less any at an offset in skip.
func spineArrays(t *testing.T, data []byte, skip ...int) (parsertest.Array, []parsertest.Array) {
	threads := parsertest.Arrays(t, data, "threads")
	if len(threads) != 1 {
		t.Fatalf("%d threads lists, want one", len(threads))
	}
	arrays := append(parsertest.Arrays(t, data, "branches"), parsertest.Arrays(t, data, "messages")...)
	arrays = slices.DeleteFunc(arrays, func(a parsertest.Array) bool { return slices.Contains(skip, a.Open) })
	slices.SortFunc(arrays, func(a, b parsertest.Array) int { return a.Open - b.Open })
	return threads[0], arrays
}

// TestTorn cuts real exports at many offsets, as a partial copy or
// download would: the threads before the tear are kept whole and, of the
// one it went through, the messages written whole; the message it cut is
// dropped, with a warning.
func TestTorn(t *testing.T) {
	examples, _ := filepath.Glob("../../examples/browser-export/*.json")
	for _, file := range append([]string{"testdata/documented.json", "testdata/chat-backup-2025-12-01.json"}, examples...) {
		t.Run(file, func(t *testing.T) {
			data := parsertest.ReadFile(t, file)
			threads, arrays := spineArrays(t, data)
			cuts := parsertest.Cuts(data, append([]parsertest.Array{threads}, arrays...)...)
			parsertest.CheckTorn(t, New(), file, data, cuts, tornExpect(data, threads, arrays))
		})
	}
}

// TestTornInNestedMessages: a message holding an array named "messages",
// torn inside it, is dropped and the ones before it kept, with a warning:
// the unit is the thread's (branch's) messages, not any array of the name.
func TestTornInNestedMessages(t *testing.T) {
	for _, file := range []string{"testdata/documented.json", "testdata/chat-backup-2025-12-01.json"} {
		t.Run(file, func(t *testing.T) {
			data := parsertest.ReadFile(t, file)
			at := bytes.LastIndex(data, []byte(`"sender"`))
			data = slices.Concat(data[:at], []byte(`"messages":["hello","world"],`), data[at:])
			nested := at + len(`"messages":`)
			threads, arrays := spineArrays(t, data, nested)
			cuts := []int{bytes.Index(data, []byte(`"world"`)), bytes.Index(data, []byte(`"hello"`)) + 3, nested + len(`["hello",`)}
			parsertest.CheckTorn(t, New(), file, data, cuts, tornExpect(data, threads, arrays))
			res, err := New().Parse(context.Background(), file, bytes.NewReader(data[:cuts[0]]))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), "cut short") {
				t.Errorf("warnings %v, want one saying the file was cut short", res.Warnings)
			}
		})
	}
}
