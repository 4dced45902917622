package portable

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/convsearch/convsearch/parsers/parsertest"
)

// tornFiles are the portable conversations of testdata (not the manifest).
var tornFiles = []string{
	"testdata/conversations/20251127-abc123.json",
	"testdata/conversations/20251127-b6247f39.json",
	"testdata/conversations/20251128-2ee84c84.json",
	"testdata/conversations/20251202-7c41d9ab.json",
	"testdata/conversations/exported.json",
	"testdata/conversations/quirks.json",
}

// TestTorn cuts real portable conversations at many offsets, as a crash
// while one was written or a partial copy would: the messages written
// whole before the tear are kept, the one it cut is dropped, with a
// warning.
func TestTorn(t *testing.T) {
	examples, _ := filepath.Glob("../../examples/portable/conversations/2*.json")
	if len(examples) == 0 {
		t.Error("no portable examples")
	}
	for _, file := range append(slices.Clone(tornFiles), examples...) {
		t.Run(file, func(t *testing.T) {
			data := parsertest.ReadFile(t, file)
			arrays := parsertest.Arrays(t, data, "messages")
			if len(arrays) == 0 {
				t.Fatal("no messages")
			}
			a := arrays[0]
			parsertest.CheckTorn(t, New(), file, data, parsertest.Cuts(data, a), a.Whole(data))
		})
	}
}

// TestTornInNestedMessages: a message holding an array named "messages",
// torn inside it, is dropped and the ones before it kept, with a warning:
// the unit is the conversation's messages, not any array of that name.
func TestTornInNestedMessages(t *testing.T) {
	kept := 0
	for _, file := range tornFiles {
		t.Run(file, func(t *testing.T) {
			arrays := func(data []byte) []parsertest.Array { return parsertest.Arrays(t, data, "messages") }
			// Into the last message, before its role.
			if parsertest.CheckTornInLast(t, New(), file, parsertest.ReadFile(t, file), "messages", `"role"`, arrays) != nil {
				kept++
			}
		})
	}
	if kept == 0 {
		t.Error("no file torn after a complete message")
	}
}
