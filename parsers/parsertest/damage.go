package parsertest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers"
)

// Damage is what a crash or a preallocating disk can leave before the first
// record of a JSON Lines file, by name.
var Damage = []struct{ Name, Prefix string }{
	{"NUL line", strings.Repeat("\x00", 1000) + "\n"},
	{"NULs glued to the first record", strings.Repeat("\x00", 1000)},
	{"garbage line", "garbage\n"},
	{"NULs then garbage", strings.Repeat("\x00", 1000) + "\ngarbage\n"},
	{"torn record", `{"torn":` + "\n"},
	{"torn record glued to the first", `{"type":"torn","text":"cut sh`},
}

// CheckLeadingDamage puts each of Damage before data, a JSON Lines file of
// p's that it reads to at least one message, and checks that p still claims
// it as path, reads the same conversations as from data, and warns of line
// 1, the damage, naming path.
func CheckLeadingDamage(t *testing.T, p parsers.Parser, path string, data []byte) {
	t.Helper()
	_, want := canonicalMessages(t, p, path, data)
	for _, d := range Damage {
		t.Run(d.Name, func(t *testing.T) {
			damaged := append([]byte(d.Prefix), data...)
			head := damaged[:min(len(damaged), parsers.HeadSize)]
			if !p.Detect(path, head) {
				t.Errorf("Detect(%s) = false for a head of %s before the records", path, d.Name)
			}
			res, err := p.Parse(context.Background(), path, bytes.NewReader(damaged))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got, _ := Canonical(res.Conversations); !bytes.Equal(got, want) {
				t.Errorf("conversations differ from the clean file's:\n%s\nwant\n%s", got, want)
			}
			warned := false
			for _, w := range res.Warnings {
				if pe, ok := errors.AsType[*parsers.Error](w); ok && pe.Path == path && pe.Line == 1 {
					warned = true
				}
			}
			if !warned {
				t.Errorf("warnings %v: none names %s, line 1", res.Warnings, path)
			}
		})
	}
}

// BOM is the UTF-8 byte-order mark some editors and tools write first.
const BOM = "\xef\xbb\xbf"

// CheckBOM puts a byte-order mark before data, a file of p's that it reads
// to at least one message, and checks that p still claims it as path and
// reads the same conversations as from data.
func CheckBOM(t *testing.T, p parsers.Parser, path string, data []byte) {
	t.Helper()
	_, want := canonicalMessages(t, p, path, data)
	marked := append([]byte(BOM), data...)
	if !p.Detect(path, marked[:min(len(marked), parsers.HeadSize)]) {
		t.Errorf("Detect(%s) = false after a byte-order mark", path)
	}
	res, err := p.Parse(context.Background(), path, bytes.NewReader(marked))
	if err != nil {
		t.Fatalf("Parse(%s) after a byte-order mark: %v", path, err)
	}
	if got, _ := Canonical(res.Conversations); !bytes.Equal(got, want) {
		t.Errorf("Parse(%s) after a byte-order mark: conversations differ from the clean file's:\n%s\nwant\n%s", path, got, want)
	}
}

// CheckGluedLines damages data, a JSON Lines file of p's that it reads to
// at least one message, as a crash and a resumed writer do: the first half
// of line n, a record, is left torn, and line n+1 is written right after
// it, on the same line. p must read what it reads from data without line n, and warn
// of the torn part, naming path and line n. It does so for lines (each
// below the file's count of lines, all of them when nil), and also joins
// lines n and n+1 with no torn part (`}{`), where no record may be lost.
// It fails when none of lines can be checked so.
func CheckGluedLines(t *testing.T, p parsers.Parser, path string, data []byte, lines []int) {
	t.Helper()
	clean, _ := canonicalMessages(t, p, path, data)
	cleanTexts := messageTexts(clean)
	rows := bytes.SplitAfter(data, []byte("\n"))
	if len(rows) > 0 && len(rows[len(rows)-1]) == 0 {
		rows = rows[:len(rows)-1]
	}
	if lines == nil {
		for n := 1; n < len(rows); n++ {
			lines = append(lines, n)
		}
	}
	checked := 0
	for _, n := range lines {
		if n < 1 || n >= len(rows) || !bytes.HasPrefix(bytes.TrimSpace(rows[n-1]), []byte(`{"`)) || len(bytes.TrimSpace(rows[n])) == 0 {
			continue
		}
		checked++
		join := func(mid ...[]byte) []byte {
			var b []byte
			for _, r := range rows[:n-1] {
				b = append(b, r...)
			}
			for _, m := range mid {
				b = append(b, m...)
			}
			for _, r := range rows[n+1:] {
				b = append(b, r...)
			}
			return b
		}
		t.Run(fmt.Sprintf("line %d torn", n), func(t *testing.T) {
			rec := bytes.TrimSpace(rows[n-1])
			without := join(rows[n])
			ref, err := p.Parse(context.Background(), path, bytes.NewReader(without))
			if err != nil {
				t.Skipf("without line %d: %v", n, err)
			}
			want, _ := Canonical(ref.Conversations)
			res, err := p.Parse(context.Background(), path, bytes.NewReader(join(rec[:len(rec)/2], rows[n])))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got, _ := Canonical(res.Conversations); !bytes.Equal(got, want) {
				t.Errorf("conversations differ from the file's without line %d:\n%s\nwant\n%s", n, got, want)
			}
			if !warnedOf(res, path, n) {
				t.Errorf("warnings %v: none names %s, line %d", res.Warnings, path, n)
			}
		})
		t.Run(fmt.Sprintf("lines %d and %d glued", n, n+1), func(t *testing.T) {
			res, err := p.Parse(context.Background(), path, bytes.NewReader(join(bytes.TrimRight(rows[n-1], "\r\n"), rows[n])))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got, want := messageTexts(res), cleanTexts; got != want {
				t.Errorf("messages differ from the clean file's:\n%s\nwant\n%s", got, want)
			}
		})
	}
	if checked == 0 {
		t.Errorf("%s: none of lines %v is a record followed by another line: nothing checked", path, lines)
	}
}

// canonicalMessages parses data and returns the result and its
// conversations as Canonical does, failing the test unless there is a
// message.
func canonicalMessages(t *testing.T, p parsers.Parser, path string, data []byte) (*parsers.Result, []byte) {
	t.Helper()
	clean := parse(t, p, path, data)
	want, err := Canonical(clean.Conversations)
	if err != nil {
		t.Fatal(err)
	}
	if len(clean.Conversations) == 0 || len(clean.Conversations[0].Messages) == 0 {
		t.Fatalf("Parse(%s): no message to keep", path)
	}
	return clean, want
}

// messageTexts lists the role and text of every message of res, one a line.
func messageTexts(res *parsers.Result) string {
	var b strings.Builder
	for _, c := range res.Conversations {
		for _, m := range c.Messages {
			fmt.Fprintf(&b, "%s %q\n", m.Role, m.Content)
		}
	}
	return b.String()
}

// warnedOf reports whether a warning of res names path and line.
func warnedOf(res *parsers.Result, path string, line int) bool {
	for _, w := range res.Warnings {
		if pe, ok := errors.AsType[*parsers.Error](w); ok && pe.Path == path && pe.Line == line {
			return true
		}
	}
	return false
}
