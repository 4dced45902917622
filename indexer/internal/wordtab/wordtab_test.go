package wordtab

import "testing"

func TestNew(t *testing.T) {
	tab := New("# header\tnot a word\n#\nran\trun\nno tab here\n\nchildren\tchild\n", 2)
	for word, want := range map[string]string{"ran": "run", "children": "child", "# header": "", "no tab here": "", "": ""} {
		if got := tab.Get([]byte(word)); got != want {
			t.Errorf("Get(%q) = %q, want %q", word, got, want)
		}
	}
	if len(tab.m) != 2 {
		t.Errorf("table of %d words, want 2: %v", len(tab.m), tab.m)
	}
}
