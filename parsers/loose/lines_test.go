package loose

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/parsers"
)

func TestEachLine(t *testing.T) {
	long := strings.Repeat("x", 200<<10)
	in := "\xef\xbb\xbf{\"a\":1}\n\n" + long + "\nlast, no newline"
	var got []string
	var nums []int
	err := EachLine(context.Background(), "f.jsonl", strings.NewReader(in), func(n int, line []byte) {
		nums = append(nums, n)
		got = append(got, string(line))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"{\"a\":1}\n", "\n", long + "\n", "last, no newline"}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] || nums[i] != i+1 {
			t.Errorf("line %d: %d %.40q, want %d %.40q", i, nums[i], got[i], i+1, want[i])
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	err = EachLine(ctx, "f.jsonl", strings.NewReader("{}\n"), func(int, []byte) { called = true })
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "f.jsonl") || called {
		t.Errorf("cancelled: err %v, called %v; want context.Canceled naming the file, no line read", err, called)
	}
}

func TestLines(t *testing.T) {
	type rec struct {
		N int `json:"n"`
	}
	for _, tc := range []struct {
		name       string
		lines      []string
		read       int
		count      int
		warnings   []error
		unreadable error
	}{
		{"good and blank", []string{`{"n":1}`, "  \n", `{"n":2}`}, 2, 2, nil, nil},
		{"some bad", []string{`{"n":1}`, `{"n":`, `{"n":"x"}`}, 1, 3, []error{parsers.ErrSyntax, parsers.ErrShape}, nil},
		{"all bad", []string{`nope`, `{"n":"x"}`}, 0, 2, []error{parsers.ErrSyntax, parsers.ErrShape}, parsers.ErrSyntax},
		{"none", []string{"", "\n"}, 0, 0, nil, nil},
		{"NULs before a record", []string{"\x00\x00\x00" + `{"n":1}`, `{"n":2}`}, 2, 2, []error{parsers.ErrSyntax}, nil},
		{"NULs before a bad record", []string{"\x00\x00" + `{"n":`, `{"n":2}`}, 1, 2, []error{parsers.ErrSyntax}, nil},
		{"only NULs", []string{"\x00\x00\x00\n"}, 0, 1, []error{parsers.ErrSyntax}, parsers.ErrSyntax},
	} {
		res := &parsers.Result{}
		l := Lines{Path: "/s/x.jsonl", Res: res}
		read := 0
		for i, line := range tc.lines {
			var r rec
			if l.Decode(i+1, []byte(line), &r) {
				read++
			}
		}
		if read != tc.read || l.Count() != tc.count || len(res.Warnings) != len(tc.warnings) {
			t.Errorf("%s: read %d, count %d, warnings %v; want %d, %d, %d warnings", tc.name, read, l.Count(), res.Warnings, tc.read, tc.count, len(tc.warnings))
			continue
		}
		for i, w := range res.Warnings {
			if !errors.Is(w, tc.warnings[i]) || !strings.Contains(w.Error(), "/s/x.jsonl:") {
				t.Errorf("%s: warning %v, want %v naming the file and line", tc.name, w, tc.warnings[i])
			}
		}
		if err := l.Unreadable(); (tc.unreadable == nil) != (err == nil) || err != nil && !errors.Is(err, tc.unreadable) {
			t.Errorf("%s: Unreadable() = %v, want %v", tc.name, err, tc.unreadable)
		}
	}
}

// TestDecodeWith: the decoder gets the record past blanks and NUL bytes, and
// its error makes the line a bad one, as Decode's does.
func TestDecodeWith(t *testing.T) {
	errBad := errors.New("bad record")
	for _, tc := range []struct {
		name, line, rec string
		fail, ok        bool
		warnings        int
	}{
		{"record", " {\"n\":1}\r\n", `{"n":1}`, false, true, 0},
		{"NULs glued", "\x00\x00{\"n\":1}\n", `{"n":1}`, false, true, 1},
		{"decoder fails", "{\"n\":1}\n", `{"n":1}`, true, false, 1},
		{"blank", " \n", "", false, false, 0},
	} {
		res := &parsers.Result{}
		l := Lines{Path: "/s/x.jsonl", Res: res}
		var got string
		ok := l.DecodeWith(1, []byte(tc.line), func(rec []byte) error {
			got = string(rec)
			if tc.fail {
				return errBad
			}
			return nil
		})
		if ok != tc.ok || got != tc.rec || len(res.Warnings) != tc.warnings {
			t.Errorf("%s: ok %v, record %q, warnings %v; want %v, %q, %d", tc.name, ok, got, res.Warnings, tc.ok, tc.rec, tc.warnings)
		}
	}
}

