package indexer

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis"
	unicodetok "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"
)

func analyzerNamed(t testing.TB, name string) analysis.Analyzer {
	t.Helper()
	a, err := registry.NewCache().AnalyzerNamed(name)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func terms(ts analysis.TokenStream) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t.Term)
	}
	return out
}

// A question's words, analysed as the query package analyses them, must be
// among the concepts the concept analyzer files for a text that names the
// thing: both sides stem alike.
func TestConceptAnalyzer(t *testing.T) {
	text := analyzerNamed(t, AnalyzerName)
	concepts := analyzerNamed(t, ConceptAnalyzerName)
	tests := []struct {
		text, asked string
		want        bool
	}{
		{"My grandmother taught me her goulash recipe.", "dish", true},
		{"I've been learning Portuguese on an app.", "language", true},
		{"My sister just moved to Lisbon for a new job.", "city", true},
		{"The doctor put me on physiotherapy twice a week.", "therapy", true},
		{"We're planning a trip in October.", "month", true},
		{"My son joined the school chess team.", "child", true},
		{"We hung a print above the sofa.", "couch", true},
		{"I quit coffee and switched to oolong.", "tea", true},
		{"Our tomatoes are ripening.", "vegetables", true},
		{"The children loved it.", "kid", true},
		// a word is not its own concept, and verbs give none
		{"My grandmother taught me her goulash recipe.", "goulash", false},
		{"We use it to run the change.", "usage", false},
		{"", "dish", false},
	}
	for _, tt := range tests {
		asked := terms(text.Analyze([]byte(tt.asked)))
		if len(asked) != 1 {
			t.Fatalf("%q analyses to %q, want one term", tt.asked, asked)
		}
		got := terms(concepts.Analyze([]byte(tt.text)))
		if slices.Contains(got, asked[0]) != tt.want {
			t.Errorf("concepts of %q = %q; contains %q (%q) = %v, want %v", tt.text, got, tt.asked, asked[0], !tt.want, tt.want)
		}
	}
}

// Each concept word is filed once, at the place of the first word that
// gives it, with that word's offsets.
func TestConceptAnalyzerPositions(t *testing.T) {
	ts := analyzerNamed(t, ConceptAnalyzerName).Analyze([]byte("A beagle and a greyhound"))
	seen := map[string]bool{}
	for _, tok := range ts {
		term := string(tok.Term)
		if seen[term] {
			t.Errorf("%q filed twice", term)
		}
		seen[term] = true
		src := "A beagle and a greyhound"[tok.Start:tok.End]
		if src != "beagle" && src != "greyhound" {
			t.Errorf("%q has offsets of %q", term, src)
		}
		if term == "dog" && (src != "beagle" || tok.Position != 2) {
			t.Errorf("dog at %q, position %d; want beagle, 2", src, tok.Position)
		}
	}
	if !seen["dog"] {
		t.Errorf("no dog among %q", terms(ts))
	}
}

// Any text gives concept tokens with offsets inside it and words of the
// table (lower-case ASCII letters), never the text's own bytes.
func FuzzConceptAnalyzer(f *testing.F) {
	for _, s := range []string{"My son's beagle", "Lisbon, Osaka and Montreal", "tomatoes\u00a0ies", "", "ies es s"} {
		f.Add(s)
	}
	a := analyzerNamed(f, ConceptAnalyzerName)
	f.Fuzz(func(t *testing.T, s string) {
		for _, tok := range a.Analyze([]byte(s)) {
			if tok.Start < 0 || tok.End > len(s) || tok.Start > tok.End {
				t.Fatalf("%q: offsets %d–%d outside %d bytes", tok.Term, tok.Start, tok.End, len(s))
			}
			if len(tok.Term) == 0 || strings.Trim(string(tok.Term), "abcdefghijklmnopqrstuvwxyz") != "" {
				t.Fatalf("term %q from %q is no table word", tok.Term, s)
			}
		}
	})
}

