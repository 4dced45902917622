package loose

import "testing"

func TestAppendParagraph(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"", "", ""},
		{"first", "", "first"},
		{"", "second", "second"},
		{"first", "second", "first\n\nsecond"},
		{"first\n\nsecond", "third", "first\n\nsecond\n\nthird"},
	}
	for _, tt := range tests {
		if got := AppendParagraph(tt.a, tt.b); got != tt.want {
			t.Errorf("AppendParagraph(%q, %q) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
}