// TestEachLineResync: a line that is not one record gives its complete
// records, each torn part between them as a piece of its own (to be
// reported bad), all under the line's number; any other line is given
// whole.
func TestEachLineResync(t *testing.T) {
	const (
		torn = `{"type":"assistant","message":{"content":[{"type":"text","text":"TORN ANS`
		a    = `{"type":"user","n":1,"message":{"content":"a {\"x\":1} b"}}`
		b    = `{"type":"user","n":2}`
	)
	deep := `{"type":"user","list":[` + strings.Repeat(`{"a":{"b":1}},`, 1000) + `{}]}`
	long := `{"type":"user","text":"` + strings.Repeat("x", 1<<20) + `","more":{"a":[{"b":1}]}}`
	for _, tc := range []struct {
		name, line string
		want       []string // nil: the line whole
	}{
		{"one record", a + "\n", nil},
		{"one bad record", `{"n":tru}` + "\n", nil},
		{"one record with a string ending in {", `{"type":"user","text":"if x {","more":"{ "}` + "\n", nil},
		{"torn only", torn + "\n", nil},
		{"not a record", "garbage {\"n\":1}\n", nil},
		{"Markdown", "{ not json } and {\"n\":1\n", nil},
		{"blank", "\n", nil},
		{"torn in a string, then a record", torn + a + "\n", []string{torn, a}},
		{"torn after a key", `{"type":"assistant","message":` + a + "\r\n", []string{`{"type":"assistant","message":`, a}},
		{"torn after a comma", `{"type":"assistant",` + a, []string{`{"type":"assistant",`, a}},
		{"torn in a number", `{"n":12` + a, []string{`{"n":12`, a}},
		{"torn in an array", `{"type":"x","content":[` + a, []string{`{"type":"x","content":[`, a}},
		{"torn after an object", `{"type":"x","usage":{"in":1}` + a, []string{`{"type":"x","usage":{"in":1}`, a}},
		{"torn, then two records", torn + a + b, []string{torn, a, b}},
		{"torn in a string, brackets matching to the end", `{"t":"ab` + a, []string{`{"t":"ab`, a}},
		{"torn after a key, then two records", `{"type":"x","m":` + a + b, []string{`{"type":"x","m":` + a, b}},
		{"torn after a key, then a deep record", `{"type":"x","m":` + deep, []string{`{"type":"x","m":`, deep}},
		{"torn in a string, then a deep record", `{"type":"x","m":"ab` + deep, []string{`{"type":"x","m":"ab`, deep}},
		{"torn after a key, then a long record", `{"type":"x","m":` + long, []string{`{"type":"x","m":`, long}},
		{"long torn record, then a record", `{"type":"x","m":"` + long[:len(long)/2] + a, []string{`{"type":"x","m":"` + long[:len(long)/2], a}},
		{"two records", a + b + "\n", []string{a, b}},
		{"two records and a space", a + " " + b + "\n", []string{a, b}},
		{"three records", a + b + a, []string{a, b, a}},
		{"record then torn", a + torn + "\n", []string{a, torn}},
		{"record then garbage", a + "xyz\n", []string{a, "xyz"}},
		{"torn, record, torn, record", torn + a + torn + b, []string{torn, a, torn, b}},
		{"NULs, torn, record", "\x00\x00" + torn + a, []string{"\x00\x00" + torn, a}},
		{"torn, NULs, record", torn + "\x00\x00\x00" + a, []string{torn + "\x00\x00\x00", a}},
		{"NULs glued to two records", "\x00\x00" + a + b, []string{"\x00\x00" + a, b}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			err := EachLine(context.Background(), "f.jsonl", strings.NewReader(tc.line), func(n int, line []byte) {
				if n != 1 {
					t.Errorf("line number %d, want 1", n)
				}
				got = append(got, string(line))
			})
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if want == nil {
				want = []string{tc.line}
			}
			if strings.Join(got, "\x01") != strings.Join(want, "\x01") {
				t.Errorf("pieces\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// TestLinesResync: the complete records of a torn line are read and the
// torn part is one warning naming the file and the line.
func TestLinesResync(t *testing.T) {
	in := `{"n":1}` + "\n" + `{"n":2,"s":"to` + `{"n":3}` + "\n" + `{"n":4}{"n":5}` + "\n"
	res := &parsers.Result{}
	l := Lines{Path: "/s/x.jsonl", Res: res}
	var got []int
	err := EachLine(context.Background(), "/s/x.jsonl", strings.NewReader(in), func(n int, line []byte) {
		var r struct{ N int }
		if l.Decode(n, line, &r) {
			got = append(got, r.N)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[1 3 4 5]" {
		t.Errorf("read %v, want [1 3 4 5]", got)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), "/s/x.jsonl:2:") || !errors.Is(res.Warnings[0], parsers.ErrSyntax) {
		t.Errorf("warnings %v, want one syntax error naming /s/x.jsonl:2", res.Warnings)
	}
	if l.Unreadable() != nil {
		t.Errorf("Unreadable() = %v", l.Unreadable())
	}
}

// TestResyncBounded: a long line of garbage that looks like records
// everywhere is read in about the time of a few passes over it, not one per
// place a record could start.
func TestResyncBounded(t *testing.T) {
	for _, tc := range []struct{ name, line string }{
		{"keys everywhere", strings.Repeat(`{"{"`, 2<<20)},
		{"never closed", strings.Repeat(`{"a":[`, 1<<20)},
		{"valid to the end from every key", strings.Repeat(`{"a":[`, 300) + strings.Repeat("1,", 4<<20)},
		{"strings", `{"s":"` + strings.Repeat(`{"a":"`, 1<<20)},
		{"deep", `{"a":` + strings.Repeat(`[{"b":`, 1<<20) + "1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			calls := 0
			err := EachLine(context.Background(), "f.jsonl", strings.NewReader(tc.line+"\n"), func(int, []byte) { calls++ })
			if err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("%d MB line read in %v", len(tc.line)>>20, d)
			}
			if calls != 1 {
				t.Errorf("%d pieces, want the line whole", calls)
			}
		})
	}
}

// TestEachTextLine: a file of text lines is given line by line, whatever
// JSON a line holds.
func TestEachTextLine(t *testing.T) {
	in := "\xef\xbb\xbf" + `{"a": {"b": 1}},` + "\n" + `{"n":1}{"n":2}`
	var got []string
	err := EachTextLine(context.Background(), "f.md", strings.NewReader(in), func(n int, line []byte) {
		got = append(got, fmt.Sprintf("%d %s", n, line))
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{`1 {"a": {"b": 1}},` + "\n", `2 {"n":1}{"n":2}`}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", got, want)
	}
}
