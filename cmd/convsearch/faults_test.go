package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// noisyCorpus writes files portable-format conversations of perFile
// messages of words that compress badly, and the word "retries".
func noisyCorpus(t *testing.T, root string, files, perFile int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range files {
		var msgs []string
		for range perFile {
			var b strings.Builder
			b.WriteString("retries ")
			for range 100 {
				fmt.Fprintf(&b, "w%x ", rng.Uint32())
			}
			msgs = append(msgs, fmt.Sprintf(`{"role":"user","content":%q,"timestamp":"2025-01-01T10:00:00"}`, b.String()))
		}
		conv := fmt.Sprintf(`{"id":"20250101-%08x","date":"2025-01-01T10:00:00","title":"conversation %d","messages":[%s],"metadata":{"project":"p"}}`, i, i, strings.Join(msgs, ","))
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("20250101-%08x.json", i)), []byte(conv), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A damaged segment: `check` finds and names it, and search, stats and
// `index --verify` exit 1 telling to rebuild, never with a panic.
func TestDamagedIndex(t *testing.T) {
	home := t.TempDir()
	data := filepath.Join(t.TempDir(), "data")
	if r := cs(t, home, "index", "--data-dir", data, "--no-default-roots", "--root", examples); r.code != 0 {
		t.Fatalf("index: exit %d: %s", r.code, r.stderr)
	}
	r := cs(t, home, "check", "--data-dir", data, "--json")
	var rep struct {
		Segments int   `json:"segments"`
		CRC      bool  `json:"crc_checked"`
		Problems []any `json:"problems"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != 0 || rep.Segments == 0 || !rep.CRC || len(rep.Problems) != 0 {
		t.Fatalf("check --json of a sound index: exit %d, %+v (%v), stdout %q stderr %q", r.code, rep, err, r.stdout, r.stderr)
	}

	segs, _ := filepath.Glob(filepath.Join(data, "index.bleve", "store", "*.zap"))
	for _, s := range segs {
		info, err := os.Stat(s)
		if err != nil {
			t.Fatal(err)
		}
		garbage := make([]byte, info.Size()/2)
		for i := range garbage {
			garbage[i] = byte(i * 7)
		}
		f, err := os.OpenFile(s, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteAt(garbage, info.Size()/4)
		f.Close()
	}

	for _, tc := range []struct {
		args   []string
		stdout string // what stdout must hold, if anything
	}{
		{[]string{"check"}, filepath.Base(segs[0])},
		{[]string{"check", "--json"}, `"problems": [`},
		{[]string{"search", "intervals"}, ""},
		{[]string{"search", "--json", "intervals"}, ""},
		{[]string{"stats"}, ""},
		{[]string{"index", "--verify", "--no-default-roots", "--root", examples}, ""},
	} {
		args := append(append([]string{}, tc.args[0], "--data-dir", data), tc.args[1:]...)
		r := cs(t, home, args...)
		if r.code != 1 || !strings.Contains(r.stderr, "the index is damaged") || !strings.Contains(r.stderr, "convsearch index --rebuild") {
			t.Errorf("%v: exit %d, stderr %q: want exit 1 and the rebuild message", tc.args, r.code, r.stderr)
		}
		if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") || strings.Contains(r.stderr, "mapping JSON") {
			t.Errorf("%v: stderr %q", tc.args, r.stderr)
		}
		if !strings.Contains(r.stdout, tc.stdout) {
			t.Errorf("%v: stdout %q, want it to hold %q", tc.args, r.stdout, tc.stdout)
		}
	}
}

// A data folder on a small file system that fills up: `index` exits 1
// saying the disk is full and how much room there is, and the index it
// leaves answers searches.
func TestIndexFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small file system needs root")
	}
	data := t.TempDir()
	if err := syscall.Mount("tmpfs", data, "tmpfs", 0, "size=24m"); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(data, syscall.MNT_DETACH) })
	// 22 MB free: room for the first batch of the corpus (2000 documents,
	// about 16 MB by spaceNeeded's estimate), not for the second, so the
	// test writes little and runs fast.
	if err := os.WriteFile(filepath.Join(data, "ballast"), make([]byte, 2<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	home, root := t.TempDir(), t.TempDir()
	noisyCorpus(t, root, 50, 60)

	r := cs(t, home, "index", "--data-dir", data, "--no-default-roots", "--root", root)
	if r.code != 1 || !strings.Contains(r.stderr, "convsearch: disk full writing "+filepath.Join(data, "index.bleve")) ||
		!strings.Contains(r.stderr, "MB free, about") || !strings.Contains(r.stderr, "--data-dir elsewhere") {
		t.Fatalf("index on a full disk: exit %d, stderr %q: want exit 1 and the disk-full message", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "panic") {
		t.Errorf("index on a full disk: %s", r.stderr)
	}
	r = cs(t, home, "search", "--data-dir", data, "--json", "retries")
	var res struct {
		Total int `json:"total"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); r.code != 0 || err != nil || res.Total == 0 {
		t.Errorf("search after the disk filled: exit %d, stdout %.300q, stderr %q", r.code, r.stdout, r.stderr)
	}
	if r := cs(t, home, "check", "--data-dir", data); r.code != 0 {
		t.Errorf("check after the disk filled: exit %d, %s %s", r.code, r.stdout, r.stderr)
	}
}
