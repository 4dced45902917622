package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// writeCorpus writes files portable conversations of perFile messages each
// under root.
func writeCorpus(t *testing.T, root string, files, perFile int) {
	t.Helper()
	for i := range files {
		var msgs []string
		for j := range perFile {
			role := "user"
			if j%2 == 1 {
				role = "assistant"
			}
			msgs = append(msgs, fmt.Sprintf(`{"role":%q,"content":"message %d of conversation %d about retries and backoff number %d","timestamp":"2025-01-01T10:00:00"}`, role, j, i, i*j))
		}
		conv := fmt.Sprintf(`{"id":"20250101-%08x","date":"2025-01-01T10:00:00","title":"conversation %d","messages":[%s],"metadata":{"project":"p%d","topics":["retries"]}}`, i, i, strings.Join(msgs, ","), i%5)
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("20250101-%08x.json", i)), []byte(conv), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// run runs the binary and returns its result; a run that outlives the
// deadline is a hang, killed and reported.
func runBinary(t *testing.T, home string, deadline time.Duration, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = daemonEnv(home)
	var so, se strings.Builder
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	if ctx.Err() != nil {
		t.Errorf("%v hung: killed after %s\n%s", args, deadline, se.String())
	}
	return result{so.String(), se.String(), code}
}

// TestRebuildRaces runs `index --rebuild` beside another `index` and a
// `search` started within milliseconds of it, several times: every command
// either does its work or says the index is in use (exit 1), none panics or
// hangs, a search never answers from an empty index, and afterwards the
// index is whole. Beside the daemon, a rebuild refuses and the daemon goes
// on.
func TestRebuildRaces(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary many times")
	}
	home, root := t.TempDir(), t.TempDir()
	const files, perFile = 120, 10
	writeCorpus(t, root, files, perFile)
	data := filepath.Join(home, "data", "convsearch") // the daemon's, by default
	index := []string{"index", "--data-dir", data, "--no-default-roots", "--root", root}
	if r := cs(t, home, index...); r.code != 0 {
		t.Fatalf("index: exit %d\n%s", r.code, r.stderr)
	}
	want := stats(t, home, data)
	if want["message"] != files*perFile {
		t.Fatalf("index holds %v, want %d messages", want, files*perFile)
	}
	search := []string{"search", "--data-dir", data, "--json", "--limit", "1", "retries"}
	total := func(r result) int {
		t.Helper()
		var res struct {
			Total int `json:"total"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("search output: %v\n%s", err, r.stdout)
		}
		return res.Total
	}
	wantHits := total(cs(t, home, search...))
	const deadline = 2 * time.Minute
	for round := range 4 {
		var wg sync.WaitGroup
		results := make([]result, 3)
		cmds := [][]string{
			append(append([]string{}, index...), "--rebuild"),
			index,
			search,
		}
		for i, args := range cmds {
			wg.Add(1)
			go func() {
				defer wg.Done()
				time.Sleep(time.Duration(i*round) * 3 * time.Millisecond)
				results[i] = runBinary(t, home, deadline, args...)
			}()
		}
		wg.Wait()
		for i, r := range results {
			switch {
			case r.code == 0:
			case r.code == 1 && strings.Contains(r.stderr, "in use"):
			default:
				t.Errorf("round %d: %v: exit %d\n%s", round, cmds[i][:2], r.code, r.stderr)
			}
		}
		if r := results[2]; r.code == 0 {
			if got := total(r); got != wantHits {
				t.Errorf("round %d: a search beside a rebuild found %d hits, want %d (never an empty or partial index)", round, got, wantHits)
			}
		}
		if got := stats(t, home, data); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("round %d: after the race the index holds %v, want %v", round, got, want)
		}
	}

	// Beside the daemon, a rebuild says what to do and changes nothing.
	d := startServe(t, home, root)
	r := runBinary(t, home, deadline, append(append([]string{}, index...), "--rebuild")...)
	if r.code != 1 || !strings.Contains(r.stderr, "daemon") || !strings.Contains(r.stderr, "stop it") {
		t.Errorf("rebuild beside the daemon: exit %d, want 1 and a message saying to stop the daemon\n%s", r.code, r.stderr)
	}
	if n := d.total("retries"); n != wantHits {
		t.Errorf("the daemon after a refused rebuild finds %d hits, want %d", n, wantHits)
	}
}

// TestReadOnlyCommandsKeepTheIndex: with index_meta.json gone, `stats` and
// `search` say the index is damaged and how to fix it, exit 1, and leave
// every byte of it in place; with no index at all they create none.
func TestReadOnlyCommandsKeepTheIndex(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(t.TempDir(), "data")
	if r := cs(t, home, "index", "--data-dir", data, "--no-default-roots", "--root", examples); r.code != 0 {
		t.Fatalf("index: exit %d\n%s", r.code, r.stderr)
	}
	if err := os.Remove(filepath.Join(data, "index.bleve", "index_meta.json")); err != nil {
		t.Fatal(err)
	}
	before := tree(t, data)
	for _, args := range [][]string{
		{"stats", "--data-dir", data},
		{"search", "--data-dir", data, "anything"},
		{"topics", "--data-dir", data},
	} {
		r := cs(t, home, args...)
		if r.code != 1 || !strings.Contains(r.stderr, "convsearch index --rebuild") {
			t.Errorf("%s on a damaged index: exit %d, want 1 and the rebuild command\n%s", args[0], r.code, r.stderr)
		}
		if after := tree(t, data); after != before {
			t.Errorf("%s changed the damaged index:\nbefore %s\nafter  %s", args[0], before, after)
		}
	}

	empty := filepath.Join(t.TempDir(), "none")
	r := cs(t, home, "stats", "--data-dir", empty)
	if r.code != 1 || !strings.Contains(r.stderr, "convsearch index") {
		t.Errorf("stats with no index: exit %d, want 1 and how to make one\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Errorf("stats with no index created %s", empty)
	}
}

// tree lists every file under dir with its size.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, _ := d.Info()
		fmt.Fprintf(&b, "%s:%d ", strings.TrimPrefix(path, dir), info.Size())
		return nil
	})
	return b.String()
}
