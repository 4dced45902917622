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

// The index's analyzer makes a camelCase word also its parts and their
// runs, all at the word's own place (the whole word first, then the runs
// ending with each part, the longest first), each with its offsets; the
// query words' analyzer leaves the word whole.
func TestAnalyzerCamelCase(t *testing.T) {
	text, words := analyzerNamed(t, TextAnalyzerName), analyzerNamed(t, AnalyzerName)
	type tok struct {
		term, src string
		pos       int
	}
	tests := []struct {
		text string
		want []tok
	}{
		{"UserProfileCard.tsx ok", []tok{
			{"userprofilecard", "UserProfileCard", 1}, {"user", "User", 1}, {"userprofil", "UserProfile", 1}, {"profil", "Profile", 1},
			{"profilecard", "ProfileCard", 1}, {"card", "Card", 1},
			{"tsx", "tsx", 2}, {"ok", "ok", 3}}},
		{"getUserById()", []tok{
			{"getuserbyid", "getUserById", 1}, {"get", "get", 1}, {"getus", "getUser", 1}, {"user", "User", 1},
			{"getuserbi", "getUserBy", 1}, {"userbi", "UserBy", 1}, // "By" alone is a stop word
			{"userbyid", "UserById", 1}, {"byid", "ById", 1}, {"id", "Id", 1}}},
		{"HTMLParser utf8Decode", []tok{
			{"htmlparser", "HTMLParser", 1}, {"html", "HTML", 1}, {"parser", "Parser", 1},
			{"utf8decod", "utf8Decode", 2}, {"utf8", "utf8", 2}, {"decod", "Decode", 2}}},
		{"onClick", []tok{{"onclick", "onClick", 1}, {"click", "Click", 1}}},
		// not split: one-letter parts, no small letter, too many parts,
		// too long, other scripts
		{"iPhone getX ECONNREFUSED", []tok{{"iphon", "iPhone", 1}, {"getx", "getX", 2}, {"econnrefus", "ECONNREFUSED", 3}}},
		{"aBcDeFgHiJkLmN", []tok{{"abcdefghijklmn", "aBcDeFgHiJkLmN", 1}}},
		{"OneTwoThreeFourFiveSixSeven", []tok{{"onetwothreefourfivesixseven", "OneTwoThreeFourFiveSixSeven", 1}}},
		{"東京Tower", []tok{{"東", "東", 1}, {"京", "京", 2}, {"tower", "Tower", 3}}},
		{"C++ café", []tok{{"c++", "C++", 1}, {"cafe", "café", 2}}},
	}
	for _, tt := range tests {
		var got []tok
		for _, x := range text.Analyze([]byte(tt.text)) {
			got = append(got, tok{string(x.Term), tt.text[x.Start:x.End], x.Position})
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: %v,\n want %v", tt.text, got, tt.want)
		}
	}
	if got := terms(words.Analyze([]byte("getUserById UserProfileCard"))); !slices.Equal(got, []string{"getuserbyid", "userprofilecard"}) {
		t.Errorf("query words: %q", got)
	}
}
