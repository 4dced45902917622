// Package bench generates a deterministic corpus of realistic conversations
// and measures convsearch against it: indexing, syncing, querying, the whole
// process, and the alternatives (bare Bleve, rg, grep) on the same data.
package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Markers are words planted at known rates so each query class has a
// predictable number of matches at every corpus size.
const (
	RareTerm   = "zygomorphic" // about 1 message in 100,000
	MediumTerm = "quorumlease" // about 1 message in 1,000
	PhraseA    = "connection"  // "connection pool" in about 1 message in 50
	PhraseB    = "pool"
)

// GenOptions configure the corpus.
type GenOptions struct {
	Messages int    // total messages (10k, 100k, 1M)
	Seed     uint64 // fixed by default so every run sees the same corpus
	// ClaudeCodeDir, if set, also writes every conversation as a Claude Code
	// session log under it (projects/<p>/<id>.jsonl), for other tools.
	ClaudeCodeDir string
}

// GenStats describes a generated corpus.
type GenStats struct {
	Files         int   `json:"files"`
	Conversations int   `json:"conversations"`
	Messages      int   `json:"messages"`
	Bytes         int64 `json:"bytes"`      // of the files written in the seed formats
	TextBytes     int64 `json:"text_bytes"` // of message text alone
}

// technical words, mixed into the Zipf vocabulary so topics look real.
var technical = strings.Fields(`index query shard replica bootstrap interval percentile retry backoff jitter
cache eviction latency throughput schema migration lock lease queue worker goroutine channel mutex deadlock
parser token lexer grammar compiler linker allocator heap stack profile benchmark regression histogram
quantile sample variance estimator bias confidence cluster kubernetes terraform state module provider plan
apply rollout canary deploy pipeline artifact container image registry build cache layer volume mount
network socket timeout handshake certificate proxy gateway router endpoint handler middleware session cookie
token refresh oauth scope permission role policy audit event stream topic partition offset consumer
producer snapshot compaction tombstone segment merge flush fsync journal wal checkpoint recovery backup
restore vacuum analyze planner executor join predicate cardinality selectivity statistics histogram bloom
filter trie btree lsm memtable sstable bitmap roaring posting vector embedding cosine ranking relevance`)

// filler words for natural sentences (not stop words only, so the
// vocabulary has a long tail like real text).
var common = strings.Fields(`the we should use it is a to and of in that for this with on as be by if not
can will would could then when but so because which what how why data result value case time change run
test error file code function method type field option default user system service request response`)