func BenchmarkAnalyzers(b *testing.B) {
	para := `The eviction policy uses a sharded LRU cache; each shard holds its own lock, so readers
rarely wait. I measured the p99 latency with the benchmark harness: the query path got 30 percent
faster, but the regression test on the replica still fails when the lease expires during a
deadlock check. My sister moved to Lisbon and I've been learning Portuguese in the evenings.
`
	// Code as a tool's result or a pasted diff holds it: camelCase names,
	// which the index's analyzer (TextAnalyzerName) also splits.
	code := `func (s *UserProfileStore) getUserById(ctx context.Context, userId string) (*UserProfile, error) {
	cachedProfile, ok := s.profileCache.lookupByKey(userId)
	if !ok { return s.fetchRemoteProfile(ctx, userId, HTTPClientOptions{retryOnTimeout: true}) }
	return cachedProfile, nil // see handleProfileUpdate and onSessionExpired
}
`
	for _, tt := range []struct{ name, text string }{
		{AnalyzerName, para},
		{ConceptAnalyzerName, para},
		{TextAnalyzerName, para},
		{TextAnalyzerName + "/code", code},
	} {
		a := analyzerNamed(b, strings.TrimSuffix(tt.name, "/code"))
		text := []byte(strings.Repeat(tt.text, 4))
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				a.Analyze(text)
			}
		})
	}
}

// BenchmarkDropMarkers: a text with markers far apart, whose every token
// between them is compared with the next marker.
func BenchmarkDropMarkers(b *testing.B) {
	words := strings.Repeat("some words of text ", 40)
	text := []byte(strings.Repeat("DB_PASS=[redacted: password] then "+words+"\n", 8) + "[redacted: aws-access-key-id]")
	toks := unicodetok.NewUnicodeTokenizer().Tokenize(text)
	buf := make(analysis.TokenStream, len(toks))
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		copy(buf, toks)
		dropMarkers(text, buf)
	}
}

// Irregular forms analyse as their base, so a question in the present meets
// a story in the past; forms that are words of their own keep their sense,
// and a form's offsets stay on the word the text has (highlights).
func TestAnalyzerBaseForms(t *testing.T) {
	an := analyzerNamed(t, AnalyzerName)
	one := func(w string) string {
		ts := terms(an.Analyze([]byte(w)))
		if len(ts) != 1 {
			t.Fatalf("%q analyses to %q, want one term", w, ts)
		}
		return ts[0]
	}
	tests := []struct {
		a, b string
		same bool
	}{
		{"ran", "run", true},
		{"ran", "running", true},
		{"went", "go", true},
		{"bought", "buys", true},
		{"taught", "teaching", true},
		{"children", "child", true},
		{"rose", "roses", true}, // the flower stays a flower
		{"rose", "rise", false},
		{"left", "leave", false},
		{"found", "find", false},
		{"walked", "walk", true},
	}
	for _, tt := range tests {
		if got := one(tt.a) == one(tt.b); got != tt.same {
			t.Errorf("%q (%s) and %q (%s) analyse alike = %v, want %v", tt.a, one(tt.a), tt.b, one(tt.b), got, tt.same)
		}
	}
	text := "Yesterday I went to a support group."
	found := false
	for _, tok := range an.Analyze([]byte(text)) {
		if string(tok.Term) == "go" {
			found = true
			if text[tok.Start:tok.End] != "went" {
				t.Errorf("go has the offsets of %q, want went", text[tok.Start:tok.End])
			}
		}
	}
	if !found {
		t.Errorf("%q has no term go", text)
	}
}

// Every word TestConceptAnalyzer asks with is a noun with concept words, so
// a question looks it up among the concepts; an ordinal, a verb or an
// adjective is not ("second" would meet "moment", whose broader words hold
// it).
func TestHasConcepts(t *testing.T) {
	for _, tt := range []struct {
		word string
		want bool
	}{
		{"dish", true}, {"language", true}, {"city", true}, {"cities", true}, {"therapy", true},
		{"month", true}, {"child", true}, {"couch", true}, {"tea", true}, {"vegetables", true}, {"kid", true},
		{"second", false}, {"get", false}, {"new", false}, {"ago", false}, {"", false},
	} {
		if got := HasConcepts(tt.word); got != tt.want {
			t.Errorf("HasConcepts(%q) = %v, want %v", tt.word, got, tt.want)
		}
	}
}

