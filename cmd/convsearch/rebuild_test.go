package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRebuildKeepsOtherRoots: a pass over one root that rebuilds the whole
// index (the redaction rules changed; or --rebuild) reads again every file
// the index held under other roots: their conversations are still found,
// beside the new root's, and the pass says it was a full rebuild.
func TestRebuildKeepsOtherRoots(t *testing.T) {
	home, rootB := t.TempDir(), t.TempDir()
	exA := filepath.Join(t.TempDir(), "examples")
	if err := os.CopyFS(exA, os.DirFS(examples)); err != nil {
		t.Fatal(err)
	}
	writeConv(t, filepath.Join(rootB, "secrets.json"), secretsConversation(fakeSecrets()))
	data := filepath.Join(home, "data", "convsearch")
	config := filepath.Join(home, "config", "convsearch", "config.json")
	index := func(extra ...string) result {
		t.Helper()
		r := cs(t, home, append([]string{"index", "--data-dir", data, "--no-default-roots"}, extra...)...)
		if r.code != 0 {
			t.Fatalf("index %v: exit %d\n%s%s", extra, r.code, r.stdout, r.stderr)
		}
		return r
	}
	index("--root", exA)
	want := stats(t, home, data)["conversation"]
	if want == 0 {
		t.Fatal("the examples yielded no conversation")
	}
	found := func(when string) {
		t.Helper()
		if got := stats(t, home, data)["conversation"]; got != want+1 {
			t.Errorf("%s: %d conversations, want the examples' %d and root B's 1", when, got, want)
		}
		r := cs(t, home, "search", "--data-dir", data, "--json", "BCa percentile bootstrap")
		if r.code != 0 || !strings.Contains(r.stdout, `"conversation_id"`) {
			t.Errorf("%s: an examples conversation is not found (exit %d)\n%s%s", when, r.code, r.stdout, r.stderr)
		}
	}

	// Redaction turned off: the next writer rebuilds, over root B only.
	writeConv(t, config, `{"redact": false}`)
	r := index("--root", rootB)
	if !strings.Contains(r.stderr, "full rebuild (the redaction rules changed)") {
		t.Errorf("the pass does not say it rebuilt the whole index:\n%s", r.stderr)
	}
	found("after a rebuild for the redaction rules")

	// A pass that is no rebuild says nothing of one.
	if r := index("--root", rootB); strings.Contains(r.stderr, "rebuild") {
		t.Errorf("a plain pass speaks of a rebuild:\n%s", r.stderr)
	}

	// --rebuild over root B keeps the examples too.
	r = index("--rebuild", "--root", rootB)
	if !strings.Contains(r.stderr, "full rebuild") {
		t.Errorf("--rebuild does not say it rebuilt the whole index:\n%s", r.stderr)
	}
	found("after --rebuild")

	// A search over a root that rebuilds the index says so, and keeps the
	// rest too.
	os.Remove(config)
	r = cs(t, home, "search", "--data-dir", data, "--no-default-roots", "--root", rootB, "bootstrap")
	if r.code != 0 || !strings.Contains(r.stderr, "full rebuild (the redaction rules changed)") {
		t.Errorf("search --root that rebuilt: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	found("after a search --root that rebuilt")

	// A file gone since is not carried over.
	if err := os.Remove(filepath.Join(rootB, "secrets.json")); err != nil {
		t.Fatal(err)
	}
	writeConv(t, config, `{"redact": false}`)
	index("--root", exA)
	want--
	found("after the root B file went and the rules changed again")
}
