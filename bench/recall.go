package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/convsearch/convsearch/daemon"
	"github.com/convsearch/convsearch/query"
)

// Question is one line of a question file (JSON Lines): a question asked
// verbatim and the conversations that answer it. Half is "tune" (ranking
// may be tuned on it) or "held" (written before tuning, never tuned on).
// Project, when set, restricts the search to one project, as a long-memory
// benchmark asks within one dialog's sessions.
type Question struct {
	Q       string   `json:"q"`
	IDs     []string `json:"ids"`
	Half    string   `json:"half"`
	Project string   `json:"project,omitempty"`
}

// Halves of a question set.
const (
	HalfTune = "tune"
	HalfHeld = "held"
)

// ReadQuestions reads a question file: one JSON object a line; blank lines
// and lines starting with # are skipped.
func ReadQuestions(path string) ([]Question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("questions: %w", err)
	}
	defer f.Close()
	var qs []Question
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var q Question
		if err := json.Unmarshal([]byte(line), &q); err != nil {
			return nil, fmt.Errorf("questions: %s:%d: %w", path, n, err)
		}
		if q.Q == "" || len(q.IDs) == 0 {
			return nil, fmt.Errorf("questions: %s:%d: a question needs q and ids", path, n)
		}
		if q.Half != HalfTune && q.Half != HalfHeld {
			return nil, fmt.Errorf("questions: %s:%d: half %q: use tune or held", path, n, q.Half)
		}
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("questions: %s: %w", path, err)
	}
	return qs, nil
}

// RecallSet is a corpus and the questions asked of it.
type RecallSet struct {
	Name      string
	Roots     []string // folders of conversation files
	Questions []Question
}

// RecallFigures are one set's figures for one half, at the conversation
// level: R@k is the share of questions with an expected conversation among
// the first k conversations; MRR the mean of 1/rank of the first expected
// one (0 when not in the first 10).
type RecallFigures struct {
	Set       string   `json:"set"`
	Half      string   `json:"half"`
	Questions int      `json:"questions"`
	R1        float64  `json:"r_at_1"`
	R5        float64  `json:"r_at_5"`
	MRR       float64  `json:"mrr"`
	Misses    []string `json:"misses,omitempty"` // questions not at rank 1, with their rank
}

// RecallOptions configure RunRecall.
type RecallOptions struct {
	Dir    string // work folder: one index per set is built under it
	Logger *slog.Logger
	Misses bool // list the questions not answered at rank 1
}

// RunRecall indexes each set's roots into a fresh index and asks its
// questions, verbatim, as a person or an agent would: the default search,
// grouped by conversation.
func RunRecall(ctx context.Context, sets []RecallSet, o RecallOptions) ([]RecallFigures, error) {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	var out []RecallFigures
	for _, set := range sets {
		data := filepath.Join(o.Dir, "recall-"+set.Name)
		if err := os.RemoveAll(data); err != nil {
			return nil, fmt.Errorf("recall: %w", err)
		}
		e, closeIx, err := indexRoots(ctx, data, set.Roots)
		if err != nil {
			return nil, fmt.Errorf("recall %s: %w", set.Name, err)
		}
		log.Info("recall: asking", "set", set.Name, "questions", len(set.Questions))
		for _, half := range []string{HalfTune, HalfHeld} {
			var qs []Question
			for _, q := range set.Questions {
				if q.Half == half {
					qs = append(qs, q)
				}
			}
			if len(qs) == 0 {
				continue
			}
			f, err := Score(ctx, e, qs, o.Misses)
			if err != nil {
				closeIx()
				return nil, fmt.Errorf("recall %s: %w", set.Name, err)
			}
			f.Set, f.Half = set.Name, half
			out = append(out, f)
		}
		closeIx()
	}
	return out, nil
}

// indexRoots builds an index of roots in data through daemon.OpenStore, as
// `convsearch index` does (the same registry, extractor and redactor: the
// figures are of what a user's search sees), and returns an engine over it.
func indexRoots(ctx context.Context, data string, roots []string) (*query.Engine, func(), error) {
	st, err := daemon.OpenStore(daemon.StoreOptions{Dir: data})
	if err != nil {
		return nil, nil, err
	}
	e, err := st.Engine()
	if err == nil {
		_, err = st.Ingester.Reconcile(ctx, roots)
	}
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return e, func() { st.Close() }, nil
}

// Asker is what Score asks: a query.Engine.
type Asker interface {
	Search(ctx context.Context, r query.Request) (*query.Result, error)
}

