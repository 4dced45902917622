package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/convsearch/convsearch/daemon"
)

// These tests run commands in-process through runMain on the real files of
// testdata/corpus and the bundled examples/. The real binary, built once in
// TestMain, runs where a second process is the point: a kill -9, a signal,
// a daemon, an MCP client on a pipe.

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "convsearch-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "convsearch")
	out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

const (
	corpus   = "../../testdata/corpus"
	examples = "../../examples"
)

type result struct {
	stdout, stderr string
	code           int
}

// inCI reports whether the tests run in CI (CI set, as CI services and
// .ci/run set it): there, a test that needs a tool must not skip.
func inCI() bool {
	v := os.Getenv("CI")
	return v != "" && v != "false" && v != "0"
}

// testEnv is the environment every command of a test sees: a private HOME
// and XDG folders, so no test reads or writes the real user's files; the
// rest is the process's own.
func testEnv(home string) map[string]string {
	return map[string]string{
		"HOME": home, "XDG_DATA_HOME": filepath.Join(home, "data"), "XDG_CONFIG_HOME": filepath.Join(home, "config"),
		"CONVSEARCH_DATA": "", "CONVSEARCH_TOKEN": "", "NO_COLOR": "1", "CLAUDE_CONFIG_DIR": "", "CODEX_HOME": "",
	}
}

// cs runs a command in this process, as main would (its exit code, and its
// error on stderr), in testEnv(home).
func cs(t *testing.T, home string, args ...string) result {
	t.Helper()
	vars := testEnv(home)
	var so, se bytes.Buffer
	code := runMain(context.Background(), args, &Env{
		Stdin:  strings.NewReader(""),
		Stdout: &so,
		Stderr: &se,
		Getenv: func(k string) string {
			if v, ok := vars[k]; ok {
				return v
			}
			return os.Getenv(k)
		},
		UserHomeDir: func() (string, error) { return home, nil },
	})
	return result{so.String(), se.String(), code}
}

func TestUsageErrors(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(t.TempDir(), "data")
	for _, args := range [][]string{
		{}, {"nosuchcommand"}, {"parse"}, {"parse", "--nosuchflag", "x"}, {"search"}, {"search", "--sort", "random", "x"},
		{"search", "--since", "yesterday", "x"},
		{"search", "--data-dir", data, ""}, {"search", "--data-dir", data, "  ", " "}, // nothing asked for
		{"search", "--data-dir", data, "since:2025-01-01"},
		{"search", "--data-dir", data, "--role", "weird", "x"},
		{"search", "--data-dir", data, "-n", "0", "x"},
		{"search", "--data-dir", data, "--sort", "newest", "--after", "x", "x"}, // one value of two: Bleve panicked
		{"search", "--data-dir", data, "--sort", "newest", "--after", "IAEYQA,not base64!", "x"},
		{"stats", "--data-dir", data, "extra"},
		{"decisions", "--data-dir", data, "--since", "2026-01-01", "--until", "2020-01-01"},
		{"decisions", "--data-dir", data, "--offset", "-1"},
		{"decisions", "--data-dir", data, "--offset", "10001"},
		{"bench", "recall", "--questions", "q.jsonl"}, // without --root
		{"bench", "recall", "--locomo", "locomo10.json", "--questions", "q.jsonl", "--root", "x"},
	} {
		r := cs(t, home, args...)
		if r.code != 2 {
			t.Errorf("convsearch %v: exit %d, want 2 (stderr %q)", args, r.code, r.stderr)
		}
		if r.stderr == "" {
			t.Errorf("convsearch %v: nothing on stderr", args)
		}
		if strings.Contains(r.stderr, "panic:") || strings.Contains(r.stderr, "goroutine ") {
			t.Errorf("convsearch %v: a crash, not a usage error:\n%s", args, r.stderr)
		}
	}
	r := cs(t, home, "help")
	if r.code != 0 || !strings.Contains(r.stdout, "search") {
		t.Errorf("help: exit %d, stdout %q", r.code, r.stdout)
	}
	for _, args := range [][]string{{"help", "--help"}, {"help", "-h"}, {"--help"}} {
		if r := cs(t, home, args...); r.code != 0 || !strings.Contains(r.stdout, "search") {
			t.Errorf("%v: exit %d, stdout %q", args, r.code, r.stdout)
		}
	}
	r = cs(t, home, "parse", "--help")
	if r.code != 0 || !strings.Contains(r.stdout, "--json") {
		t.Errorf("parse --help: exit %d, stdout %q", r.code, r.stdout)
	}
	// Every command's --help says what it does, subcommands too.
	for _, c := range append(commands(), subcommands()...) {
		args := append(strings.Fields(c.name), "--help")
		r := cs(t, home, args...)
		usage, _, _ := strings.Cut(r.stdout, "Flags:")
		if r.code != 0 || !strings.Contains(usage, "convsearch "+c.name) || strings.Contains(usage, "\n\n.\n") {
			t.Errorf("%v: exit %d, no summary in %q", args, r.code, usage)
		}
	}
}

