package indexer

import (
	"slices"
	"testing"
)

// What the text analyzer makes of developers' words and of accents: the
// terms, and the text each one's offsets point at (the stored text as
// written, which highlights show).
func TestAnalyzerDeveloperTermsAndAccents(t *testing.T) {
	a := analyzerNamed(t, AnalyzerName)
	type tok struct{ term, src string }
	tests := []struct {
		text string
		want []tok
	}{
		{"C++ and C#", []tok{{"c++", "C++"}, {"c#", "C#"}}},
		{"F#, c# or C", []tok{{"f#", "F#"}, {"c#", "c#"}, {"c", "C"}}},
		{"-std=c++17 g++", []tok{{"std", "std"}, {"c++", "c++"}, {"17", "17"}, {"g++", "g++"}}},
		{"on .NET 8", []tok{{".net", ".NET"}, {"8", "8"}}},
		{"ASP.NET x.net", []tok{{"asp", "ASP"}, {"net", "NET"}, {"x", "x"}, {"net", "net"}}},
		// symbols that go on into a word are not the language's
		{"C#define C+ C+++ Cé#", []tok{{"c", "C"}, {"defin", "define"}, {"c", "C"}, {"c", "C"}, {"ce", "Cé"}}},
		{"net", []tok{{"net", "net"}}},
		{"café Crème Brûlée", []tok{{"cafe", "café"}, {"creme", "Crème"}, {"brule", "Brûlée"}}},
		{"straße Ærø naïve", []tok{{"strass", "straße"}, {"aero", "Ærø"}, {"naiv", "naïve"}}},
		{"Ｃａｆé", []tok{{"cafe", "Ｃａｆé"}}},
		// other scripts are left as they are
		{"数据 カフェ が Ελληνικά Москва", []tok{{"数", "数"}, {"据", "据"}, {"カフェ", "カフェ"}, {"が", "が"}, {"ελληνικά", "Ελληνικά"}, {"москва", "Москва"}}},
	}
	for _, tt := range tests {
		var got []tok
		for _, x := range a.Analyze([]byte(tt.text)) {
			got = append(got, tok{string(x.Term), tt.text[x.Start:x.End]})
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.text, got, tt.want)
		}
	}
}
