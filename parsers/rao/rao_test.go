package rao

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/parsers/parsertest"
)

// No real rao file is public: the cases are hand-written fixtures built from
// the spec and the R code that writes the files (see testdata/), and the
// example of examples/rao/. Counts, roles, ids and titles were worked out
// from the JSON with jq/python, not copied from the parser's output.
const (
	fixtures = "testdata/rstudio-ai/conversations/"
	examples = "../../examples/rao/rstudio-ai/conversations/"
)

var cases = []struct {
	name string
	tc   parsertest.Case
}{
	{"full", parsertest.Case{
		File:   fixtures + "conversation_1/conversation_log.json",
		Golden: "conversation_1.json",
		Want: []parsertest.Want{{
			ID:       "00000000-14613214",
			Title:    "Penguin bill length summary",
			Messages: 16,
			Roles:    "uaataatatuuauaua",
		}},
	}},
	{"new-log", parsertest.Case{
		File:   fixtures + "conversation_2/conversation_log.json",
		Golden: "-",
	}},
	{"log-only", parsertest.Case{
		File:   fixtures + "conversation_3/conversation_log.json",
		Golden: "conversation_3.json",
		Want: []parsertest.Want{{
			ID:       "00000000-a43a2c4c",
			Title:    "My mixed model lmer(y ~ treatment + (1 | site)) gives a singular fit warning on…",
			Messages: 4,
			Roles:    "uaua",
		}},
	}},
	{"damaged", parsertest.Case{
		File:     fixtures + "conversation_4/conversation_log.json",
		Golden:   "conversation_4.json",
		Warnings: 3, // log element 42, summaries.json cut short, file_changes.json "changes": "none"
		Want: []parsertest.Want{{
			ID:       "00000000-e893c7eb",
			Title:    `Broken side files, "quoted" name`,
			Messages: 4,
			Roles:    "uaua",
		}},
	}},
	{"legacy", parsertest.Case{
		File:   "testdata/legacy-ai/conversation_7/conversation_log.json",
		Golden: "conversation_7.json",
		Want: []parsertest.Want{{
			ID:       "00000000-193b7cf5",
			Title:    `Tidy model of "mtcars" fuel use, by weight`,
			Messages: 9,
			Roles:    "usataatua",
		}},
	}},
	{"example-bootstrap", parsertest.Case{
		File:   examples + "conversation_1/conversation_log.json",
		Golden: "example_conversation_1.json",
		Want: []parsertest.Want{{
			ID:       "00000000-fe95f8dd",
			Title:    "BCa vs percentile bootstrap CI for median response time",
			Messages: 16,
			Roles:    "uaataaatatuauaua",
		}},
	}},
	{"example-imputation", parsertest.Case{
		File:   examples + "conversation_2/conversation_log.json",
		Golden: "example_conversation_2.json",
		Want: []parsertest.Want{{
			ID:       "00000000-3617535f",
			Title:    "Missing household income: multiple imputation vs complete cases",
			Messages: 11,
			Roles:    "uatauaatata",
		}},
	}},
}

// pinnedMtime is given to every log before the suite runs: a log with no
// dated side file takes its date from its mtime, which a checkout sets to
// "now", and the golden files must not change with it.
var pinnedMtime = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func pinMtimes(t *testing.T) {
	t.Helper()
	for _, c := range cases {
		if err := os.Chtimes(c.tc.File, pinnedMtime, pinnedMtime); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSuite(t *testing.T) {
	pinMtimes(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parsertest.Run(t, New(), []parsertest.Case{c.tc})
		})
	}
}

func FuzzParse(f *testing.F) {
	var seeds []string
	for _, c := range cases {
		seeds = append(seeds, c.tc.File)
	}
	parsertest.Fuzz(f, New(), logName, seeds...)
}

func TestCasesCoverEveryLog(t *testing.T) {
	// Every log under testdata/ and examples/ must be a case of the suite.
	listed := map[string]bool{}
	for _, c := range cases {
		listed[filepath.Clean(c.tc.File)] = true
	}
	for _, root := range []string{"testdata", "../../examples/rao"} {
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && d.Name() == logName && !listed[filepath.Clean(path)] {
				t.Errorf("%s is not a case of the suite", path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzSideFiles feeds arbitrary bytes to every side file of a conversation
// (FuzzParse's log has none beside it): a side file may only ever warn.
func FuzzSideFiles(f *testing.F) {
	for _, c := range cases {
		for _, side := range New().Companions(c.tc.File) {
			if data, err := os.ReadFile(side); err == nil {
				f.Add(data)
			}
		}
	}
	const log = `[{"id":1,"role":"user","content":"q","original_query":true},{"id":5,"role":"assistant","function_call":{"name":"edit_file","arguments":"{\"filename\":\"a.R\"}","call_id":"c1"},"related_to":1}]`
	// One folder per fuzzing process, rewritten for each input: the function
	// runs inputs one at a time, and a new temp dir per input costs more than
	// the parse.
	dir := filepath.Join(f.TempDir(), "conversations", "conversation_1")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		f.Fatal(err)
	}
	path := filepath.Join(dir, logName)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, side := range append(New().Companions(path), path) {
			text := data
			if side == path {
				text = []byte(log)
			}
			if err := os.WriteFile(side, text, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		res, err := New().Parse(context.Background(), path, strings.NewReader(log))
		if err != nil {
			t.Fatalf("a side file made the parse fail: %v", err)
		}
		if len(res.Conversations) != 1 || len(res.Conversations[0].Messages) != 2 {
			t.Fatalf("side files changed the messages: %+v", res.Conversations)
		}
		if err := parsertest.Invariants(res); err != nil {
			t.Error(err)
		}
		for _, w := range res.Warnings {
			if !strings.Contains(w.Error(), path) {
				t.Errorf("warning does not name the log: %v", w)
			}
		}
	})
}
