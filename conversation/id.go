package conversation

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"
)

// undatedPrefix stands in for the date of a conversation whose format gives
// none. The portable spec falls back to "now", which would make ids change
// between runs; a fixed prefix keeps them stable.
const undatedPrefix = "00000000"

// NewID returns the portable spec's recommended id, YYYYMMDD-<first 8 hex of
// sha256(uniqueKey)>, for formats with no id of their own. The date is taken
// in UTC so the id is the same on every machine.
func NewID(uniqueKey string, date time.Time) string {
	sum := sha256.Sum256([]byte(uniqueKey))
	prefix := undatedPrefix
	if !date.IsZero() {
		prefix = date.UTC().Format("20060102")
	}
	return prefix + "-" + hex.EncodeToString(sum[:4])
}

// Slug turns a name into a lower-case, dash-separated token fit for a
// document id: "Bootstrap CIs (BCa)" → "bootstrap-cis-bca".
func Slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r > 127 && isLetter(r):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		default:
			dash = true
		}
	}
	s := b.String()
	if len(s) > 64 {
		s = strings.TrimRight(s[:64], "-")
	}
	return s
}

func isLetter(r rune) bool {
	// Anything above ASCII that is not a space or punctuation we know of.
	return !strings.ContainsRune("\u00a0\u2000\u2001\u2002\u2003\u2009\u200b\u2013\u2014\u2018\u2019\u201c\u201d\u2026", r)
}
