package indexer

import (
	"fmt"
	"testing"
)

// A blank line leaves a place between the words either side of it, in
// both analyzers, so that no phrase runs across it; a line break alone
// does not (a phrase may wrap).
func TestParagraphGap(t *testing.T) {
	for _, name := range []string{AnalyzerName, TextAnalyzerName} {
		a := analyzerNamed(t, name)
		for _, tt := range []struct {
			text, want string
			words      string // AnalyzerName's, when it differs: no camelCase parts
		}{
			{"react native", "react@1 nativ@2", ""},
			{"react\nnative", "react@1 nativ@2", ""},
			{"react\n\nnative", "react@1 nativ@3", ""},
			{"react \r\n \r\n native", "react@1 nativ@3", ""},
			{"react.\n \n- native\n\n\nmodules", "react@1 nativ@3 modul@5", ""},
			{"UserProfileCard\n\nnative", "userprofilecard@1 user@1 userprofil@1 profil@1 profilecard@1 card@1 nativ@3", "userprofilecard@1 nativ@3"},
		} {
			var got string
			for _, x := range a.Analyze([]byte(tt.text)) {
				got += fmt.Sprintf(" %s@%d", x.Term, x.Position)
			}
			if name == AnalyzerName && tt.words != "" {
				tt.want = tt.words
			}
			if got != " "+tt.want {
				t.Errorf("%s %q:%s, want %s", name, tt.text, got, tt.want)
			}
		}
	}
}

func TestParagraphBreak(t *testing.T) {
	for gap, want := range map[string]bool{
		"": false, " ": false, "\n": false, " \n ": false, ".\n- ": false, "\n.\n": false,
		"\n\n": true, "\n \t\r\n": true, ".\n\n-": true,
	} {
		if got := paragraphBreak([]byte(gap)); got != want {
			t.Errorf("paragraphBreak(%q) = %v, want %v", gap, got, want)
		}
	}
}
