package loose

import (
	"context"
	"errors"
	"strings"
	"testing"

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
