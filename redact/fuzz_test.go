package redact

import (
	"regexp"
	"strings"
	"testing"
)

var markerRE = regexp.MustCompile(`\[redacted: [a-z0-9-]+\]`)

// FuzzString checks the invariants of String: it never panics, what it
// replaced is gone from the output, and redacting twice changes nothing
// more than redacting once.
func FuzzString(f *testing.F) {
	for _, c := range ruleCases() {
		f.Add(c.in)
	}
	f.Add(benchSecrets())
	r := New()
	f.Fuzz(func(t *testing.T, s string) {
		out, n := r.String(s)
		if n == 0 {
			if out != s {
				t.Fatalf("String(%q) = %q with no replacement", s, out)
			}
			return
		}
		bare := markerRE.ReplaceAllString(out, "\x00")
		for _, sp := range r.find(s) {
			if secret := s[sp.start:sp.end]; len(secret) >= minEchoLen && strings.Contains(bare, secret) {
				t.Fatalf("String(%q) = %q still holds %q", s, out, secret)
			}
		}
		again, _ := r.String(out)
		if again != out {
			t.Fatalf("not idempotent:\n in    %q\n once  %q\n twice %q", s, out, again)
		}
	})
}
