package codex

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers"
)

// TestTornInStringThenRecord: a record of a real rollout torn inside a
// string, with the next record appended on its line, loses only the torn
// record: the messages are those of the file with that line removed, and
// the one warning names the line.
func TestTornInStringThenRecord(t *testing.T) {
	data, err := os.ReadFile(real1)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	parse := func(name string, data []byte) *parsers.Result {
		t.Helper()
		p := filepath.Join(t.TempDir(), filepath.Base(real1))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := New().Parse(context.Background(), p, bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	// Line 15 torn at 9 and line 33 at 64: the brackets of the torn record
	// and the appended one happen to match up to the end of the line.
	for _, tc := range []struct{ line, cut int }{{15, 9}, {33, 64}, {26, 25}} {
		var torn, dropped []byte
		for j, l := range lines {
			if j == tc.line-1 {
				torn = append(torn, l[:tc.cut]...)
				continue
			}
			torn = append(torn, l...)
			dropped = append(dropped, l...)
		}
		got, want := parse("torn", torn), parse("dropped", dropped)
		if len(got.Conversations) != 1 || len(want.Conversations) != 1 {
			t.Fatalf("line %d: %d and %d conversations", tc.line, len(got.Conversations), len(want.Conversations))
		}
		gm, wm := got.Conversations[0].Messages, want.Conversations[0].Messages
		if !reflect.DeepEqual(gm, wm) {
			t.Errorf("line %d torn at %d, line %d appended: %d messages, want the %d of the file without the torn line", tc.line, tc.cut, tc.line+1, len(gm), len(wm))
		}
		if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0].Error(), fmt.Sprintf(":%d:", tc.line)) {
			t.Errorf("line %d: warnings %v, want one naming the torn line", tc.line, got.Warnings)
		}
	}
}
