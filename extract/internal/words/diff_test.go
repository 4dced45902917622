package words

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// realTexts returns the strings of every JSON and JSONL file of the
// repository's examples, test corpus and labelled set (messages, titles,
// tool output), and each file's raw text.
func realTexts(tb testing.TB) []string {
	tb.Helper()
	var out []string
	for _, root := range []string{"../../../examples", "../../../testdata/corpus", "../../testdata/labelled"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out = append(out, string(b))
			for _, line := range bytes.Split(b, []byte("\n")) {
				var v any
				if json.Unmarshal(line, &v) == nil {
					out = appendStrings(out, v)
				}
			}
			var v any
			if json.Unmarshal(b, &v) == nil {
				out = appendStrings(out, v)
			}
			return nil
		})
		if err != nil {
			tb.Fatalf("read %s: %v", root, err)
		}
	}
	if len(out) < 1000 {
		tb.Fatalf("only %d texts", len(out))
	}
	return out
}

func appendStrings(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		out = append(out, v)
	case []any:
		for _, e := range v {
			out = appendStrings(out, e)
		}
	case map[string]any:
		for _, e := range v {
			out = appendStrings(out, e)
		}
	}
	return out
}

// scanDiff returns the events of both scanners for text when they differ.
func scanDiff(text string) (got, want []string, differ bool) {
	var a, b rec
	var s Scanner
	var r refScanner
	s.Scan(text, &a)
	r.Scan(text, &b)
	return a.out, b.out, !slices.Equal(a.out, b.out)
}

// TestScanMatchesReference checks, on every text of the repository's real
// conversations, that the scanner emits exactly what the scanner before its
// fast paths emitted, and that the helpers it uses agree word for word.
func TestScanMatchesReference(t *testing.T) {
	texts := append(realTexts(t),
		"“Quoted” ‘words’ and the user’s choice, we’ll see; naïve café ÉCOLE straße",
		"\t\tindented {code}\n  > quoted\n```\nfenced\n```\n~~~\nx\n~~~\nC++ C# x# a--b -x",
		"invalid \xff\xfe utf-8 \xe2\x80 cut \xe2\x80\x9cok\xe2\x80\x9d (“‘(nested",
	)
	words := 0
	for _, text := range texts {
		if got, want, differ := scanDiff(text); differ {
			t.Fatalf("Scan(%.200q) differs from the reference:\n got %.300q\nwant %.300q", text, got, want)
		}
		for _, line := range strings.Split(text, "\n") {
			if IsCodeLine(line) != refIsCodeLine(line) {
				t.Fatalf("IsCodeLine(%q) = %v, reference %v", line, IsCodeLine(line), refIsCodeLine(line))
			}
		}
		for _, w := range strings.Fields(strings.ToLower(text)) {
			words++
			if got, want := string(Singular([]byte(w))), string(refSingular([]byte(w))); got != want {
				t.Fatalf("Singular(%q) = %q, reference %q", w, got, want)
			}
			_, stop := refStopwords[w]
			if IsStopword(w) != stop {
				t.Fatalf("IsStopword(%q) = %v, reference %v", w, !stop, stop)
			}
		}
	}
	for w := range refStopwords {
		if !IsStopword(w) || !stopwords.Has([]byte(w)) {
			t.Errorf("stopword %q missing from the set", w)
		}
	}
	for k, v := range refIrregular {
		if got := string(Singular([]byte(k))); got != v && len(k) >= 4 {
			t.Errorf("Singular(%q) = %q, want %q", k, got, v)
		}
	}
	if irregular.Len() != len(irregularTo) || len(irregularTo) != len(refIrregular) {
		t.Errorf("irregular: %d words, %d folded forms, reference %d", irregular.Len(), len(irregularTo), len(refIrregular))
	}
	t.Logf("%d texts, %d words", len(texts), words)
}

// FuzzScanMatchesReference is TestScanMatchesReference on arbitrary text.
func FuzzScanMatchesReference(f *testing.F) {
	for _, s := range []string{
		"Advisory Locks and PgBouncer", "read/write paths; the user's choice", "“Quoted” ‘x’ naïve",
		"see https://x.org/a and /etc/passwd, `code` v2 3f9a2c1d 10ms", "    x := foo(bar)\n$ go test ./...\nC++ and C# apps",
		"<system-reminder>\nx\n</system-reminder>\n[redacted: github-pat] tokens", "\xff\xe2\x80 \xe2\x80\x98it",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want, differ := scanDiff(text); differ {
			t.Fatalf("Scan(%q) differs:\n got %q\nwant %q", text, got, want)
		}
	})
}

func TestHashString(t *testing.T) {
	for n := range 40 {
		s := strings.Repeat("abcdefghij", 4)[:n]
		if Hash([]byte(s)) != hashString(s) {
			t.Errorf("Hash(%q) != hashString", s)
		}
	}
}

func TestSet(t *testing.T) {
	s := NewSet("use go with go-to a c++ x")
	for _, tt := range []struct {
		w    string
		want bool
	}{
		{"use", true}, {"go", true}, {"with", true}, {"go-to", true}, {"a", true}, {"c++", true},
		{"", false}, {"us", false}, {"uses", false}, {"g", false}, {"go ", false}, {strings.Repeat("x", 80), false},
	} {
		if got := s.HasString(tt.w); got != tt.want {
			t.Errorf("HasString(%q) = %v, want %v", tt.w, got, tt.want)
		}
		if got := s.Has([]byte(tt.w)); got != tt.want {
			t.Errorf("Has(%q) = %v, want %v", tt.w, got, tt.want)
		}
	}
	if s.Len() != 7 {
		t.Errorf("Len = %d, want 7", s.Len())
	}
}
