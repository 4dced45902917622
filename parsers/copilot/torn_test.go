package copilot

import (
	"bytes"
	"slices"
	"testing"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

// TestTorn cuts real whole-session files (history-session-state and VS
// Code chatSessions *.json) at many offsets, as a crash while the tool
// rewrote them would: the messages (requests) written whole before the tear
// are kept, the one it cut is dropped, with a warning.
func TestTorn(t *testing.T) {
	for _, tc := range []struct {
		file, unit, mark string
		p                parsers.Parser
	}{
		{"testdata/history-session-state/c0ffee00-3333-4abc-8def-000000000003.json", "chatMessages", `"chatMessages"`, NewCLI()},
		{"testdata/history-session-state/c0ffee00-4444-4abc-8def-000000000004.json", "timeline", `"chatMessages"`, NewCLI()},
		{"testdata/vscode/ws1/chatSessions/9f8e7d6c-5555-4b3a-9c2d-000000000005.json", "requests", `"requests"`, NewVSCode()},
	} {
		t.Run(tc.file, func(t *testing.T) {
			data := parsertest.ReadFile(t, tc.file)
			arrays := parsertest.Arrays(t, data, tc.unit)
			if len(arrays) != 1 || len(arrays[0].Ends) == 0 {
				t.Fatalf("%d arrays named %s, want one with elements", len(arrays), tc.unit)
			}
			a := arrays[0]
			// Cut before the key that marks the session, the file is no
			// longer recognizable as one (Detect would not pick it): nothing
			// to check here.
			from := bytes.Index(data, []byte(tc.mark)) + len(tc.mark)
			cuts := slices.DeleteFunc(parsertest.Cuts(data, a), func(c int) bool { return c < from })
			parsertest.CheckTorn(t, tc.p, tc.file, data, cuts, func(cut int) []byte {
				k, _ := a.Within(cut)
				if k == 0 {
					// Nothing whole before the tear: an empty chatMessages
					// would read the timeline instead, which the tear
					// left out.
					return nil
				}
				return a.Keep(data, k, -1)
			})
		})
	}
}

// TestTornInNested: a session with an array named like its unit inside a
// message (a field of a chat message, of a request), torn inside it, drops
// the message the tear went through and keeps the ones before it, with a
// warning: the unit is the top-level array, not any array of that name.
func TestTornInNested(t *testing.T) {
	for _, tc := range []struct {
		file, unit, before string
		p                  parsers.Parser
	}{
		{"testdata/history-session-state/c0ffee00-3333-4abc-8def-000000000003.json", "chatMessages", `"role"`, NewCLI()},
		{"testdata/vscode/ws1/chatSessions/9f8e7d6c-5555-4b3a-9c2d-000000000005.json", "requests", `"requestId"`, NewVSCode()},
	} {
		t.Run(tc.file, func(t *testing.T) {
			arrays := func(data []byte) []parsertest.Array { return parsertest.Arrays(t, data, tc.unit) }
			res := parsertest.CheckTornInLast(t, tc.p, tc.file, parsertest.ReadFile(t, tc.file), tc.unit, tc.before, arrays)
			if res == nil {
				t.Error("nothing kept before the tear")
			} else if len(res.Warnings) != 1 {
				t.Errorf("warnings %v, want one saying the file was cut short", res.Warnings)
			}
		})
	}
}
