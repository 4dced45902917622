package rao

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers/parsertest"
)

func TestDetect(t *testing.T) {
	const log = "/home/u/.local/share/R/rstudio-ai/conversations/conversation_3/conversation_log.json"
	tests := []struct {
		name string
		path string
		head string
		want bool
	}{
		{"new log", log, "[]\n", true},
		{"new log with spaces", log, "  [ ]  \r\n", true},
		{"bom", log, "\xef\xbb\xbf[{\"id\":1,\"role\":\"user\",\"content\":\"hi\"}]", true},
		{"user first", log, `[{"id":1,"role":"user","content":"x","original_query":true}]`, true},
		{"output first", log, `[{"id":1,"type":"function_call_output","call_id":"call_1","output":"ok"}]`, true},
		{"pretty", log, "[\n  {\n    \"id\": 1,\n    \"related_to\": {}\n  }\n]", true},
		{"cut mid-json", log, `[{"id":1,"role":"user","content":"a very long question that the head cuts`, true},
		{"windows path", `C:\Users\u\AppData\Roaming\R\data\R\rstudio-ai\conversations\conversation_1\conversation_log.json`, `[{"role":"user"}]`, true},
		{"upper-case name", "/x/Conversation_Log.JSON", `[{"role":"user"}]`, true},

		{"other name", "/x/conversation.json", `[{"id":1,"role":"user","content":"x"}]`, false},
		{"name only", "/x/conversation_log.json.bak", `[{"role":"user"}]`, false},
		{"object", log, `{"messages":[{"role":"user"}]}`, false},
		{"empty object", log, `{}`, false},
		{"empty file", log, ``, false},
		{"bare bracket", log, `[`, false},
		{"numbers", log, `[1,2,3]`, false},
		{"strings", log, `["role"]`, false},
		{"no rao key", log, `[{"name":"x","value":1}]`, false},
		{"array then text", log, `[] trailing`, false},
		{"jsonl", log, "{\"role\":\"user\"}\n{\"role\":\"assistant\"}\n", false},
	}
	p := New()
	for _, tt := range tests {
		if got := p.Detect(tt.path, []byte(tt.head)); got != tt.want {
			t.Errorf("%s: Detect(%s, %.40q) = %v, want %v", tt.name, tt.path, tt.head, got, tt.want)
		}
	}
}

// TestDetectClaimsOnlyRaoLogs runs Detect over every file of the shared
// corpus and of every family's examples: only rao conversation logs may be
// claimed.
func TestDetectClaimsOnlyRaoLogs(t *testing.T) {
	if parsertest.DetectTree(t, New(), func(path string) bool {
		return filepath.Base(path) == logName && (strings.Contains(path, "/rao/") || strings.HasPrefix(path, "testdata"))
	}, "../../testdata/corpus", "../../examples", "testdata") == 0 {
		t.Error("no file of this family under the roots: the test checked nothing")
	}
}

func TestCompanions(t *testing.T) {
	log := filepath.Join("ai", "conversations", "conversation_2", logName)
	got := New().Companions(log)
	want := []string{
		filepath.Join("ai", "conversations", "conversation_2", "summaries.json"),
		filepath.Join("ai", "conversations", "conversation_2", "file_changes.json"),
		filepath.Join("ai", "conversations", "conversation_2", "conversation_diffs.json"),
		filepath.Join("ai", "conversations", "conversation_2", "attachments.csv"),
		filepath.Join("ai", "conversations", "conversation_2", "script_history.tsv"),
		filepath.Join("ai", "conversations", "conversation_names.csv"),
		filepath.Join("ai", "conversation_names.csv"),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Companions(%s) =\n%s\nwant\n%s", log, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestDefaultRoots(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": "/xdg", "APPDATA": "/appdata"}
	got := New().DefaultRoots("/home/u", func(k string) string { return env[k] })
	for _, want := range []string{
		"/xdg/R/rstudio-ai",
		"/xdg/rstudio-ai",
		"/home/u/.local/share/R/rstudio-ai",
		"/home/u/Library/Application Support/org.R-project.R/R/rstudio-ai",
		"/home/u/.rstudio/ai",
		"/appdata/R/data/R/rstudio-ai",
	} {
		found := false
		for _, g := range got {
			found = found || g == filepath.FromSlash(want)
		}
		if !found {
			t.Errorf("DefaultRoots: %s missing from %v", want, got)
		}
	}
	seen := map[string]bool{}
	for _, g := range got {
		if seen[g] {
			t.Errorf("DefaultRoots: %s twice", g)
		}
		seen[g] = true
	}
	if got := New().DefaultRoots("", func(string) string { return "" }); len(got) != 0 {
		t.Errorf("DefaultRoots with no home and no environment = %v, want none", got)
	}
}
