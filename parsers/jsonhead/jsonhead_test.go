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
