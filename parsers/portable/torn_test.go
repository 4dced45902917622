package portable

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
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
	for _, file := range tornFiles {
		t.Run(file, func(t *testing.T) {
			data := parsertest.ReadFile(t, file)
			top := parsertest.Arrays(t, data, "messages")[0]
			// Into the last message, before its role.
			at := bytes.LastIndex(data[:top.Close], []byte(`"role"`))
			if at < top.Open {
				t.Skip("no message with a role")
			}
			data = slices.Concat(data[:at], []byte(`"messages":["hello","world"],`), data[at:])
			k, res, err := parsertest.CheckTornInNested(t, New(), file, data, parsertest.Arrays(t, data, "messages"))
			if k == 0 {
				return // nothing whole before the tear: an error, checked above
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) == 0 || !strings.Contains(res.Warnings[len(res.Warnings)-1].Error(), "cut short") {
				t.Errorf("warnings %v, want one saying the file was cut short", res.Warnings)
			}
		})
	}
}
