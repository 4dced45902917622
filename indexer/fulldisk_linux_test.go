package indexer

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/convsearch/convsearch/conversation"
)

// tmpfs mounts a file system of size MB on a new folder, or skips the test
// when it cannot (not root, or a container that forbids mounts).
func tmpfs(t *testing.T, size int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small file system needs root")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%dm", size)); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// noisyConv is a conversation of n messages of words that compress badly,
// so a few batches fill a small disk.
func noisyConv(rng *rand.Rand, id string, n int) *conversation.Conversation {
	c := conv(id)
	for i := range n {
		var b strings.Builder
		for range 120 {
			fmt.Fprintf(&b, "w%x ", rng.Uint32())
		}
		c.Messages = append(c.Messages, conversation.Message{Index: i, Role: conversation.RoleUser, Content: b.String()})
	}
	return c
}

// Filling the disk stops the writer with a *WriteError that says "disk
// full" (never a panic), whether the free-space check refuses the batch or
// Bleve's write fails; the index then opens and searches.
func TestFullDisk(t *testing.T) {
	for _, tc := range []struct {
		name         string
		noSpaceCheck bool
	}{
		{"refused before writing", false},
		{"failed while writing", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tmpfs(t, 8)
			ix := open(t, dir)
			ix.wfail.noSpaceCheck = tc.noSpaceCheck
			rng := rand.New(rand.NewPCG(1, 2))
			var err error
			written := 0
			for i := 0; i < 200 && err == nil; i++ {
				path := fmt.Sprintf("/f%03d.json", i)
				err = ix.Apply(context.Background(), []Change{{
					State:         FileState{Path: path, Parser: "test"},
					Conversations: []*conversation.Conversation{noisyConv(rng, fmt.Sprintf("c%03d", i), 100)},
				}})
				if err == nil {
					written++
				}
			}
			var we *WriteError
			if !errors.As(err, &we) || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "disk full writing") ||
				!strings.Contains(err.Error(), "MB free") {
				t.Fatalf("after %d batches: %v, want a *WriteError saying the disk is full", written, err)
			}
			if written == 0 {
				t.Fatal("not one batch was written before the disk filled: the test proves nothing of what stays readable")
			}
			if tc.noSpaceCheck {
				// Bleve's state after a failed write is not trusted: refused.
				if err2 := ix.Apply(context.Background(), []Change{{State: FileState{Path: "/late.json", Parser: "test"}, Conversations: []*conversation.Conversation{conv("late", "x")}}}); !errors.As(err2, &we) {
					t.Errorf("a write after a failed one: %v, want it refused with the *WriteError", err2)
				}
			}
			ix.Close() // may fail to write the manifest: the disk is full

			ro, err := Open(Options{Dir: dir})
			if err != nil {
				t.Fatalf("the index does not open after the disk filled: %v", err)
			}
			defer ro.Close()
			if n := search(t, ro, FieldContent, "w"+fmt.Sprintf("%x", rand.New(rand.NewPCG(1, 2)).Uint32())); n == 0 {
				t.Errorf("the first batch's words are not found after the disk filled (%d batches written)", written)
			}
		})
	}
}
