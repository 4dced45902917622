package server

import (
	"strings"
	"testing"
)

// TestHighlightLanguages: the languages people paste most are coloured
// from the embedded lexers, by name or by guess, and an unknown one is
// left plain.
func TestHighlightLanguages(t *testing.T) {
	cases := []struct {
		lang, code, want string // want: a class chroma gives a token of code
	}{
		{"go", "func quokka() int { return 42 }", `class="kd"`},
		{"golang", "package main", `class="kn"`},
		{"python", "def f(x):\n    return x", `class="k"`},
		{"py", "import os", `class="kn"`},
		{"javascript", "const x = () => 1;", `class="kr"`},
		{"ts", "let y: number = 2;", `class="kd"`},
		{"bash", "echo \"$HOME\"", `class="nb"`},
		{"json", `{"a": 1}`, `class="nt"`},
		{"yaml", "a: 1", `class="nt"`},
		{"sql", "SELECT * FROM t", `class="k"`},
		{"rust", "fn main() {}", `class="k"`},
		{"html", "<script>var a = 1;</script>", `class="kd"`},
		{"", "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(1) }", `class="kn"`},
	}
	for _, c := range cases {
		got, ok := highlight(c.code, c.lang)
		if !ok || !strings.Contains(got, c.want) {
			t.Errorf("%q: %v %s, want a token with %s", c.lang, ok, got, c.want)
		}
	}
	if got, ok := highlight("some words", "no-such-language"); ok && strings.Contains(got, "class=\"k") {
		t.Errorf("an unknown language was coloured: %s", got)
	}
}
