package redact

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/internal/golden"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/all"
)

// corpusRoots are the real conversation files the redactor is measured on,
// by the label the golden file names them with. The shared corpus lives
// beside the checkout and may be absent.
var corpusRoots = []struct{ label, dir string }{
	{"testdata/corpus", "../testdata/corpus"},
	{"examples", "../examples"},
	{"shared/corpus", "../../shared/corpus"},
}

const (
	corpusGolden = "testdata/corpus-redactions.golden"
	// acceptedFalsePositives lists, by hand, the (file, rule) pairs of the
	// golden file that are not secrets.
	acceptedFalsePositives = "testdata/accepted-false-positives.txt"
)

// TestCorpusFalsePositives runs the redactor over every conversation of the
// real corpora and compares what it redacts, per file and rule, with the
// golden file. Run with -v to see each redaction with 12 bytes of context
// either side (the secret masked); -update rewrites the golden file after a
// rule change, to be read by hand before committing.
func TestCorpusFalsePositives(t *testing.T) {
	r := New()
	reg := all.Registry()
	counts := map[string]int{} // "label/file\trule" → redactions
	present := map[string]bool{}
	var log []string
	for _, root := range corpusRoots {
		if _, err := os.Stat(root.dir); err != nil {
			t.Logf("skip %s: %v", root.label, err)
			continue
		}
		present[root.label] = true
		err := reg.ParsePaths(context.Background(), []string{root.dir}, func(path string, _ parsers.Parser, res *parsers.Result, err error) error {
			if err != nil {
				return nil // parsers' own tests answer for unreadable files
			}
			rel, _ := filepath.Rel(root.dir, path)
			file := root.label + "/" + filepath.ToSlash(rel)
			for _, c := range res.Conversations {
				eachText(c, func(p *string) {
					for _, sp := range r.find(*p) {
						counts[file+"\t"+sp.id]++
						log = append(log, fmt.Sprintf("%-60s %-26s %s", file, sp.id, context12(*p, sp)))
					}
				})
			}
			return nil
		})
		if err != nil {
			t.Fatalf("parse %s: %v", root.dir, err)
		}
	}
	for _, l := range log {
		t.Log(l)
	}

	var got []string
	for k, n := range counts {
		got = append(got, fmt.Sprintf("%s\t%d", k, n))
	}
	sort.Strings(got)
	if golden.Updating() {
		body := "# file\trule\tredactions — written by go test -run TestCorpusFalsePositives -update; read before committing\n" + strings.Join(got, "\n") + "\n"
		if err := os.WriteFile(corpusGolden, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := readLines(t, corpusGolden)
	// Lines of an absent corpus are not expected.
	var wantHere []string
	for _, l := range want {
		if rootPresent(present, l) {
			wantHere = append(wantHere, l)
		}
	}
	if strings.Join(got, "\n") != strings.Join(wantHere, "\n") {
		t.Errorf("redactions changed (rerun with -update and read the diff):\n got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantHere, "\n"))
	}

	fps := 0
	for _, l := range readLines(t, acceptedFalsePositives) {
		if !rootPresent(present, l) {
			continue
		}
		n, ok := counts[l]
		if !ok {
			t.Errorf("accepted false positive %q no longer found: remove it from %s", l, acceptedFalsePositives)
		}
		fps += n
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	t.Logf("redactions: %d in %d (file, rule) pairs; accepted false positives: %d", total, len(counts), fps)
}

// rootPresent reports whether the golden line l names a file of a corpus
// that is present.
func rootPresent(present map[string]bool, l string) bool {
	for label := range present {
		if strings.HasPrefix(l, label+"/") {
			return true
		}
	}
	return false
}

// readLines returns the lines of a testdata file, without blank lines and
// # comments.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return out
}

// context12 shows 12 bytes either side of sp in s, the secret itself
// replaced by its length, newlines escaped.
func context12(s string, sp span) string {
	a, b := max(0, sp.start-12), min(len(s), sp.end+12)
	q := func(x string) string { return strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(x) }
	return fmt.Sprintf("%s«%d bytes»%s", q(s[a:sp.start]), sp.end-sp.start, q(s[sp.end:b]))
}
