package wordtab

import (
	"maps"
	"testing"
)

func TestParse(t *testing.T) {
	got := Parse("# header\tnot a word\n#\nran\trun\nno tab here\n\nchildren\tchild\n", 2)
	want := map[string]string{"ran": "run", "children": "child"}
	if !maps.Equal(got, want) {
		t.Errorf("Parse = %v, want %v", got, want)
	}
}
