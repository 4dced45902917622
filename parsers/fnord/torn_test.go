package fnord

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"

	"github.com/convsearch/convsearch/parsers/parsertest"
)

// messagesArrays returns the arrays named "messages" of a fnord file, v1
// or v0 (`<unix_seconds>:<json>`, whose prefix the offsets count).
func messagesArrays(t *testing.T, data []byte) []parsertest.Array {
	skip := 0
	if len(data) > 0 && data[0] >= '0' && data[0] <= '9' {
		skip = bytes.IndexByte(data, ':') + 1
	}
	arrays := parsertest.Arrays(t, data[skip:], "messages")
	for i := range arrays {
		arrays[i].Open += skip
		arrays[i].Close += skip
		for j := range arrays[i].Ends {
			arrays[i].Ends[j] += skip
		}
	}
	return arrays
}

// tornFiles are fnord's conversations in testdata that have messages.
func tornFiles(t *testing.T) []string {
	var files []string
	for _, pat := range []string{"testdata/*.json", "testdata/projects/*/conversations/*.json", "testdata/home/.fnord/projects/*/conversations/*.json", "../../examples/fnord/projects/*/conversations/*.json"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	files = slices.DeleteFunc(files, func(f string) bool {
		a := messagesArrays(t, parsertest.ReadFile(t, f))
		return len(a) == 0 || len(a[0].Ends) == 0
	})
	if len(files) < 3 {
		t.Fatalf("%d files with messages: %v", len(files), files)
	}
	return files
}

// TestTorn cuts real conversations (v1 and v0) at many offsets, as a crash
// while fnord rewrote one would: the messages written whole before the
// tear are kept, the one it cut is dropped, with a warning.
func TestTorn(t *testing.T) {
	for _, file := range tornFiles(t) {
		t.Run(file, func(t *testing.T) {
			data := parsertest.ReadFile(t, file)
			a := messagesArrays(t, data)[0]
			parsertest.CheckTorn(t, New(), file, data, parsertest.Cuts(data, a), a.Whole(data))
		})
	}
}

// TestTornInNestedMessages: a message holding an array named "messages",
// torn inside it, is dropped and the ones before it kept, with a warning:
// the unit is the conversation's messages, not any array of that name.
func TestTornInNestedMessages(t *testing.T) {
	kept := 0
	for _, file := range tornFiles(t) {
		t.Run(file, func(t *testing.T) {
			arrays := func(data []byte) []parsertest.Array { return messagesArrays(t, data) }
			// Into the last message with a role, before it.
			if parsertest.CheckTornInLast(t, New(), file, parsertest.ReadFile(t, file), "messages", `"role"`, arrays) != nil {
				kept++
			}
		})
	}
	if kept == 0 {
		t.Error("no file torn after a complete message")
	}
}