// vocabulary returns n words: the common and technical words first (the
// head of the Zipf curve), then made-up words for the long tail.
func vocabulary(r *rand.Rand, n int) []string {
	words := append(append([]string{}, common...), technical...)
	syll := strings.Fields("ka ri to ne mo sa li ven dor pex qua zen tor mil fra gol bin cro del fur hap")
	seen := map[string]bool{}
	for _, w := range words {
		seen[w] = true
	}
	for len(words) < n {
		k := 2 + r.IntN(3)
		var b strings.Builder
		for range k {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		w := b.String()
		if !seen[w] && w != RareTerm && w != MediumTerm {
			seen[w] = true
			words = append(words, w)
		}
	}
	return words
}

type generator struct {
	r     *rand.Rand
	words []string
	zipf  *rand.Zipf
	nmsg  int // messages generated so far, for planting markers
}

func newGenerator(seed uint64) *generator {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	words := vocabulary(r, 30000)
	return &generator{r: r, words: words, zipf: rand.NewZipf(r, 1.07, 2, uint64(len(words)-1))}
}

func (g *generator) sentence() string {
	n := 8 + g.r.IntN(14)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.words[g.zipf.Uint64()]
	}
	s := strings.Join(parts, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// text returns a message body of about target bytes, with planted markers,
// sometimes a code block.
func (g *generator) text(target int) string {
	var b strings.Builder
	for b.Len() < target {
		b.WriteString(g.sentence())
		b.WriteByte(' ')
	}
	g.nmsg++
	if g.nmsg%100000 == 77 {
		b.WriteString("The " + RareTerm + " layout settled it. ")
	}
	if g.nmsg%1000 == 13 {
		b.WriteString("We renewed the " + MediumTerm + " before the deadline. ")
	}
	if g.nmsg%50 == 7 {
		b.WriteString("The " + PhraseA + " " + PhraseB + " was exhausted under load. ")
	}
	if g.r.IntN(100) < 15 {
		fmt.Fprintf(&b, "\n\n```go\nfunc %s(ctx context.Context) error {\n\treturn %s.%s(ctx, %d)\n}\n```\n",
			g.words[g.r.IntN(2000)], g.words[g.r.IntN(500)], g.words[g.r.IntN(500)], g.r.IntN(1000))
	}
	return strings.TrimSpace(b.String())
}

type genMessage struct {
	Role      string
	Content   string
	Time      time.Time
	ToolName  string
	ToolArgs  string
	ToolOut   string
	Thinking  string
	Timestamp string
}

type genConversation struct {
	ID      string
	Title   string
	Project string
	Date    time.Time
	Msgs    []genMessage
}

func (g *generator) conversation(i, nmsgs int) genConversation {
	start := time.Date(2024, 1, 1, 8, 0, 0, 0, time.UTC).Add(time.Duration(g.r.IntN(700*24)) * time.Hour)
	c := genConversation{
		ID:      fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", g.r.Uint32(), i&0xffff, g.r.IntN(0xfff), g.r.IntN(0xfff), g.r.Uint64()&0xffffffffffff),
		Title:   strings.TrimSuffix(g.sentence(), "."),
		Project: fmt.Sprintf("project-%02d", g.r.IntN(40)),
		Date:    start,
	}
	if len(c.Title) > 70 {
		c.Title = c.Title[:70]
	}
	t := start
	for j := range nmsgs {
		t = t.Add(time.Duration(20+g.r.IntN(300)) * time.Second)
		m := genMessage{Role: "user", Time: t}
		if j%2 == 1 {
			m.Role = "assistant"
		}
		// Message sizes: mostly short, a long tail; about 1.3 KB on average.
		size := 300 + g.r.IntN(1400)
		if g.r.IntN(10) == 0 {
			size += 2000
		}
		m.Content = g.text(size)
		if m.Role == "assistant" && g.r.IntN(5) == 0 {
			m.ToolName = []string{"read_file", "run_command", "search_code"}[g.r.IntN(3)]
			m.ToolArgs = fmt.Sprintf(`{"path":"src/%s/%s.go"}`, g.words[g.r.IntN(300)], g.words[g.r.IntN(3000)])
			var out strings.Builder
			for k := range 3 + g.r.IntN(8) {
				fmt.Fprintf(&out, "%d: %s %s = %s(%d)\n", k+1, g.words[g.r.IntN(100)], g.words[g.r.IntN(3000)], g.words[g.r.IntN(3000)], g.r.IntN(100))
			}
			m.ToolOut = out.String()
		}
		c.Msgs = append(c.Msgs, m)
	}
	return c
}

// Generate writes a corpus of about opts.Messages messages under dir in the
// seed formats (portable JSON, personalagent JSONL with .meta.json, fnord
// v1), one conversation per file, 20 to 180 messages each.
func Generate(dir string, opts GenOptions) (*GenStats, error) {
	if opts.Seed == 0 {
		opts.Seed = 20261122
	}
	g := newGenerator(opts.Seed)
	st := &GenStats{}
	for i := 0; st.Messages < opts.Messages; i++ {
		n := min(20+g.r.IntN(161), opts.Messages-st.Messages)
		c := g.conversation(i, n)
		var (
			files []string
			err   error
		)
		switch i % 10 {
		case 0, 1, 2, 3:
			files, err = writePortable(dir, i, c)
		case 4, 5, 6:
			files, err = writePersonalAgent(dir, i, c)
		default:
			files, err = writeFnord(dir, i, c)
		}
		if err != nil {
			return nil, err
		}
		if opts.ClaudeCodeDir != "" {
			if _, err := writeClaudeCode(opts.ClaudeCodeDir, c); err != nil {
				return nil, err
			}
		}
		for _, f := range files {
			info, err := os.Stat(f)
			if err != nil {
				return nil, err
			}
			st.Bytes += info.Size()
		}
		st.Files++
		st.Conversations++
		st.Messages += len(c.Msgs)
		for _, m := range c.Msgs {
			st.TextBytes += int64(len(m.Content) + len(m.ToolOut))
		}
	}
	return st, nil
}

// shard spreads files over folders of at most 500, as real stores do.
func shard(dir, kind string, i int) (string, error) {
	d := filepath.Join(dir, kind, fmt.Sprintf("%03d", i/500))
	return d, os.MkdirAll(d, 0o755)
}

func writeJSON(path string, v any) error { return writeJSONLines(path, v) }

// writeJSONLines writes each value as one line of JSON: a JSON Lines file,
// or with one value a JSON file.
func writeJSONLines(path string, values ...any) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, v := range values {
		if err := enc.Encode(v); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writePortable(dir string, i int, c genConversation) ([]string, error) {
	d, err := shard(dir, "portable/conversations", i)
	if err != nil {
		return nil, err
	}
	type msg struct {
		Role      string `json:"role"`
		Content   string `json:"content"`
		Timestamp string `json:"timestamp"`
	}
	msgs := make([]msg, 0, len(c.Msgs))
	for _, m := range c.Msgs {
		content := m.Content
		if m.ToolName != "" {
			content += "\n\n[" + m.ToolName + "] " + m.ToolArgs + "\n" + m.ToolOut
		}
		msgs = append(msgs, msg{m.Role, content, m.Time.Format("2006-01-02T15:04:05.000000")})
	}
	id := c.Date.Format("20060102") + "-" + c.ID[:8]
	path := filepath.Join(d, id+".json")
	return []string{path}, writeJSON(path, portableDoc(id, c.Title, c.Project, "bench", c.Date, msgs))
}

// portableDoc is a conversation in the portable format, as the generators
// write it: its messages (any JSON array of them), a project and a tag.
func portableDoc(id, title, project, tag string, date time.Time, msgs any) map[string]any {
	return map[string]any{
		"id": id, "date": date.Format("2006-01-02T15:04:05"), "title": title, "messages": msgs,
		"metadata": map[string]any{"project": project, "tags": []string{tag}, "source": "bench"},
	}
}

func writePersonalAgent(dir string, i int, c genConversation) ([]string, error) {
	d, err := shard(dir, "personalagent", i)
	if err != nil {
		return nil, err
	}
	stem := c.Date.Format("20060102150405") + fmt.Sprintf("%03d", i%1000)
	path := filepath.Join(d, stem+".jsonl")
	lines := make([]any, 0, len(c.Msgs))
	for _, m := range c.Msgs {
		line := map[string]any{"role": m.Role, "content": m.Content, "ts": m.Time.Format(time.RFC3339)}
		if m.ToolName != "" {
			line["tool_calls"] = []map[string]any{{"id": "call_" + stem, "name": m.ToolName, "arguments": json.RawMessage(m.ToolArgs)}}
			line["tool_results"] = []map[string]any{{"tool_call_id": "call_" + stem, "content": m.ToolOut}}
		}
		lines = append(lines, line)
	}
	if err := writeJSONLines(path, lines...); err != nil {
		return nil, err
	}
	meta := filepath.Join(d, stem+".meta.json")
	err = writeJSON(meta, map[string]any{"id": c.ID, "title": c.Title, "created_at": c.Date.Format(time.RFC3339), "updated_at": c.Msgs[len(c.Msgs)-1].Time.Format(time.RFC3339), "message_count": len(c.Msgs)})
	return []string{path, meta}, err
}

func writeFnord(dir string, i int, c genConversation) ([]string, error) {
	d := filepath.Join(dir, "fnord", "projects", c.Project, "conversations")
	if err := os.MkdirAll(d, 0o755); err != nil {
		return nil, err
	}
	var msgs []any
	for k, m := range c.Msgs {
		msgs = append(msgs, map[string]any{"role": m.Role, "content": m.Content})
		if m.ToolName != "" {
			call := fmt.Sprintf("call_%d_%d", i, k)
			msgs = append(msgs,
				map[string]any{"type": "function_call", "call_id": call, "name": m.ToolName, "arguments": m.ToolArgs},
				map[string]any{"type": "function_call_output", "call_id": call, "output": m.ToolOut})
		}
	}
	path := filepath.Join(d, c.ID+".json")
	return []string{path}, writeJSON(path, map[string]any{
		"version": 1, "timestamp": c.Date.Unix(), "messages": msgs,
		"metadata": map[string]any{"title": c.Title}, "memory": []any{}, "tasks": map[string]any{},
	})
}

// writeClaudeCode writes c as a Claude Code session log, the lines other
// tools read: {"type","sessionId","timestamp","message":{"role","content"}}.
func writeClaudeCode(dir string, c genConversation) ([]string, error) {
	d := filepath.Join(dir, "projects", "-home-bench-"+c.Project)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(d, c.ID+".jsonl")
	lines := make([]any, 0, len(c.Msgs))
	for k, m := range c.Msgs {
		content := m.Content
		if m.ToolOut != "" {
			content += "\n" + m.ToolOut
		}
		lines = append(lines, map[string]any{
			"type": m.Role, "sessionId": c.ID, "uuid": fmt.Sprintf("%s-%d", c.ID[:8], k), "timestamp": m.Time.Format(time.RFC3339Nano),
			"cwd": "/home/bench/" + c.Project, "message": map[string]any{"role": m.Role, "content": content},
		})
	}
	return []string{path}, writeJSONLines(path, lines...)
}

// LiveConversation is a small portable conversation holding word, for
// timing how soon a written file becomes searchable.
func LiveConversation(i int, word string) string {
	doc := map[string]any{
		"id": fmt.Sprintf("20250101-live%04d", i%10000), "date": "2025-01-01T10:00:00", "title": "live conversation " + word,
		"messages": []map[string]any{
			{"role": "user", "content": "Does the watcher pick up " + word + " quickly?", "timestamp": "2025-01-01T10:00:00"},
			{"role": "assistant", "content": "It should: the file was just written.", "timestamp": "2025-01-01T10:00:05"},
		},
	}
	b, _ := json.Marshal(doc)
	return string(b)
}
