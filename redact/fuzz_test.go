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
	for _, s := range twiceCases {
		f.Add(s)
	}
	f.Add("://:asswor@asswor00") // a letters-only URL password inside a longer word
	f.Add("postgres://postgres:postgres@db/postgres?sslmode=disable postgresql")
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
			secret := s[sp.start:sp.end]
			if len(secret) < minEchoLen {
				continue
			}
			// A secret of letters only is replaced where it stands whole
			// (postgres stays in postgresql://): a word holding it is no
			// echo of it.
			if lettersOnly(secret) {
				if _, n := replaceWhole(bare, secret, ""); n > 0 {
					t.Fatalf("String(%q) = %q still holds %q as a word", s, out, secret)
				}
				continue
			}
			if strings.Contains(bare, secret) {
				t.Fatalf("String(%q) = %q still holds %q", s, out, secret)
			}
		}
		again, _ := r.String(out)
		if again != out {
			t.Fatalf("not idempotent:\n in    %q\n once  %q\n twice %q", s, out, again)
		}
	})
}

// twiceCases are forms whose marker a second pass could take for a secret:
// a title or echo derived from redacted text is redacted again.
var twiceCases = []string{
	"echo hunter2xyz | docker login --password-stdin -u bob",
	"printf 'hunter2xyz' | docker login --username bob --password-stdin registry.example.com",
	"PIN: 4821 and passcode=123456",
	"Passwort: hunter2xyz, mot de passe: s3cr3tValue",
	"user=bob&password=s3cr%40t!x",
	`{"Name": "/prod/db/password", "Type": "SecureString", "Value": "Xy7pQ2rT9w"}`,
	"setx DB_PASSWORD hunter2xyz",
	"password=ab)cd3fgh!",
	"mysql -u root -phunter2xyz",
	"Cookie: a=[redacted: generic-secret]; session=Xk9mPq2zLw77abcdefGHIJ",
	"Cookie: session=Xk9mPq2zLw77abcdefGHIJ; theme=[redacted: x]",
}

// TestRedactTwice: redacting redacted text changes nothing, and no
// marker is nested in another.
func TestRedactTwice(t *testing.T) {
	r := New()
	for _, s := range twiceCases {
		once, n := r.String(s)
		if n == 0 {
			t.Errorf("%q: nothing redacted", s)
			continue
		}
		twice, _ := r.String(once)
		if twice != once {
			t.Errorf("not idempotent:\n in    %q\n once  %q\n twice %q", s, once, twice)
		}
		if strings.Contains(once, MarkerPrefix+"[") || strings.Count(once, MarkerPrefix) != len(markerRE.FindAllString(once, -1)) {
			t.Errorf("%q: markers nested or torn: %q", s, once)
		}
	}
}
