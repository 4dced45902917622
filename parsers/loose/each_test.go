package loose

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/parsertest"
)

type item struct {
	ID string `json:"id"`
	N  int    `json:"n"`
}

// decodeAll runs DecodeEach over in and returns what fn saw, one "index@line:id"
// a call, with the result and the error.
func decodeAll(ctx context.Context, in string) ([]string, *parsers.Result, error) {
	res := &parsers.Result{}
	var seen []string
	err := DecodeEach(ctx, "/x/e.json", strings.NewReader(in), res, func(i, line int, v *item) {
		seen = append(seen, fmt.Sprintf("%d@%d:%s", i, line, v.ID))
	})
	return seen, res, err
}

func TestDecodeEach(t *testing.T) {
	tests := []struct {
		name, in string
		seen     string // what fn saw, space-separated
		warnings []int  // the line of each warning
	}{
		{"array", "[\n{\"id\": \"a\"},\n{\"id\": \"b\"}\n]", "0@2:a 1@3:b", nil},
		{"one line", `[{"id":"a"},{"id":"b"},{"id":"c"}]`, "0@1:a 1@1:b 2@1:c", nil},
		{"empty array", "[]", "", nil},
		{"object alone", "\n\n{\"id\": \"a\"}", "0@3:a", nil},
		{"byte order mark", "\xef\xbb\xbf[{\"id\": \"a\"}]", "0@1:a", nil},
		{"element not an object", "[\n{\"id\": \"a\"},\n\n7,\n{\"id\": \"b\"}]", "0@2:a 2@5:b", []int{4}},
		{"field of the wrong type", "[\n{\"id\": \"a\", \"n\": \"x\"}]", "0@2:a", []int{2}},
		{"object alone, field of the wrong type", `{"id": "a", "n": []}`, "0@1:a", []int{1}},
		{"cut after one element", "[\n{\"id\": \"a\"},\n{\"id\": \"b\",\n\"n\": 1", "0@2:a", []int{4}},
		{"cut before the end of the array", "[{\"id\": \"a\"}", "0@1:a", []int{1}},
		{"missing comma", "[\n{\"id\": \"a\"}\n  {\"id\": \"b\"}]", "0@2:a", []int{3}},
		{"bad value after one element", "[{\"id\": \"a\"},\n{\"id\": nope}]", "0@1:a", []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen, res, err := decodeAll(context.Background(), tt.in)
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if got := strings.Join(seen, " "); got != tt.seen {
				t.Errorf("fn saw %q, want %q", got, tt.seen)
			}
			if len(res.Warnings) != len(tt.warnings) {
				t.Fatalf("warnings %v, want %d", res.Warnings, len(tt.warnings))
			}
			for i, w := range res.Warnings {
				pe, ok := errors.AsType[*parsers.Error](w)
				if !ok || pe.Path != "/x/e.json" || pe.Line != tt.warnings[i] {
					t.Errorf("warning %v, want one for /x/e.json line %d", w, tt.warnings[i])
				}
			}
		})
	}
}

func TestDecodeEachCutWarning(t *testing.T) {
	_, res, err := decodeAll(context.Background(), "[{\"id\": \"a\"},{\"id\": \"b\"},\n{\"id\"")
	if err != nil || len(res.Warnings) != 1 {
		t.Fatalf("error %v, warnings %v", err, res.Warnings)
	}
	w := res.Warnings[0]
	if !errors.Is(w, parsers.ErrSyntax) || !strings.HasPrefix(w.Error(), "/x/e.json:2: ") || !strings.Contains(w.Error(), "kept the 2 conversations before it") {
		t.Errorf("warning %q", w)
	}
}

func TestDecodeEachErrors(t *testing.T) {
	tests := []struct {
		name, in string
		kind     error
		line     int
	}{
		{"empty", "", parsers.ErrSyntax, 0},
		{"blank", " \n\n ", parsers.ErrSyntax, 0},
		{"number", "\n\n42", parsers.ErrShape, 3},
		{"string", `"conversations"`, parsers.ErrShape, 1},
		{"bad value in the first element", "[\n  {\"id\": \"x\",\n   \"n\": oops}\n]", parsers.ErrSyntax, 3},
		{"cut in the first element", "[\n {\"id\": \"x\",\n  \"list\": [\n", parsers.ErrSyntax, 4},
		{"object cut", "{\"id\": \"x\",\n\"n\": 1", parsers.ErrSyntax, 2},
		{"object with a bad value", "{\n\"id\": x}", parsers.ErrSyntax, 2},
		{"array never closed, nothing read", "[\n", parsers.ErrSyntax, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen, _, err := decodeAll(context.Background(), tt.in)
			parsertest.CheckError(t, err, "/x/e.json", tt.line, tt.kind)
			if len(seen) != 0 {
				t.Errorf("fn saw %q on an error", seen)
			}
		})
	}
}

func TestDecodeEachCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	seen, _, err := decodeAll(ctx, `[{"id":"a"},{"id":"b"}]`)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "/x/e.json") || len(seen) != 0 {
		t.Errorf("error %v, fn saw %q; want context.Canceled naming the file and nothing read", err, seen)
	}
}