func TestParseCorpusAndExamples(t *testing.T) {
	home := t.TempDir()
	r := cs(t, home, "parse", "--json", corpus, examples)
	if r.code != 0 {
		t.Fatalf("parse: exit %d\n%s", r.code, r.stderr)
	}
	var convs []struct {
		ID       string            `json:"id"`
		Source   string            `json:"source"`
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &convs); err != nil {
		t.Fatalf("parse --json output is not a JSON array: %v", err)
	}
	if strings.Contains(r.stdout, "iVBORw0KGgo") {
		t.Error("base64 image data in the output")
	}
	bySource := map[string]int{}
	for _, c := range convs {
		bySource[c.Source]++
	}
	// Every family in the corpus and the examples is found.
	for _, s := range []string{"studio", "qcli", "claude-code", "claude-ai", "portable", "personalagent", "fnord"} {
		if bySource[s] == 0 {
			t.Errorf("no %s conversation found (found %v)", s, bySource)
		}
	}
	// The totals on stderr agree with the JSON.
	if !strings.Contains(r.stderr, fmt.Sprintf("%d conversations", len(convs))) {
		t.Errorf("stderr totals %q do not say %d conversations", r.stderr, len(convs))
	}
}

func TestParseMalformed(t *testing.T) {
	home := t.TempDir()
	dir := t.TempDir()
	bad := filepath.Join(dir, "broken.json")
	os.WriteFile(bad, []byte(`{"id": "x", "title": "t", "messages": [`), 0o644)
	good := filepath.Join(corpus, "kiro-cli", "conversation-graphify.json")
	r := cs(t, home, "parse", "--json", bad, good)
	if r.code != 1 {
		t.Errorf("exit %d, want 1", r.code)
	}
	if !strings.Contains(r.stderr, "broken.json") {
		t.Errorf("stderr does not name the file: %q", r.stderr)
	}
	var convs []json.RawMessage
	if err := json.Unmarshal([]byte(r.stdout), &convs); err != nil || len(convs) != 1 {
		t.Errorf("the good file after the bad one: %d conversations (%v), want 1", len(convs), err)
	}
	// An empty file and a folder of junk are reported, never a panic.
	empty := filepath.Join(dir, "empty.json")
	os.WriteFile(empty, nil, 0o644)
	r = cs(t, home, "parse", empty)
	if r.code != 1 || !strings.Contains(r.stderr, "empty.json") || strings.Contains(r.stderr, "panic") {
		t.Errorf("empty file: exit %d, stderr %q", r.code, r.stderr)
	}
}

