package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// memoryBound is the peak RSS no input file may take `index` past (issue
// 12: a 524 MB export took 18.3 GB; a 500 MB message, 16 GB and growing).
const memoryBound = 1 << 30

// TestIndexMemoryBounded indexes a 200 MB one-line export and a 200 MB
// message with the real binary and reads its peak RSS. The texts are long
// enough to be cut (at read and for indexing), so the test spends its time
// reading 200 MB, not analysing it.
func TestIndexMemoryBounded(t *testing.T) {
	const size = 200 << 20
	tests := []struct {
		name, file    string
		write         func(w *bufio.Writer, size int)
		conversations int
	}{
		{"one-line export", "conversations.json", writeExport, 10},
		{"one message", "5d1c7a52-3f0e-4c8e-9a61-2b7f0d4e8c11.jsonl", writeSession, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tt.file)
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			w := bufio.NewWriterSize(f, 1<<20)
			tt.write(w, size)
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			home := t.TempDir()
			cmd := exec.Command(binary, "index", "--json", "--data-dir", filepath.Join(home, "d"), "--no-default-roots", "--root", path)
			cmd.Env = daemonEnv(home)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("index: %v\n%s", err, stderr.String())
			}
			var sum struct {
				Parsed        int `json:"files_parsed"`
				Conversations int `json:"conversations"`
			}
			if err := json.Unmarshal(out, &sum); err != nil {
				t.Fatalf("summary: %v\n%s", err, out)
			}
			if sum.Parsed != 1 || sum.Conversations != tt.conversations {
				t.Errorf("indexed %d files, %d conversations; want 1 and %d", sum.Parsed, sum.Conversations, tt.conversations)
			}
			peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
			t.Logf("%s: peak RSS %d MiB for a %d MiB file", tt.name, peak>>20, size>>20)
			if peak > memoryBound {
				t.Errorf("peak RSS %d MiB, want under %d MiB", peak>>20, memoryBound>>20)
			}
		})
	}
}

// prose is text of varied words (of a vocabulary of 8,192), so that
// analysis does real work.
func prose(n int) string {
	var b strings.Builder
	x := uint32(1)
	for b.Len() < n {
		x = x*1664525 + 1013904223
		fmt.Fprintf(&b, "w%x ", x>>19)
	}
	return b.String()
}

// writeExport writes a claude.ai export on one line: 10 conversations of
// ten short messages and one of size/10 bytes.
func writeExport(w *bufio.Writer, size int) {
	p := prose(1 << 20)
	w.WriteString("[")
	for i := range 10 {
		if i > 0 {
			w.WriteString(",")
		}
		fmt.Fprintf(w, `{"uuid":"c%07d-0000-4000-8000-000000000000","name":"conversation %d","created_at":"2025-03-04T09:12:01Z","account":{"uuid":"a"},"chat_messages":[`, i, i)
		for m := range 10 {
			fmt.Fprintf(w, `{"uuid":"m%07d-%04d-4000-8000-000000000000","text":"%s","sender":"%s","created_at":"2025-03-04T09:12:02Z"},`,
				i, m, p[m*1000:m*1000+900], []string{"human", "assistant"}[m%2])
		}
		fmt.Fprintf(w, `{"uuid":"m%07d-9999-4000-8000-000000000000","text":"`, i)
		for n := 0; n < size/10; n += len(p) {
			w.WriteString(p)
		}
		w.WriteString(`","sender":"human","created_at":"2025-03-04T09:12:03Z"}]}`)
	}
	w.WriteString("]\n")
}

// writeSession writes a Claude Code session whose first message is size
// bytes long.
func writeSession(w *bufio.Writer, size int) {
	p := prose(1 << 20)
	w.WriteString(`{"parentUuid":null,"isSidechain":false,"type":"user","cwd":"/tmp/x","sessionId":"5d1c7a52-3f0e-4c8e-9a61-2b7f0d4e8c11","message":{"role":"user","content":"`)
	for n := 0; n < size; n += len(p) {
		w.WriteString(p)
	}
	w.WriteString(`"},"uuid":"u-1","timestamp":"2025-10-02T09:01:20.000Z"}` + "\n")
	w.WriteString(`{"parentUuid":"u-1","isSidechain":false,"type":"assistant","cwd":"/tmp/x","sessionId":"5d1c7a52-3f0e-4c8e-9a61-2b7f0d4e8c11","message":{"id":"msg_1","role":"assistant","model":"claude","content":[{"type":"text","text":"ok"}]},"uuid":"a-1","timestamp":"2025-10-02T09:01:21.000Z"}` + "\n")
}
