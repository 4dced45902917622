package gemini

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers/parsertest"
)

// TestTornInNestedMessages: a real session whose tool call has an argument
// named "messages", torn inside that argument, drops the message the tear
// went through (its call cut short, its result lost) and keeps the ones
// before it, with a warning: the unit is the top-level messages, not any
// array of that name.
func TestTornInNestedMessages(t *testing.T) {
	file := corpus + "session-2025-10-29T10-40-359abdd0.json"
	data := parsertest.ReadFile(t, file)
	old := []byte(`"args": {`)
	if bytes.Count(data, old) != 1 {
		t.Fatalf("%s: want one tool call", file)
	}
	data = bytes.Replace(data, old, []byte(`"args": {"messages":["hello","world"],`), 1)
	// The warning counts only the messages before the torn one.
	k, res, err := parsertest.CheckTornInNested(t, New(), file, data, parsertest.Arrays(t, data, "messages"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("kept the %d complete messages before the tear", k)
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), want) {
		t.Errorf("warnings %v, want one saying %q", res.Warnings, want)
	}
}
