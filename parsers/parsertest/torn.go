package parsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers"
)

// Array is a JSON array of a document: the offsets of its brackets and the
// offset just past each of its elements.
type Array struct {
	Open, Close int
	Ends        []int
}

// Keep returns data with a holding only its first k elements, and what
// follows a up to end (the end of the document when end < 0).
func (a Array) Keep(data []byte, k, end int) []byte {
	cut := a.Open + 1
	if k > 0 {
		cut = a.Ends[k-1]
	}
	if end < 0 {
		end = len(data)
	}
	return append(append([]byte{}, data[:cut]...), data[a.Close:end]...)
}

// Whole is the expect of CheckTorn for a tear that drops the element of a
// it went through: data with a holding only its elements that ended before
// the cut.
func (a Array) Whole(data []byte) func(cut int) []byte {
	return func(cut int) []byte {
		k, _ := a.Within(cut)
		return a.Keep(data, k, -1)
	}
}

// Within returns how many elements of a end at or before cut, and whether
// cut falls inside a (past its '[', before its ']').
func (a Array) Within(cut int) (int, bool) {
	k := 0
	for _, e := range a.Ends {
		if e <= cut {
			k++
		}
	}
	return k, cut > a.Open && cut <= a.Close
}

// Arrays returns every array of data held under key ("" for the root
// array), at any depth, in the order they open.
func Arrays(t testing.TB, data []byte, key string) []Array {
	t.Helper()
	body := bytes.TrimPrefix(data, []byte(BOM))
	dec := json.NewDecoder(bytes.NewReader(body))
	skip := len(data) - len(body)
	var out []Array
	var walk func(k string) error
	walk = func(k string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('['):
			i := -1
			if k == key {
				i = len(out)
				out = append(out, Array{Open: int(dec.InputOffset()) - 1 + skip})
			}
			for dec.More() {
				if err := walk("*"); err != nil {
					return err
				}
				if i >= 0 {
					out[i].Ends = append(out[i].Ends, int(dec.InputOffset())+skip)
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			if i >= 0 {
				out[i].Close = int(dec.InputOffset()) - 1 + skip
			}
		case json.Delim('{'):
			for dec.More() {
				name, err := dec.Token()
				if err != nil {
					return err
				}
				s, _ := name.(string)
				if err := walk(s); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(""); err != nil {
		t.Fatalf("Arrays: %v", err)
	}
	return out
}

// Cuts returns offsets to cut data at: around the end of some elements of
// each array (inside the last bytes of one, just past it, past its comma)
// and at fixed fractions of the file, each once, in order.
func Cuts(data []byte, arrays ...Array) []int {
	var cuts []int
	for _, a := range arrays {
		for i, e := range a.Ends {
			if i < 2 || i == len(a.Ends)/2 || i >= len(a.Ends)-2 {
				cuts = append(cuts, e-1, e, e+1, e+2)
			}
		}
		cuts = append(cuts, a.Open+1, a.Close)
	}
	for _, f := range []int{1, 3, 5, 7, 9} {
		cuts = append(cuts, len(data)*f/10)
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	return slices.DeleteFunc(cuts, func(c int) bool { return c <= 0 || c >= len(bytes.TrimRight(data, " \t\r\n")) })
}

// CheckTorn cuts data, a whole document of p read as path, at each of cuts
// and parses what is left: it must give the messages of the document
// expect(cut) returns, a whole one holding only what was complete before
// the tear, with a syntax warning naming path; when expect returns nil or a
// document without messages, the parse must fail with a syntax error.
func CheckTorn(t *testing.T, p parsers.Parser, path string, data []byte, cuts []int, expect func(cut int) []byte) {
	t.Helper()
	if len(cuts) == 0 {
		t.Fatalf("%s: no cuts", path)
	}
	for _, cut := range cuts {
		got, err := p.Parse(context.Background(), path, bytes.NewReader(data[:cut]))
		var whole *parsers.Result
		if want := expect(cut); want != nil {
			w, err := p.Parse(context.Background(), path, bytes.NewReader(want))
			if err != nil {
				t.Fatalf("%s cut at %d: the expected document: %v", path, cut, err)
			}
			if messages(w) > 0 {
				whole = w
			}
		}
		if whole == nil {
			if !errors.Is(err, parsers.ErrSyntax) {
				t.Errorf("%s cut at %d: got %v, want a syntax error: nothing whole to keep", path, cut, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s cut at %d: %v, want what was complete kept", path, cut, err)
			continue
		}
		warned := false
		for _, w := range got.Warnings {
			var pe *parsers.Error
			if errors.As(w, &pe) && pe.Path == path && errors.Is(w, parsers.ErrSyntax) {
				warned = true
			}
		}
		if !warned {
			t.Errorf("%s cut at %d: no syntax warning naming the file in %v", path, cut, got.Warnings)
		}
		if len(got.Conversations) != len(whole.Conversations) {
			t.Errorf("%s cut at %d: %d conversations, want %d", path, cut, len(got.Conversations), len(whole.Conversations))
			continue
		}
		for i, c := range got.Conversations {
			w := whole.Conversations[i]
			if c.ID != w.ID || !reflect.DeepEqual(c.Messages, w.Messages) {
				t.Errorf("%s cut at %d: conversation %s has %d messages, want %s with %d:\n got %+v\nwant %+v", path, cut, c.ID, len(c.Messages), w.ID, len(w.Messages), c.Messages, w.Messages)
			}
		}
	}
}

// NestedTear checks that arrays, the arrays of data (read as path) named like its unit, are
// two: the unit's, and one nested in an element of it that holds
// ["hello","world"]. It returns the unit's array and offsets inside the
// nested one to cut data at, the first inside "world".
func NestedTear(t testing.TB, path string, data []byte, arrays []Array) (top Array, cuts []int) {
	t.Helper()
	if len(arrays) != 2 {
		t.Fatalf("%s: %d arrays named like the unit, want the unit's and the nested one", path, len(arrays))
	}
	top, nested := arrays[0], arrays[1]
	return top, []int{bytes.Index(data, []byte(`"world"`)), bytes.Index(data, []byte(`"hello"`)) + 3, nested.Ends[0] + 1}
}

// CheckTornInNested checks a tear inside an array nested in an element of
// the unit and named like it (see NestedTear): the unit is the top-level
// array, so the element the tear went through is dropped and the ones
// before it kept (CheckTorn). It returns how many were kept, and the parse
// of data cut inside "world", for the caller to check its warning.
func CheckTornInNested(t *testing.T, p parsers.Parser, path string, data []byte, arrays []Array) (int, *parsers.Result, error) {
	t.Helper()
	top, cuts := NestedTear(t, path, data, arrays)
	CheckTorn(t, p, path, data, cuts, top.Whole(data))
	k, _ := top.Within(cuts[0])
	res, err := p.Parse(context.Background(), path, bytes.NewReader(data[:cuts[0]]))
	return k, res, err
}

// CheckTornInLast puts an array named key, holding ["hello","world"], into
// the last element of data's unit (the first of arrays(data)) that holds
// before, just ahead of its last before, and checks a tear inside that
// array (CheckTornInNested). When elements before the torn one were kept,
// the parse cut inside "world" must succeed, its last warning saying the
// file was cut short; that parse is returned, nil when nothing was kept.
func CheckTornInLast(t *testing.T, p parsers.Parser, path string, data []byte, key, before string, arrays func([]byte) []Array) *parsers.Result {
	t.Helper()
	top := arrays(data)[0]
	at := bytes.LastIndex(data[:top.Close], []byte(before))
	if at < top.Open {
		t.Fatalf("%s: no element of the unit holds %s", path, before)
	}
	data = slices.Concat(data[:at], []byte(`"`+key+`":["hello","world"],`), data[at:])
	k, res, err := CheckTornInNested(t, p, path, data, arrays(data))
	if k == 0 {
		return nil // nothing whole before the tear: an error, checked above
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[len(res.Warnings)-1].Error(), "cut short") {
		t.Errorf("%s: warnings %v, want one saying the file was cut short", path, res.Warnings)
	}
	return res
}

func messages(res *parsers.Result) int {
	n := 0
	for _, c := range res.Conversations {
		n += len(c.Messages)
	}
	return n
}