func TestExportRoundTrip(t *testing.T) {
	home := t.TempDir()
	out := t.TempDir()
	r := cs(t, home, "export", "--to", out, filepath.Join(corpus, "kiro-cli"), filepath.Join(corpus, "claude-ai"))
	if r.code != 0 {
		t.Fatalf("export: exit %d\n%s", r.code, r.stderr)
	}
	var manifest struct {
		Conversations []struct{ ID, File string } `json:"conversations"`
	}
	data, err := os.ReadFile(filepath.Join(out, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	if len(manifest.Conversations) != 7 {
		t.Errorf("manifest lists %d conversations, want 7", len(manifest.Conversations))
	}
	if want := fmt.Sprintf("wrote 7 conversations and index.json to %s\n", out); r.stdout != want {
		t.Errorf("export stdout %q, want %q (the result, on stdout)", r.stdout, want)
	}
	// --json: the same manifest entries, where they were written.
	r = cs(t, home, "export", "--json", "-q", "--to", out, filepath.Join(corpus, "kiro-cli"), filepath.Join(corpus, "claude-ai"))
	var res struct {
		Dir           string
		Index         string
		Written       int
		Conversations []struct{ ID, File string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || r.code != 0 || r.stderr != "" {
		t.Fatalf("export --json: exit %d, %v\n%s\nstderr %s", r.code, err, r.stdout, r.stderr)
	}
	if res.Dir != out || res.Index != filepath.Join(out, "index.json") || res.Written != 7 || !reflect.DeepEqual(res.Conversations, manifest.Conversations) {
		t.Errorf("export --json: %+v, want dir %s and the manifest's entries %+v", res, out, manifest.Conversations)
	}
	// Parsing what export wrote gives the same messages.
	type msg struct {
		Role, Content string
	}
	load := func(args ...string) map[string][]msg {
		r := cs(t, home, append([]string{"parse", "--json"}, args...)...)
		if r.code != 0 {
			t.Fatalf("parse %v: exit %d\n%s", args, r.code, r.stderr)
		}
		var convs []struct {
			ID       string `json:"id"`
			Messages []msg  `json:"messages"`
		}
		json.Unmarshal([]byte(r.stdout), &convs)
		m := map[string][]msg{}
		for _, c := range convs {
			m[c.ID] = c.Messages
		}
		return m
	}
	orig := load(filepath.Join(corpus, "kiro-cli"), filepath.Join(corpus, "claude-ai"))
	back := load(out)
	if len(back) != len(orig) {
		t.Fatalf("%d conversations read back, want %d", len(back), len(orig))
	}
	for id, msgs := range orig {
		got := back[id]
		if fmt.Sprint(got) != fmt.Sprint(msgs) {
			t.Errorf("conversation %s: messages differ after the round trip", id)
		}
	}
}

func stats(t *testing.T, home, data string) map[string]uint64 {
	t.Helper()
	r := cs(t, home, "stats", "--data-dir", data, "--json")
	if r.code != 0 {
		t.Fatalf("stats: exit %d\n%s", r.code, r.stderr)
	}
	var s struct {
		ByKind map[string]uint64 `json:"by_kind"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
		t.Fatal(err)
	}
	return s.ByKind
}

func TestIndexAndSearch(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(t.TempDir(), "data")
	r := cs(t, home, "index", "--data-dir", data, "--root", corpus, "--root", examples)
	if r.code != 0 {
		t.Fatalf("index: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "indexed") {
		t.Errorf("no summary line: %q", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(data, "index.json")); err != nil {
		t.Fatal(err)
	}
	kinds := stats(t, home, data)
	for _, k := range []string{"conversation", "message", "topic", "decision"} {
		if kinds[k] == 0 {
			t.Errorf("no %s documents after indexing (stats %v)", k, kinds)
		}
	}
	// A second run reads nothing again.
	r = cs(t, home, "index", "--data-dir", data, "--root", corpus, "--root", examples, "--json")
	var sum struct {
		Parsed    int `json:"files_parsed"`
		Unchanged int `json:"files_unchanged"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &sum); err != nil {
		t.Fatalf("index --json: %v\n%s", err, r.stdout)
	}
	if sum.Parsed != 0 || sum.Unchanged == 0 {
		t.Errorf("second index run parsed %d files, want 0 (%d unchanged)", sum.Parsed, sum.Unchanged)
	}

	search := func(q string, extra ...string) map[string]any {
		r := cs(t, home, append([]string{"search", "--data-dir", data, "--json", q}, extra...)...)
		if r.code != 0 {
			t.Fatalf("search %q: exit %d\n%s", q, r.code, r.stderr)
		}
		var res map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := search("onkeyup")
	if !strings.Contains(fmt.Sprint(res["hits"]), "LLM Pricing Calculator") {
		t.Errorf("search onkeyup: want the LLM Pricing Calculator conversation, got %v", res["hits"])
	}
	res = search("kubernetes OR tflint OR graphify", "--source", "qcli")
	if n, _ := res["total"].(float64); n == 0 {
		t.Error("no qcli hit for graphify")
	}
	r = cs(t, home, "search", "--data-dir", data, `"unclosed`)
	if r.code != 2 || !strings.Contains(r.stderr, "column") {
		t.Errorf("bad query: exit %d, stderr %q", r.code, r.stderr)
	}
	// Readable output on a pipe: no colour codes, a reference to open it.
	r = cs(t, home, "search", "--data-dir", data, "onkeyup")
	if strings.Contains(r.stdout, "\033[") || !strings.Contains(r.stdout, "convsearch show") {
		t.Errorf("readable output: %q", r.stdout)
	}
}

// TestSearchBringsIndexUpToDate is the README's main command: search --root
// on a fresh machine indexes first.
func TestSearchBringsIndexUpToDate(t *testing.T) {
	home := t.TempDir()
	r := cs(t, home, "search", "--root", examples, "--json", "bootstrap")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(home, "data", "convsearch", "index.json")); err != nil {
		t.Errorf("no index in $XDG_DATA_HOME/convsearch: %v", err)
	}
}

func TestShow(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(t.TempDir(), "data")
	if r := cs(t, home, "index", "--data-dir", data, "--root", filepath.Join(corpus, "claude-ai")); r.code != 0 {
		t.Fatalf("index: %s", r.stderr)
	}
	id := "91098bc8-f2c4-427b-b71b-1e25efa2e871"
	r := cs(t, home, "show", "--data-dir", data, id)
	if r.code != 0 || !strings.Contains(r.stdout, "LLM Pricing Calculator") || !strings.Contains(r.stdout, "#19") {
		t.Errorf("show: exit %d\n%s", r.code, r.stdout)
	}
	r = cs(t, home, "show", "--data-dir", data, "--json", "--message", "6", "--context", "1", id)
	var c struct {
		Messages []struct {
			Index int `json:"index"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &c); err != nil {
		t.Fatalf("show --json: %v\n%s", err, r.stdout)
	}
	if len(c.Messages) != 3 || c.Messages[0].Index != 5 || c.Messages[2].Index != 7 {
		t.Errorf("window around 6 with context 1: %+v", c.Messages)
	}
	if r := cs(t, home, "show", "--data-dir", data, "no-such-id"); r.code != 1 || !strings.Contains(r.stderr, "no-such-id") {
		t.Errorf("unknown id: exit %d, stderr %q", r.code, r.stderr)
	}
	if r := cs(t, home, "show", "--data-dir", data, "--message", "999", id); r.code != 1 || !strings.Contains(r.stderr, "no message 999") {
		t.Errorf("unknown message: exit %d, stderr %q", r.code, r.stderr)
	}
	// A hit's id past the conversation's end is as unknown as --message 999.
	for _, tc := range []struct{ hit, says string }{{"m/" + id + "/999", "no message 999"}, {"d/" + id + "/99", "no decision 99"}} {
		if r := cs(t, home, "show", "--data-dir", data, tc.hit); r.code != 1 || !strings.Contains(r.stderr, tc.says) {
			t.Errorf("show %s: exit %d, stderr %q, want it to say %q", tc.hit, r.code, r.stderr, tc.says)
		}
	}
	for _, args := range [][]string{{"--message", "-1", id}, {""}} {
		if r := cs(t, home, append([]string{"show", "--data-dir", data}, args...)...); r.code != 2 {
			t.Errorf("show %q: exit %d, want 2 (usage)", args, r.code)
		}
	}
	// A hit's id from search --json opens its conversation at the message.
	r = cs(t, home, "show", "--data-dir", data, "--json", "--context", "0", "m/"+id+"/6")
	c.Messages = nil
	if err := json.Unmarshal([]byte(r.stdout), &c); err != nil || len(c.Messages) != 1 || c.Messages[0].Index != 6 {
		t.Errorf("show m/%s/6: exit %d, %v, %+v\n%s", id, r.code, err, c.Messages, r.stderr)
	}

	// A shared thread names who wrote each message next to the role: the
	// first comment of examples/studio/comments.json is maya's.
	if r := cs(t, home, "index", "--data-dir", data, "--root", filepath.Join(examples, "studio")); r.code != 0 {
		t.Fatalf("index: %s", r.stderr)
	}
	r = cs(t, home, "parse", "--json", filepath.Join(examples, "studio", "comments.json"))
	var parsed []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &parsed); err != nil || len(parsed) != 1 {
		t.Fatalf("parse --json: %v\n%s", err, r.stdout)
	}
	r = cs(t, home, "show", "--data-dir", data, parsed[0].ID)
	if r.code != 0 || !strings.Contains(r.stdout, "#0 user (maya)") {
		t.Errorf("show of a studio thread: exit %d, no author on #0\n%s", r.code, r.stdout)
	}
}

// TestKilledIndexRecovers kills `index` with SIGKILL part-way and runs it
// again: every conversation is there once, none twice, and the counts equal
// those of a clean rebuild.
func TestKilledIndexRecovers(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and indexes a few hundred files")
	}
	home := t.TempDir()
	root := t.TempDir()
	const files, perFile = 300, 12
	writeCorpus(t, root, files, perFile)
	data := filepath.Join(t.TempDir(), "data")
	cmd := exec.Command(binary, "index", "--data-dir", data, "--root", root, "--no-default-roots")
	cmd.Env = append(os.Environ(), "HOME="+home)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it once the index exists, part-way through (if it finished
	// already, the test still checks the second run changes nothing).
	for i := 0; i < 200; i++ {
		if _, err := os.Stat(filepath.Join(data, "index.bleve")); err == nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(30 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	if r := cs(t, home, "index", "--data-dir", data, "--root", root, "--no-default-roots"); r.code != 0 {
		t.Fatalf("index after kill: exit %d\n%s", r.code, r.stderr)
	}
	got := stats(t, home, data)
	if got["conversation"] != files || got["message"] != files*perFile {
		t.Errorf("after kill and rerun: %v, want %d conversations and %d messages", got, files, files*perFile)
	}
	if r := cs(t, home, "index", "--data-dir", data, "--root", root, "--no-default-roots", "--rebuild"); r.code != 0 {
		t.Fatalf("rebuild: %s", r.stderr)
	}
	if want := stats(t, home, data); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after kill and rerun %v, after a clean rebuild %v", got, want)
	}
}

// TestParseHugeTruncatedFile gives parse a 100 MB portable conversation cut
// short at the end: its complete messages kept with a warning naming the
// file and its line, no panic, and the next file still parsed.
func TestParseHugeTruncatedFile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100 MB")
	}
	home := t.TempDir()
	path := filepath.Join(t.TempDir(), "huge.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprint(w, `{"id": "20250101-huge", "title": "huge", "messages": [`+"\n")
	line := `{"role": "user", "content": "` + strings.Repeat("all work and no play ", 40) + `", "timestamp": null},` + "\n"
	lines := 0
	for written := 0; written < 100<<20; written += len(line) {
		w.WriteString(line)
		lines++
	}
	w.WriteString(`{"role": "assistant", "content": "cut her`) // no end
	w.Flush()
	f.Close()
	good := filepath.Join(corpus, "kiro-cli", "conversation-graphify.json")
	r := cs(t, home, "parse", path, good)
	if r.code != 0 || strings.Contains(r.stderr, "panic") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, fmt.Sprintf("huge.json:%d:", lines+2)) {
		t.Errorf("the warning does not name the file and its last line (%d): %q", lines+2, r.stderr)
	}
	if !strings.Contains(r.stderr, fmt.Sprintf("kept the %d complete messages", lines)) {
		t.Errorf("the warning does not say the %d complete messages were kept: %q", lines, r.stderr)
	}
	if !strings.Contains(r.stdout, "aaaaaaaa-0000-4000-8000-000000000001") {
		t.Errorf("the good file after the huge one was not parsed: %q", r.stdout)
	}
}

// TestIndexReportsFailures: a file that cannot be read is named on stderr
// and makes index exit 1 while the rest is indexed, on every run until it
// is fixed; a root that does not exist fails the same way.
func TestIndexReportsFailures(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(t.TempDir(), "data")
	root := filepath.Join(t.TempDir(), "convs")
	good := filepath.Join(root, "good.json")
	bad := filepath.Join(root, "bad.json")
	writeConv(t, good, conversationJSON("conv-g", "Gibbons", "Gibbons sing at dawn."))
	full := conversationJSON("conv-b", "Baboons", "Baboon troops")
	writeConv(t, bad, full[:strings.Index(full, "troops")]) // cut short mid-message
	index := func(extra ...string) result {
		return cs(t, home, append([]string{"index", "--data-dir", data, "--no-default-roots", "--root", root}, extra...)...)
	}
	tests := []struct {
		name   string
		before func()
		args   []string
		code   int
		stderr []string // each must appear
		stdout []string // each must appear
	}{
		{"first run", nil, nil, 1, []string{bad + ":", "1 of the files could not be read"}, []string{"1 failed"}},
		// Failed again, unchanged: read again, so failed, not unchanged.
		{"unchanged", nil, nil, 1, []string{bad + ":", "unchanged since it failed"}, []string{"(1 unchanged, 0 removed, 1 failed,"}},
		{"as JSON", nil, []string{"--json"}, 1, []string{"unchanged since it failed"}, []string{`"files_unchanged": 1,`, `"files_failed": 1,`, `"still_failing"`}},
		{"fixed", func() { writeConv(t, bad, conversationJSON("conv-b", "Baboons", "Baboon troops groom.")) }, nil, 0, nil, []string{"0 failed"}},
		{"missing root", nil, []string{"--root", filepath.Join(root, "nope")}, 1, []string{"nope", "could not be read"}, nil},
	}
	for _, tt := range tests {
		if tt.before != nil {
			tt.before()
		}
		r := index(tt.args...)
		if r.code != tt.code {
			t.Errorf("%s: exit %d (want %d)\nstderr %s", tt.name, r.code, tt.code, r.stderr)
		}
		for _, w := range tt.stdout {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("%s: stdout lacks %q:\n%s", tt.name, w, r.stdout)
			}
		}
		for _, w := range tt.stderr {
			if !strings.Contains(r.stderr, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", tt.name, w, r.stderr)
			}
		}
		if strings.Count(r.stderr, bad) > 1 {
			t.Errorf("%s: the file is named more than once:\n%s", tt.name, r.stderr)
		}
	}
	if r := cs(t, home, "search", "--data-dir", data, "--json", "baboon OR gibbon"); !strings.Contains(r.stdout, "conv-b") || !strings.Contains(r.stdout, "conv-g") {
		t.Errorf("after the fix both are searchable: %s", r.stdout)
	}
}

// TestExitCode: what the daemon refuses as malformed is a usage error, as
// when the command checks it itself; its other failures are not.
func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, exitOK},
		{usagef("search: give a query"), exitUsage},
		{&daemon.APIError{Status: 400, Message: "until (2020-01-01) is before since (2026-01-01)"}, exitUsage},
		{fmt.Errorf("decisions: %w", &daemon.APIError{Status: 400, Message: "limit 0 out of range"}), exitUsage},
		{&daemon.APIError{Status: 500, Message: "disk on fire"}, exitFailure},
		{&daemon.APIError{Status: 404, Message: "no such conversation"}, exitFailure},
		{errors.New("boom"), exitFailure},
		{fmt.Errorf("search: %w", context.Canceled), exitInterrupt},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// A hit's id whose message a rewritten file no longer has (the index is
// older than the file): show says so and exits 1, as --message does, and
// does not print the whole conversation as if no message was asked.
func TestShowStaleHit(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	data := filepath.Join(t.TempDir(), "data")
	file := filepath.Join(root, "20250101-0000aaaa.json")
	write := func(n int) {
		var msgs []string
		for i := range n {
			msgs = append(msgs, fmt.Sprintf(`{"role":"user","content":"message %d about retries"}`, i))
		}
		conv := fmt.Sprintf(`{"id":"20250101-0000aaaa","date":"2025-01-01T10:00:00","title":"stale","messages":[%s]}`, strings.Join(msgs, ","))
		if err := os.WriteFile(file, []byte(conv), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(10)
	if r := cs(t, home, "index", "--data-dir", data, "--no-default-roots", "--root", root); r.code != 0 {
		t.Fatalf("index: exit %d: %s", r.code, r.stderr)
	}
	write(3)
	for _, args := range [][]string{{"m/20250101-0000aaaa/8"}, {"--message", "8", "20250101-0000aaaa"}} {
		r := cs(t, home, append([]string{"show", "--data-dir", data}, args...)...)
		if r.code != 1 || !strings.Contains(r.stderr, "no message 8") || strings.Contains(r.stdout, "message 0 about") {
			t.Errorf("show %q: exit %d, stderr %q, stdout %q", args, r.code, r.stderr, r.stdout)
		}
	}
	// A message still in the file is shown.
	if r := cs(t, home, "show", "--data-dir", data, "m/20250101-0000aaaa/2"); r.code != 0 || !strings.Contains(r.stdout, "message 2 about") {
		t.Errorf("show m/…/2: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestIndexSummaryAddsUp: every file seen is parsed, unchanged, failed or
// skipped as no conversation (examples/ has CSVs, .meta.json companions and
// an index.json), on the first run and the next, in --json and in words.
func TestIndexSummaryAddsUp(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(t.TempDir(), "data")
	for _, run := range []string{"first", "second"} {
		r := cs(t, home, "index", "--data-dir", data, "--no-default-roots", "--root", examples, "--json")
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", run, r.code, r.stderr)
		}
		var s struct {
			Seen      int  `json:"files_seen"`
			Parsed    int  `json:"files_parsed"`
			Unchanged int  `json:"files_unchanged"`
			Failed    int  `json:"files_failed"`
			Skipped   *int `json:"files_skipped"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &s); err != nil {
			t.Fatal(err)
		}
		if s.Skipped == nil || *s.Skipped == 0 {
			t.Fatalf("%s: no files_skipped: %s", run, r.stdout)
		}
		if sum := s.Parsed + s.Unchanged + s.Failed + *s.Skipped; sum != s.Seen {
			t.Errorf("%s: files_seen %d, the rest add up to %d: %s", run, s.Seen, sum, r.stdout)
		}
		if run == "second" && (s.Parsed != 0 || s.Unchanged == 0) {
			t.Errorf("second run: %d parsed, %d unchanged", s.Parsed, s.Unchanged)
		}
	}
	r := cs(t, home, "index", "--data-dir", data, "--no-default-roots", "--root", examples)
	if !strings.Contains(r.stdout, " not conversations)") {
		t.Errorf("the summary does not count the files that hold no conversation: %q", r.stdout)
	}
}

// TestExportIntoEarlierExport: the manifest of a folder exported to before
// lists every conversation file in it, not only the last run's; a source
// that is not there stops export before it creates anything.
func TestExportIntoEarlierExport(t *testing.T) {
	home := t.TempDir()
	out := filepath.Join(t.TempDir(), "out")
	type manifest struct {
		Conversations []struct{ ID, File string } `json:"conversations"`
	}
	read := func(t *testing.T) (m manifest) {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(out, "index.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	if r := cs(t, home, "export", "-q", "--to", out, examples); r.code != 0 {
		t.Fatalf("export: exit %d: %s", r.code, r.stderr)
	}
	first := read(t)
	// A conversation of examples/portable, removed from the export.
	var gone string
	for _, c := range first.Conversations {
		if strings.HasPrefix(c.ID, "20251211-") {
			gone = c.ID
			if err := os.Remove(c.File); err != nil {
				t.Fatal(err)
			}
		}
	}
	if gone == "" {
		t.Fatal("no conversation 20251211-… in examples/portable")
	}
	steps := []struct {
		name   string
		args   []string
		stdout string
	}{
		{"part of it again", []string{"export", "-q", "--to", out, filepath.Join(examples, "portable")}, "its index.json lists"},
		{"another part", []string{"export", "-q", "--to", out, filepath.Join(examples, "codex")}, "its index.json lists"},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			r := cs(t, home, st.args...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if !strings.Contains(r.stdout, st.stdout) {
				t.Errorf("stdout %q, want %q", r.stdout, st.stdout)
			}
			m := read(t)
			files, _ := filepath.Glob(filepath.Join(out, "*.json"))
			if len(m.Conversations) != len(files)-1 {
				t.Errorf("index.json lists %d conversations, the folder holds %d files besides it", len(m.Conversations), len(files)-1)
			}
			ids := map[string]bool{}
			for _, c := range m.Conversations {
				if ids[c.ID] {
					t.Errorf("%s listed twice", c.ID)
				}
				ids[c.ID] = true
				if _, err := os.Stat(c.File); err != nil {
					t.Errorf("listed: %v", err)
				}
			}
			for _, c := range first.Conversations {
				if !ids[c.ID] && c.ID != gone {
					t.Errorf("%s, exported first, no longer listed", c.ID)
				}
			}
		})
	}

	t.Run("a source that is not there", func(t *testing.T) {
		to := filepath.Join(t.TempDir(), "x")
		r := cs(t, home, "export", "--to", to, filepath.Join(t.TempDir(), "nonexistent"))
		if r.code != 1 || r.stdout != "" || !strings.Contains(r.stderr, "nonexistent") {
			t.Errorf("exit %d, stdout %q, stderr %q; want 1, nothing written, the path named", r.code, r.stdout, r.stderr)
		}
		if _, err := os.Stat(to); !os.IsNotExist(err) {
			t.Errorf("export made %s: %v", to, err)
		}
	})

	t.Run("an index.json that is not a manifest", func(t *testing.T) {
		to := t.TempDir()
		bad := []byte("not json\n")
		os.WriteFile(filepath.Join(to, "index.json"), bad, 0o600)
		r := cs(t, home, "export", "-q", "--to", to, filepath.Join(examples, "codex"))
		if b, _ := os.ReadFile(filepath.Join(to, "index.json")); r.code != 1 || string(b) != string(bad) || !strings.Contains(r.stderr, "index.json") {
			t.Errorf("exit %d, stderr %q, index.json now %q; want 1 and it left alone", r.code, r.stderr, b)
		}
	})
}
