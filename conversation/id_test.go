package conversation

import (
	"testing"
	"time"
)

func TestNewID(t *testing.T) {
	tests := []struct {
		key  string
		date time.Time
		want string
	}{
		{"thread-uuid-123", time.Date(2025, 11, 27, 9, 0, 0, 0, time.UTC), "20251127-" + sha8("thread-uuid-123")},
		{"/path/to/project", time.Time{}, "00000000-" + sha8("/path/to/project")},
		// The date is taken in UTC: 23:30 at UTC-5 is the next day in UTC.
		{"k", time.Date(2025, 1, 1, 23, 30, 0, 0, time.FixedZone("EST", -5*3600)), "20250102-" + sha8("k")},
	}
	for _, tt := range tests {
		if got := NewID(tt.key, tt.date); got != tt.want {
			t.Errorf("NewID(%q, %v) = %q, want %q", tt.key, tt.date, got, tt.want)
		}
	}
}

func TestNewIDKnownValue(t *testing.T) {
	// From the portable spec's Python: hashlib.sha256(b"abc").hexdigest()[:8] == "ba7816bf".
	if got := NewID("abc", time.Date(2025, 11, 27, 0, 0, 0, 0, time.UTC)); got != "20251127-ba7816bf" {
		t.Errorf("NewID(abc) = %q, want 20251127-ba7816bf", got)
	}
}

func TestSlug(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Bootstrap CIs (BCa)", "bootstrap-cis-bca"},
		{"  --x--  ", "x"},
		{"Go/Bleve index", "go-bleve-index"},
		{"", ""},
		{"Überprüfung", "überprüfung"},
	}
	for _, tt := range tests {
		if got := Slug(tt.in); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func sha8(s string) string { return NewID(s, time.Time{})[len(undatedPrefix)+1:] }

func TestSpan(t *testing.T) {
	at := func(h int) time.Time { return time.Date(2025, 1, 1, h, 0, 0, 0, time.UTC) }
	first, last := Span([]Message{{Timestamp: at(9)}, {}, {Timestamp: at(7)}, {Timestamp: at(12)}})
	if !first.Equal(at(7)) || !last.Equal(at(12)) {
		t.Errorf("Span = %v, %v; want 07:00, 12:00", first, last)
	}
	if f, l := Span([]Message{{}, {}}); !f.IsZero() || !l.IsZero() {
		t.Errorf("Span of undated messages = %v, %v; want zero", f, l)
	}
}
