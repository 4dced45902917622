package bench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/query"
)

func TestReadQuestions(t *testing.T) {
	tests := []struct {
		name, text string
		want       int
		err        string
	}{
		{"two and a comment", "# c\n{\"q\":\"a?\",\"ids\":[\"x\"],\"half\":\"tune\"}\n\n{\"q\":\"b\",\"ids\":[\"y\",\"z\"],\"half\":\"held\",\"project\":\"p\"}\n", 2, ""},
		{"no ids", `{"q":"a?","half":"tune"}`, 0, "needs q and ids"},
		{"bad half", `{"q":"a?","ids":["x"],"half":"train"}`, 0, "use tune or held"},
		{"not json", `q: a`, 0, ":1:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "q.jsonl")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			qs, err := ReadQuestions(path)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil || len(qs) != tt.want {
				t.Fatalf("got %d questions, %v; want %d", len(qs), err, tt.want)
			}
		})
	}
}

// The project's question files parse, and each set has questions of both
// halves; a dialog's questions name sessions that are there.
func TestProjectQuestionFiles(t *testing.T) {
	root := filepath.Join("..", "testdata", "recall")
	sets := map[string][]string{"examples": {filepath.Join(root, "examples.jsonl")}, "corpus": {filepath.Join(root, "corpus.jsonl")}}
	for _, name := range []string{"questions", "dated"} {
		files, err := filepath.Glob(filepath.Join(root, "dialogs", "*", name+".jsonl"))
		if err != nil || len(files) < 4 {
			t.Fatalf("dialogs' %s.jsonl: %v (%v), want one a dialog", name, files, err)
		}
		sets["dialogs "+name] = files
	}
	for set, files := range sets {
		var tune, held int
		for _, f := range files {
			qs, err := ReadQuestions(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range qs {
				if q.Half == HalfTune {
					tune++
				} else {
					held++
				}
				if dir := filepath.Dir(f); filepath.Base(filepath.Dir(dir)) == "dialogs" {
					for _, id := range q.IDs {
						if _, err := os.Stat(filepath.Join(dir, "conversations", id+".json")); err != nil {
							t.Errorf("%s: %q names %s, which is not a session of the dialog", f, q.Q, id)
						}
					}
				}
			}
		}
		if tune == 0 || held == 0 {
			t.Errorf("%s: %d tune and %d held questions, want both halves", set, tune, held)
		}
	}
}

func TestGenerateLongMemIsDeterministic(t *testing.T) {
	o := LongMemOptions{Seed: 3, Dialogs: 2, Sessions: 4, Facts: 6, Half: HalfTune}
	a, err := GenerateLongMem(t.TempDir(), o)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	b, err := GenerateLongMem(dir, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) == 0 || !slices.EqualFunc(a, b, func(x, y Question) bool {
		return x.Q == y.Q && slices.Equal(x.IDs, y.IDs) && x.Project == y.Project
	}) {
		t.Fatalf("two runs of one seed differ or are empty: %d and %d questions", len(a), len(b))
	}
	files, _ := filepath.Glob(filepath.Join(dir, "conversations", "*.json"))
	if len(files) != o.Dialogs*o.Sessions {
		t.Errorf("%d session files, want %d", len(files), o.Dialogs*o.Sessions)
	}
	for _, q := range b {
		if _, err := os.Stat(filepath.Join(dir, "conversations", q.IDs[0]+".json")); err != nil {
			t.Errorf("question %q names a session with no file: %v", q.Q, err)
		}
	}
}

// fixed answers a search with the given conversations in order.
type fixed []string

func (f fixed) Search(_ context.Context, _ query.Request) (*query.Result, error) {
	res := &query.Result{}
	for _, id := range f {
		res.Hits = append(res.Hits, query.Hit{ConversationID: id})
	}
	return res, nil
}

func TestScore(t *testing.T) {
	tests := []struct {
		name         string
		hits         []string
		ids          []string
		r1, r5, mrrx float64
	}{
		{"first", []string{"a", "b"}, []string{"a"}, 1, 1, 1},
		{"third", []string{"x", "y", "a"}, []string{"a"}, 0, 1, 1.0 / 3},
		{"any of two", []string{"x", "b", "a"}, []string{"a", "b"}, 0, 1, 0.5},
		{"sixth", []string{"1", "2", "3", "4", "5", "a"}, []string{"a"}, 0, 0, 1.0 / 6},
		{"absent", []string{"x"}, []string{"a"}, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Score(context.Background(), fixed(tt.hits), []Question{{Q: "q", IDs: tt.ids, Half: HalfTune}}, false)
			if err != nil {
				t.Fatal(err)
			}
			if f.R1 != tt.r1 || f.R5 != tt.r5 || f.MRR != tt.mrrx {
				t.Errorf("R@1 %v R@5 %v MRR %v, want %v %v %v", f.R1, f.R5, f.MRR, tt.r1, tt.r5, tt.mrrx)
			}
		})
	}
}

// A file shaped as LoCoMo's (original text, written for this test) becomes
// a session a file and a held question per QA item with evidence.
func TestConvertLoCoMo(t *testing.T) {
	dir := t.TempDir()
	qs, err := ConvertLoCoMo(filepath.Join("testdata", "locomo-shaped.json"), dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Question{
		{Q: "When did Ines start learning the accordion?", IDs: []string{"conv-x1-s01"}, Half: HalfHeld, Project: "conv-x1"},
		{Q: "What did Tomas bake for the street party?", IDs: []string{"conv-x1-s02"}, Half: HalfHeld, Project: "conv-x1"},
		{Q: "Which hobbies do Ines and Tomas share?", IDs: []string{"conv-x1-s01", "conv-x1-s02"}, Half: HalfHeld, Project: "conv-x1"},
		{Q: "Where did Ruth move to?", IDs: []string{"conv-x2-s01"}, Half: HalfHeld, Project: "conv-x2"},
	}
	if !slices.EqualFunc(qs, want, func(a, b Question) bool {
		return a.Q == b.Q && slices.Equal(a.IDs, b.IDs) && a.Half == b.Half && a.Project == b.Project
	}) {
		t.Errorf("questions:\n got %+v\nwant %+v", qs, want)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "conversations", "*.json"))
	if len(files) != 3 {
		t.Fatalf("%d session files, want 3: %v", len(files), files)
	}
	b, err := os.ReadFile(filepath.Join(dir, "conversations", "conv-x1-s01.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Date     string `json:"date"`
		Messages []struct {
			Role, Author, Content string
		} `json:"messages"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Date != "2023-03-12T19:15:00" {
		t.Errorf("date %q, want 2023-03-12T19:15:00", doc.Date)
	}
	if len(doc.Messages) != 5 || doc.Messages[0].Role != "user" || doc.Messages[1].Role != "assistant" || doc.Messages[1].Author != "Tomas" {
		t.Errorf("messages: %+v", doc.Messages)
	}
	if c := doc.Messages[2].Content; !strings.HasSuffix(c, "[shares a photo: a photo of a red accordion on a chair]") {
		t.Errorf("a shared photo's caption is lost: %q", c)
	}
}

func TestConvertLoCoMoRefusesOtherFiles(t *testing.T) {
	for name, text := range map[string]string{"not json": "{", "no questions": `[{"sample_id":"a","qa":[],"conversation":{}}]`} {
		t.Run(name, func(t *testing.T) {
			src := filepath.Join(t.TempDir(), "x.json")
			if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := ConvertLoCoMo(src, t.TempDir()); err == nil || !strings.Contains(err.Error(), src) {
				t.Errorf("err = %v, want one naming %s", err, src)
			}
		})
	}
}