// Score asks every question and computes the figures.
func Score(ctx context.Context, s Asker, qs []Question, misses bool) (RecallFigures, error) {
	f := RecallFigures{Questions: len(qs)}
	for _, q := range qs {
		req := query.Request{Query: q.Q, Group: true, Limit: 10, NoHighlight: true}
		if q.Project != "" {
			req.Projects = []string{q.Project}
		}
		res, err := s.Search(ctx, req)
		var se *query.SyntaxError
		if errors.As(err, &se) {
			// A question is not query syntax: a stray quote or bracket
			// counts as a miss, which is what a person would get.
			res, err = &query.Result{}, nil
		}
		if err != nil {
			return f, fmt.Errorf("question %q: %w", q.Q, err)
		}
		rank := 0
		for i, h := range res.Hits {
			if slices.Contains(q.IDs, h.ConversationID) {
				rank = i + 1
				break
			}
		}
		if rank == 1 {
			f.R1++
		}
		if rank >= 1 && rank <= 5 {
			f.R5++
		}
		if rank > 0 {
			f.MRR += 1 / float64(rank)
		}
		if misses && rank != 1 {
			f.Misses = append(f.Misses, fmt.Sprintf("%d\t%s", rank, q.Q))
		}
	}
	if n := float64(len(qs)); n > 0 {
		f.R1, f.R5, f.MRR = f.R1/n, f.R5/n, f.MRR/n
	}
	return f, nil
}

// RecallSets returns the project's sets, read from repo (the checkout's
// root): examples/ and testdata/corpus with their hand-written questions
// under testdata/recall; the hand-written dialogs of testdata/recall/dialogs
// twice, with their plain questions (dialogs) and their questions that say
// when (dialogs-dated); and the long-memory corpus generated under work
// (its tune half from one seed, its held half from another), with the
// speakers' names in the text and in the author field.
func RecallSets(repo, work string) ([]RecallSet, error) {
	var sets []RecallSet
	for _, s := range []struct{ name, root string }{
		{"examples", "examples"},
		{"corpus", "testdata/corpus"},
	} {
		qs, err := ReadQuestions(filepath.Join(repo, "testdata", "recall", s.name+".jsonl"))
		if err != nil {
			return nil, err
		}
		sets = append(sets, RecallSet{Name: s.name, Roots: []string{filepath.Join(repo, s.root)}, Questions: qs})
	}
	// Hand-written dialogs between two people, a dialog a project and a
	// session a file, with their questions beside them: questions.jsonl
	// the dialogs set, dated.jsonl (questions that say when) its own.
	for _, s := range []struct{ name, file string }{{"dialogs", "questions.jsonl"}, {"dialogs-dated", "dated.jsonl"}} {
		files, _ := filepath.Glob(filepath.Join(repo, "testdata", "recall", "dialogs", "*", s.file))
		if len(files) == 0 {
			continue
		}
		var qs []Question
		var roots []string
		for _, f := range files {
			q, err := ReadQuestions(f)
			if err != nil {
				return nil, err
			}
			qs = append(qs, q...)
			roots = append(roots, filepath.Join(filepath.Dir(f), "conversations"))
		}
		sets = append(sets, RecallSet{Name: s.name, Roots: roots, Questions: qs})
	}
	// The long-memory corpus twice: the speakers' names before their text,
	// and in the messages' author field.
	for _, v := range []struct {
		name    string
		authors bool
	}{{"longmem", false}, {"longmem-author", true}} {
		lm := filepath.Join(work, v.name)
		if err := os.RemoveAll(lm); err != nil {
			return nil, fmt.Errorf("%s: %w", v.name, err)
		}
		var qs []Question
		for _, g := range []LongMemOptions{{Seed: 7, Half: HalfTune}, {Seed: 11, Half: HalfHeld}} {
			g.Authors = v.authors
			q, err := GenerateLongMem(filepath.Join(lm, g.Half), g)
			if err != nil {
				return nil, err
			}
			qs = append(qs, q...)
		}
		sets = append(sets, RecallSet{Name: v.name, Roots: []string{lm}, Questions: qs})
	}
	return sets, nil
}

// WriteRecallText prints the figures as a table.
func WriteRecallText(w io.Writer, fs []RecallFigures) {
	fmt.Fprintf(w, "%-14s %-5s %9s %7s %7s %6s\n", "set", "half", "questions", "R@1", "R@5", "MRR")
	for _, f := range fs {
		fmt.Fprintf(w, "%-14s %-5s %9d %6.1f%% %6.1f%% %6.3f\n", f.Set, f.Half, f.Questions, 100*f.R1, 100*f.R5, f.MRR)
		for _, m := range f.Misses {
			fmt.Fprintf(w, "    miss %s\n", m)
		}
	}
}
