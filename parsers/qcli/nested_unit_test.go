package qcli

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers/parsertest"
)

// TestTornInNestedHistory: a conversation whose tool use has an argument
// named "history", torn inside that argument, drops the history entry the
// tear went through and keeps the ones before it, with a warning (or fails
// when there are none): the unit is the top-level history, not any array
// of that name.
func TestTornInNestedHistory(t *testing.T) {
	kept := false
	for _, file := range []string{"../../testdata/corpus/kiro-cli/conversation-graphify.json", "testdata/legacy-pairs.json"} {
		data := parsertest.ReadFile(t, file)
		// The last tool use's arguments.
		at := bytes.LastIndex(data, []byte(`"args": {`))
		if at < 0 {
			t.Fatalf("%s: no tool use", file)
		}
		at += len(`"args": {`)
		data = slices.Concat(data[:at], []byte(`"history":["hello","world"],`), data[at:])
		arrays := parsertest.Arrays(t, data, "history")
		if len(arrays) != 2 {
			t.Fatalf("%s: %d arrays named history, want the conversation's and the argument", file, len(arrays))
		}
		top, nested := arrays[0], arrays[1]
		cuts := []int{bytes.Index(data, []byte(`"world"`)), bytes.Index(data, []byte(`"hello"`)) + 3, nested.Ends[0] + 1}
		parsertest.CheckTorn(t, New(), file, data, cuts, func(cut int) []byte {
			k, _ := top.Within(cut)
			return top.Keep(data, k, -1)
		})
		k, _ := top.Within(cuts[0])
		if k == 0 {
			continue // nothing whole before the tear: an error, checked above
		}
		kept = true
		res, err := New().Parse(context.Background(), file, bytes.NewReader(data[:cuts[0]]))
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("kept the %d complete history entries", k)
		if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), want) {
			t.Errorf("%s: warnings %v, want one saying %q", file, res.Warnings, want)
		}
	}
	if !kept {
		t.Error("no file torn after a complete history entry")
	}
}
