package loose

import "testing"

func TestKindOf(t *testing.T) {
	for _, tt := range []struct{ raw, want string }{
		{"", "nothing"},
		{"  \n", "nothing"},
		{` {"a":1}`, "an object"},
		{`[1]`, "an array"},
		{`"x"`, "a string"},
		{`true`, "a boolean"},
		{`false`, "a boolean"},
		{`null`, "null"},
		{`-1.5`, "a number"},
		{`42`, "a number"},
	} {
		if got := KindOf([]byte(tt.raw)); got != tt.want {
			t.Errorf("KindOf(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}
