package irregular

import "testing"

// Irregular forms give their base; forms that are words of their own
// ("left", "found", "rose"), regular forms the stemmer folds and unknown
// words give nothing.
func TestBase(t *testing.T) {
	tab := Load()
	tests := []struct{ word, want string }{
		{"ran", "run"},
		{"went", "go"},
		{"bought", "buy"},
		{"taught", "teach"},
		{"children", "child"},
		{"teeth", "tooth"},
		{"left", ""},    // a direction, not only "leave"
		{"found", ""},   // also "to found a company"
		{"rose", ""},    // the flower; "roses" would no longer meet "rose"
		{"thought", ""}, // an idea
		{"walked", ""},  // regular: the stemmer's job
		{"go", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := tab.Get([]byte(tt.word)); got != tt.want {
			t.Errorf("Get(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}
