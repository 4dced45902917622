package jsonhead

import (
	"fmt"
	"strings"
	"testing"
)

func keys(s Shape) string {
	var b []string
	for _, k := range s.Keys {
		kind := "?"
		if k.Kind != 0 {
			kind = string(k.Kind)
		}
		b = append(b, fmt.Sprintf("%s:%s=%s", k.Path, k.Name, kind))
	}
	return strings.Join(b, " ")
}

func TestScan(t *testing.T) {
	tests := []struct {
		head     string
		root     byte
		keys     string
		complete bool
	}{
		{`{"a": 1, "b": "x", "c": null}`, '{', `:a=1 :b=" :c=n`, true},
		{`{"a": {"b": [{"c": true}, {"d": [1, 2]}]}, "e": []}`, '{', `:a={ a:b=[ a/b/[]:c=t a/b/[]:d=[ :e=[`, true},
		{"\xef\xbb\xbf {\n\"x\\\"y\": \"v,\\\"w\", \"z\": -1}", '{', `:x\"y=" :z=-`, true},
		{`{"a": "cut`, '{', `:a=?`, false},
		{`{"a": [{"b": 1}, {"c"`, '{', `:a=[ a/[]:b=1 a/[]:c=?`, false},
		{`{"k`, '{', ``, false},
		{`[{"a": 1}]`, '[', `[]:a=1`, true},
		{`{"a": 1} {"b": 2}`, '{', `:a=1`, true},
		{`12:{"a": 1}`, '1', ``, false},
		{``, 0, ``, false},
		{`}}]]`, '}', ``, false},
	}
	for _, tt := range tests {
		s := Scan([]byte(tt.head))
		if s.Root != tt.root || keys(s) != tt.keys || s.Complete != tt.complete {
			t.Errorf("Scan(%q) = root %q keys %q complete %v, want %q %q %v", tt.head, s.Root, keys(s), s.Complete, tt.root, tt.keys, tt.complete)
		}
	}
	s := Scan([]byte(`{"m": [{"role": "user"}], "id": "x"}`))
	if k, ok := s.Kind("", "m"); !ok || k != '[' {
		t.Errorf("Kind(m) = %q, %v", k, ok)
	}
	if !s.Has("m/[]", "content", "role") || s.Has("", "role") || !s.Any("m/[]") || s.Any("x") {
		t.Error("Has/Any disagree with the keys")
	}
}

func TestValueFirstAnywhere(t *testing.T) {
	s := Scan([]byte(`{"id": "x\"y", "type": "summary", "n": 1, "p": {"type": "inner", "leafUuid": "u"}, "cut": "ab`))
	if v, ok := s.Value("", "type"); !ok || v != "summary" {
		t.Errorf("Value(type) = %q, %v", v, ok)
	}
	if v, ok := s.Value("", "id"); !ok || v != `x\"y` {
		t.Errorf("Value(id) = %q, %v: want the string as written", v, ok)
	}
	if v, ok := s.Value("p", "type"); !ok || v != "inner" {
		t.Errorf("Value(p/type) = %q, %v", v, ok)
	}
	for _, name := range []string{"n", "p", "cut", "absent"} {
		if v, ok := s.Value("", name); ok {
			t.Errorf("Value(%s) = %q, true: want no whole string", name, v)
		}
	}
	if first, ok := s.First(""); !ok || first != "id" {
		t.Errorf("First(root) = %q, %v", first, ok)
	}
	if _, ok := s.First("q"); ok {
		t.Error("First of an absent object")
	}
	if !s.Anywhere("leafUuid") || s.Has("", "leafUuid") || s.Anywhere("summary") {
		t.Error("Anywhere: a nested key counts, a value does not")
	}
	arr := Scan([]byte(`[{"uuid": "a", "name": "n"}, {"sender": "human"}]`))
	if first, ok := arr.First("[]"); !ok || first != "uuid" || !arr.Anywhere("sender", "x") {
		t.Errorf("array: First = %q, %v; Anywhere(sender) = %v", first, ok, arr.Anywhere("sender"))
	}
}

// TestKeyNotValue is what the Detect methods rely on: a key is told from the
// same word as a value, wherever white space falls.
func TestKeyNotValue(t *testing.T) {
	tests := []struct {
		head, key string
		want      bool
	}{
		{`{"mapping": {`, "mapping", true},
		{`{"title": "mapping", "x": 1}`, "mapping", false},
		{`{"title": "mapping", "mapping" :{}}`, "mapping", true},
		{`[{"uuid"` + "\n\t:" + `"x"}]`, "uuid", true},
		{`{"uuid_x": 1}`, "uuid", false},
		{`{"chat_mess`, "chat_messages", false},
		{`{"text": "say \"mapping\": no"}`, "mapping", false},
	}
	for _, tt := range tests {
		if got := Scan([]byte(tt.head)).Anywhere(tt.key); got != tt.want {
			t.Errorf("Scan(%q).Anywhere(%q) = %v, want %v", tt.head, tt.key, got, tt.want)
		}
	}
}

