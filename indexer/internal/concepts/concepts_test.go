package concepts

import "testing"

// Plurals are looked up as their singulars, and a word that is no noun of
// the table gives nothing, whatever its ending.
func TestOf(t *testing.T) {
	tab := Load()
	tests := []struct{ word, as string }{
		{"goulash", "goulash"},
		{"dogs", "dog"},
		{"tomatoes", "tomato"},
		{"berries", "berry"},
		{"children", "children"}, // WordNet's irregular plurals are listed
		{"xqzv", ""},
		{"xqzvies", ""},
		{"ss", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got := tab.Of([]byte(tt.word))
		want := ""
		if tt.as != "" {
			want = tab.words.Get([]byte(tt.as))
			if want == "" {
				t.Fatalf("%q is not in the table", tt.as)
			}
		}
		if got != want {
			t.Errorf("Of(%q) = %q, want %q (as %q)", tt.word, got, want, tt.as)
		}
	}
}

func BenchmarkOf(b *testing.B) {
	tab := Load()
	words := [][]byte{[]byte("goulash"), []byte("berries"), []byte("tomatoes"), []byte("latency"), []byte("xqzv")}
	b.ReportAllocs()
	for b.Loop() {
		for _, w := range words {
			tab.Of(w)
		}
	}
}
