package rao

import (
	"bytes"
	"path/filepath"
	"slices"
	"testing"

	"github.com/convsearch/convsearch/parsers/parsertest"
)

// tornLogs are the logs of testdata with messages.
func tornLogs(t *testing.T) []string {
	var files []string
	for _, pat := range []string{"testdata/*/conversation_*/" + logName, "testdata/*/conversations/*/" + logName, "../../examples/rao/*/conversations/*/" + logName} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	files = slices.DeleteFunc(files, func(f string) bool {
		a := parsertest.Arrays(t, parsertest.ReadFile(t, f), "")
		return len(a) == 0 || len(a[0].Ends) == 0
	})
	if len(files) < 3 {
		t.Fatalf("%d logs with messages: %v", len(files), files)
	}
	return files
}

// TestTorn cuts real logs at many offsets, as a crash while R rewrote one
// would: the messages written whole before the tear are kept, the one it
// cut is dropped, with a warning.
func TestTorn(t *testing.T) {
	for _, file := range tornLogs(t) {
		t.Run(file, func(t *testing.T) {
			data := parsertest.ReadFile(t, file)
			a := parsertest.Arrays(t, data, "")[0]
			parsertest.CheckTorn(t, New(), file, data, parsertest.Cuts(data, a), a.Whole(data))
		})
	}
}

// TestTornInNestedContent: a log torn inside an array of a message (its
// content as a list of parts, its function calls) drops that message and
// keeps the ones before it: the unit is the log's own array, never an
// array inside a message, so no message is kept with half its content.
func TestTornInNestedContent(t *testing.T) {
	checked := 0
	for _, file := range tornLogs(t) {
		data := parsertest.ReadFile(t, file)
		top := parsertest.Arrays(t, data, "")[0]
		var cuts []int
		for _, key := range []string{"content", "function_call", "tool_calls"} {
			for _, a := range parsertest.Arrays(t, data, key) {
				for _, e := range a.Ends {
					cuts = append(cuts, e, e+1)
				}
				cuts = append(cuts, a.Open+1)
			}
		}
		cuts = slices.DeleteFunc(cuts, func(c int) bool { return c >= len(bytes.TrimRight(data, " \t\r\n")) })
		if len(cuts) == 0 {
			continue
		}
		slices.Sort(cuts)
		checked += len(cuts)
		parsertest.CheckTorn(t, New(), file, data, slices.Compact(cuts), top.Whole(data))
	}
	if checked == 0 {
		t.Error("no log with an array inside a message")
	}
}