func TestFirstLine(t *testing.T) {
	tests := []struct{ head, want string }{
		{"{\"a\":1}\n{\"b\":2}\n", `{"a":1}`},
		{"\n\n  {\"a\":1}\r\n{", `{"a":1}`},
		{"\xef\xbb\xbf{\"a\":1}", `{"a":1}`},
		{`{"a": "cut`, `{"a": "cut`},
		{"", ""},
	}
	for _, tt := range tests {
		if got := string(FirstLine([]byte(tt.head))); got != tt.want {
			t.Errorf("FirstLine(%q) = %q, want %q", tt.head, got, tt.want)
		}
	}
}

func TestFirstObjectLine(t *testing.T) {
	tests := []struct{ name, head, want string }{
		{"clean", "{\"a\":1}\n{\"b\":2}\n", `{"a":1}`},
		{"bom and blank lines", "\xef\xbb\xbf\n  {\"a\":1}\r\n{", `{"a":1}`},
		{"cut first line", `{"a": "cut`, `{"a": "cut`},
		{"NUL line", strings.Repeat("\x00", 100) + "\n{\"a\":1}\n", `{"a":1}`},
		{"NULs glued to the record", strings.Repeat("\x00", 100) + "{\"a\":1}\n", `{"a":1}`},
		{"garbage line", "garbage\n{\"a\":1}\n", `{"a":1}`},
		{"torn record", "{\"a\":\n{\"b\":2}\n", `{"b":2}`},
		{"array line", "[1,2]\n{\"b\":2}\n", `{"b":2}`},
		{"torn record, the next glued", "{\"a\":\"cut{\"b\":2}\n{\"c\":3}\n", `{"b":2}`},
		{"torn record, the next glued and cut", `{"a":"cut{"b":"cut by the head`, `{"b":"cut by the head`},
		{"torn key, the next glued and cut", `{"a{"b":"cut by the head`, `{"b":"cut by the head`},
		{"cut record with a bad byte", "{\"a\":\"\x01\",\"b\":{\"c\":\"x", "{\"a\":\"\x01\",\"b\":{\"c\":\"x"},
		{"torn record, garbage glued", "{\"a\":\"cut{\"b\" x\n{\"c\":3}\n", `{"c":3}`},
		{"only NULs", strings.Repeat("\x00", 4096), ""},
		{"only garbage", "garbage\nmore garbage", ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		if got := string(FirstObjectLine([]byte(tt.head))); got != tt.want {
			t.Errorf("%s: FirstObjectLine(%q) = %q, want %q", tt.name, tt.head, got, tt.want)
		}
	}
}

func TestLeadingObjectLine(t *testing.T) {
	tests := []struct{ name, head, want string }{
		{"clean", "{\"a\":1}\n{\"b\":2}\n", `{"a":1}`},
		{"bom and blank lines", "\xef\xbb\xbf\n  {\"a\":1}\r\n{", `{"a":1}`},
		{"cut first line", `{"a": "cut`, `{"a": "cut`},
		{"NULs glued to the record", strings.Repeat("\x00", 100) + "{\"a\":1}\n", `{"a":1}`},
		{"text before a record", "# notes\n{\"a\":1}\n", ""},
		{"array", "[1,2]\n{\"b\":2}\n", ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		if got := string(LeadingObjectLine([]byte(tt.head))); got != tt.want {
			t.Errorf("%s: LeadingObjectLine(%q) = %q, want %q", tt.name, tt.head, got, tt.want)
		}
	}
}

func FuzzScan(f *testing.F) {
	f.Add([]byte(`{"a": [{"b": "c\"d"}], "e": 1}`))
	f.Fuzz(func(t *testing.T, head []byte) {
		s := Scan(head)
		for _, k := range s.Keys {
			if strings.Count(k.Path, "/") > len(head) {
				t.Fatalf("path %q deeper than the input", k.Path)
			}
		}
	})
}

// TestAnywhere: a key at any depth of a head that may be cut anywhere, not
// the same word as a value (what loose.HasKey was, before Detect methods
// scanned their head once).
func TestAnywhere(t *testing.T) {
	tests := []struct {
		head, key string
		want      bool
	}{
		{`{"mapping": {`, "mapping", true},
		{`{"title": "mapping", "x": 1}`, "mapping", false},       // a value, not a key
		{`{"title": "mapping", "mapping" :{}}`, "mapping", true}, // the key after the value
		{`[{"uuid"` + "\n\t:" + `"x"}]`, "uuid", true},           // white space before the colon
		{`{"uuid_x": 1}`, "uuid", false},
		{`{"chat_mess`, "chat_messages", false}, // a head cut mid-key
	}
	for _, tt := range tests {
		if got := Scan([]byte(tt.head)).Anywhere(tt.key); got != tt.want {
			t.Errorf("Scan(%q).Anywhere(%q) = %v, want %v", tt.head, tt.key, got, tt.want)
		}
	}
}
