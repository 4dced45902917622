package loose

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers"
)

func TestMend(t *testing.T) {
	msgs := KeyIs("messages")
	tests := []struct {
		name string
		in   string
		unit func([]string) bool
		want string // "" when Mend must refuse
	}{
		{"whole document", `{"a":1}`, nil, ""},
		{"empty", ``, nil, ""},
		{"blank", " \n ", nil, ""},
		{"broken, not torn", `[1,x`, nil, ""},
		{"torn scalar alone", `"abc`, nil, ""},
		{"number alone", `12`, nil, ""},
		{"just a bracket", `[`, nil, `[]`},
		{"dangling comma", `[1,2,`, nil, `[1,2]`},
		{"number cut mid-way", `[1,23`, nil, `[1]`},
		{"number then space", `[1,23 `, nil, `[1,23]`},
		{"true cut to tr", `[true,tr`, nil, `[true]`},
		{"literal at the end", `[null,false`, nil, `[null]`},
		{"string cut", `["a","b`, nil, `["a"]`},
		{"escaped quote", `["a\"],{","b\"`, nil, `["a\"],{"]`},
		{"escaped backslash", `["a\\","b\\\"x`, nil, `["a\\"]`},
		{"brackets in strings", `{"k":"]}[{","l":"}`, nil, `{"k":"]}[{"}`},
		{"unicode escape cut", `["é","\u00`, nil, `["é"]`},
		{"key cut", `{"a":1,"b`, nil, `{"a":1}`},
		{"key without value", `{"a":1,"b":`, nil, `{"a":1}`},
		{"key and colon then space", `{"a":1,"b" : `, nil, `{"a":1}`},
		{"nested arrays", `[[1,2],[3,[4,5],[6`, nil, `[[1,2],[3,[4,5]]]`},
		{"innermost with complete elements", `[{"a":1},{"b":"x`, nil, `[{"a":1}]`},
		{"innermost holding nothing yet", `{"m":[{"a":{"b":[`, nil, `{}`},
		{"unit drops the torn message", `{"id":"s","messages":[{"t":"one"},{"t":"two","x":[1,`, msgs, `{"id":"s","messages":[{"t":"one"}]}`},
		{"unit empty", `{"id":"s","messages":[{"t":"tw`, msgs, `{"id":"s","messages":[]}`},
		{"no unit on the stack: the root", `{"id":"s","messages":[{"t":"one"}],"meta":{"a":[1,`, msgs, `{"id":"s","messages":[{"t":"one"}]}`},
		{"innermost unit", `[{"c":"1","children":[{"c":"2","children":[{"c":"3","children":[{"c":"4`, KeyIs("", "children"),
			`[{"c":"1","children":[{"c":"2","children":[{"c":"3","children":[]}]}]}]`},
		{"unit by path", `{"h":[[{"u":1},{"a":"x`, func(p []string) bool { return len(p) == 2 && p[0] == "h" }, `{"h":[[{"u":1}]]}`},
		{"array index in the path", `{"h":[[1],[2],[{"u":1},{"a":"x`, func(p []string) bool { return len(p) == 2 && p[1] == "2" }, `{"h":[[1],[2],[{"u":1}]]}`},
		{"same key nested: KeyIs cuts in it", `{"messages":[{"t":"one"},{"t":"two","args":{"messages":["a","b`, msgs, `{"messages":[{"t":"one"},{"t":"two","args":{"messages":["a"]}}]}`},
		{"same key nested: PathIs drops the message", `{"messages":[{"t":"one"},{"t":"two","args":{"messages":["a","b`, PathIs("messages"), `{"messages":[{"t":"one"}]}`},
		{"PathIs of the root", `[{"a":{"":[1,2`, PathIs(), `[]`},
		{"byte order mark", "\xef\xbb\xbf[1,", nil, `[1]`},
		{"white space kept", "{\n \"a\": [\n  1,\n  2\n", nil, "{\n \"a\": [\n  1,\n  2]}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Mend([]byte(tt.in), tt.unit)
			if tt.want == "" {
				if ok {
					t.Fatalf("Mend(%q) = %q, want refusal", tt.in, got)
				}
				return
			}
			if !ok || string(got) != tt.want {
				t.Fatalf("Mend(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			}
		})
	}
}

// TestMendEveryCut cuts a document at every byte: each torn prefix mends to
// valid JSON holding only elements that were complete in it.
func TestMendEveryCut(t *testing.T) {
	doc := `{"id":"s\"1","n":-1.5e3,"ok":true,"messages":[{"t":"a [b] {c}","parts":[1,[2,3],{"x":null}]},{"t":"\\\u00e9\n"},{"t":"last"}],"end":false}`
	for cut := 1; cut < len(doc); cut++ {
		got, ok := Mend([]byte(doc[:cut]), KeyIs("messages"))
		if !ok {
			if strings.TrimSpace(doc[:cut]) != "" && Torn([]byte(doc[:cut])) {
				t.Errorf("cut %d: Mend refused %q", cut, doc[:cut])
			}
			continue
		}
		var v struct {
			Messages []struct {
				T string `json:"t"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(got, &v); err != nil {
			t.Fatalf("cut %d: %q: %v", cut, got, err)
		}
		for i, m := range v.Messages {
			if want := []string{"a [b] {c}", "\\é\n", "last"}[i]; m.T != want {
				t.Errorf("cut %d: message %d is %q, want %q (a torn one kept)", cut, i, m.T, want)
			}
		}
	}
}

func TestUnmarshalMended(t *testing.T) {
	var v struct{ Messages []int }
	torn, err := UnmarshalMended("/x/s.json", []byte("{\"messages\":[1,\n2,\n3"), &v, KeyIs("messages"))
	if err != nil || torn == nil || len(v.Messages) != 2 {
		t.Fatalf("torn %v, err %v, messages %v", torn, err, v.Messages)
	}
	w := TornWarning(torn, "the 2 complete messages")
	if !errors.Is(w, parsers.ErrSyntax) || !strings.Contains(w.Error(), "/x/s.json:3:") || !strings.Contains(w.Error(), "kept the 2 complete messages") {
		t.Errorf("warning %q", w)
	}
	if torn, err := UnmarshalMended("/x/s.json", []byte(`{"messages":[1,x`), &v, nil); torn != nil || err == nil {
		t.Errorf("broken file: torn %v, err %v", torn, err)
	}
	if torn, err := UnmarshalMended("/x/s.json", []byte(`{"messages":[1]}`), &v, nil); torn != nil || err != nil {
		t.Errorf("whole file: torn %v, err %v", torn, err)
	}
}

func FuzzMend(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x\"y",{"b":tr`, `[[[`, `{"k":"]}"`, `["\u00`, `[1e`, `{"a":{"b":[1,2],"c":`} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, byKey bool) {
		var unit func([]string) bool
		if byKey {
			unit = KeyIs("", "a", "children")
		}
		got, ok := Mend(data, unit)
		if !ok {
			return
		}
		if !json.Valid(got) {
			t.Fatalf("Mend(%q) = %q: not valid JSON", data, got)
		}
		if Torn(data) && !strings.HasPrefix(string(data), strings.TrimRight(string(got), "]}")) && !strings.HasPrefix(string(data), "\xef\xbb\xbf") {
			t.Fatalf("Mend(%q) = %q: not a prefix of the input plus closers", data, got)
		}
	})
}

func TestDecodeEachMended(t *testing.T) {
	type conv struct {
		ID string `json:"id"`
		M  []int  `json:"m"`
	}
	tests := []struct {
		name, in, seen, warning string
		err                     bool
	}{
		{"whole", `[{"id":"a","m":[1]}]`, "a:1", "", false},
		{"torn in the second", "[{\"id\":\"a\",\"m\":[1]},\n{\"id\":\"b\",\"m\":[1,2,3", "a:1 b:2",
			"/x/e.json:2: syntax error: unexpected end of file (the file was cut short: kept the 1 conversation before the tear and 2 of b", false},
		{"torn in the first", `[{"id":"a","m":[1,"x`, "a:1", "kept 1 of a;", false},
		{"object alone", `{"id":"a","m":[1,2,{`, "a:2", "kept 2 of a;", false},
		{"nothing whole in the torn one", `[{"id":"a","m":[1]},{"id":"b","m":[`, "a:1", "(kept the 1 conversation before it)", false},
		{"nothing at all", `[{"id":"a","m":[`, "", "", true},
		{"broken, not torn", `[{"id":"a","m":[1]},{"id":"b","m":[1,x]}]`, "a:1", "(kept the 1 conversation before it)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := &parsers.Result{}
			var seen []string
			keep := func(i, line int, v *conv) string {
				if len(v.M) == 0 {
					return ""
				}
				seen = append(seen, v.ID+":"+strconv.Itoa(len(v.M)))
				return strconv.Itoa(len(v.M)) + " of " + v.ID
			}
			err := DecodeEachMended(context.Background(), "/x/e.json", strings.NewReader(tt.in), res, func(i, line int, v *conv) {
				seen = append(seen, v.ID+":"+strconv.Itoa(len(v.M)))
			}, Mended[conv]{Unit: KeyIs("m"), Keep: keep})
			if (err != nil) != tt.err {
				t.Fatalf("err %v", err)
			}
			if got := strings.Join(seen, " "); got != tt.seen {
				t.Errorf("seen %q, want %q", got, tt.seen)
			}
			switch {
			case tt.warning == "" && len(res.Warnings) > 0:
				t.Errorf("warnings %v", res.Warnings)
			case tt.warning != "" && (len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), tt.warning)):
				t.Errorf("warnings %v, want one holding %q", res.Warnings, tt.warning)
			}
		})
	}
}