// A dot, underscore or colon between letters or digits is a word break, so
// each part of a name or a "key:value" is found on its own; colons Unicode
// word breaking already broke at (a digit on either side, a double colon)
// give the words they gave.
func TestAnalyzerNameParts(t *testing.T) {
	an := analyzerNamed(t, AnalyzerName)
	tests := []struct {
		text string
		want []string
	}{
		{"user:alice", []string{"user", "alic"}},
		{"TODO:refactor", []string{"todo", "refactor"}},
		{"namespace:monitoring", []string{"namespac", "monitor"}},
		{"JIRA:ABC", []string{"jira", "abc"}},
		{"TODO:fix", []string{"todo", "fix"}},
		{"TODO: fix", []string{"todo", "fix"}},
		{"a:b:c", []string{"b", "c"}},               // "a" is a stop word
		{"über:straße", []string{"uber", "strass"}}, // accents folded
		{"ns:foo.bar", []string{"ns", "foo", "bar"}},
		{"localhost:8080", []string{"localhost", "8080"}},
		{"postgres:16", []string{"postgr", "16"}},
		{"10:30", []string{"10", "30"}},
		{"std::vector", []string{"std", "vector"}},
		{"http://example.com:80/x", []string{"http", "exampl", "com", "80", "x"}},
		{"main.go", []string{"main", "go"}},
		{"retry_policy", []string{"retri", "polici"}},
		{"café.pdf", []string{"cafe", "pdf"}},
		{":smile: Note:", []string{"smile", "note"}},
	}
	for _, tt := range tests {
		if got := terms(an.Analyze([]byte(tt.text))); !slices.Equal(got, tt.want) {
			t.Errorf("%q analyses to %q, want %q", tt.text, got, tt.want)
		}
	}
	// The text keeps its length: offsets point at the parts.
	text := "see user:alice"
	for _, tok := range an.Analyze([]byte(text)) {
		if string(tok.Term) == "alic" && text[tok.Start:tok.End] != "alice" {
			t.Errorf("alic has the offsets of %q, want alice", text[tok.Start:tok.End])
		}
	}
}

// The index's analyzer leaves out the words of redaction markers, their
// places kept; the query's keeps them (a query is no redacted text).
func TestMarkersLeftOut(t *testing.T) {
	text := analyzerNamed(t, TextAnalyzerName)
	tests := []struct {
		in   string
		want []string // a term at another place than its order's: term@place
	}{
		{"[redacted: password]", []string{}},
		{"DB_PASS=[redacted: password] host", []string{"db", "pass", "host@5"}},
		{"a [redacted: aws-access-key-id] b [redacted: url-password] password", []string{"b@7", "password@11"}},
		{"[redacted: password]box", []string{"box@3"}},
		{"cut at [redacted: ", []string{"cut"}},
		{"redacted password", []string{"redact", "password"}},
	}
	for _, tt := range tests {
		got := []string{}
		for i, tok := range text.Analyze([]byte(tt.in)) {
			s := string(tok.Term)
			if tok.Position != i+1 {
				s += "@" + strconv.Itoa(tok.Position)
			}
			got = append(got, s)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: %v, want %v", tt.in, got, tt.want)
		}
	}
	if got := terms(analyzerNamed(t, AnalyzerName).Analyze([]byte("[redacted: password]"))); !slices.Equal(got, []string{"redact", "password"}) {
		t.Errorf("query words: %v", got)
	}
}

// A redaction marker's words give no concepts: "password" in
// "[redacted: password]" is no noun of the text, and its broader words
// (watchword, secret…) would let a question find every redacted secret.
func TestConceptsLeaveMarkersOut(t *testing.T) {
	concepts := analyzerNamed(t, ConceptAnalyzerName)
	tests := []struct {
		in, bare string // bare: a text with in's concepts, in less its markers
	}{
		{"here: DB_PASS=[redacted: password] ok", "here: DB_PASS= ok"},
		{"[redacted: password]", ""},
		{"key [redacted: aws-access-key-id] for the account", "key  for the account"},
		{"my password is [redacted: password]", "my password is "},
		{"redacted: password in prose", "password in prose"}, // no marker: password's concepts stay
	}
	for _, tt := range tests {
		got, want := terms(concepts.Analyze([]byte(tt.in))), terms(concepts.Analyze([]byte(tt.bare)))
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("concepts of %q = %q, want %q", tt.in, got, want)
		}
	}
}
