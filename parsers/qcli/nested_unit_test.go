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
// named "history", torn inside that argument, drops the reply the tear went
// through and keeps the entries before it and the entry's prompt, with a
// warning (or fails when there are none): the unit is the top-level
// history's entry, not any array of that name.
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
		top, cuts := parsertest.NestedTear(t, file, data, parsertest.Arrays(t, data, "history"))
		parsertest.CheckTorn(t, New(), file, data, cuts, wholeParts(t, data, top))
		k, _ := top.Within(cuts[0])
		res, err := New().Parse(context.Background(), file, bytes.NewReader(data[:cuts[0]]))
		if k == 0 {
			continue // nothing whole before the tear: an error, checked above
		}
		kept = true
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
