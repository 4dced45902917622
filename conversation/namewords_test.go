package conversation

import "testing"

// TestWithNameWords: a file's name is searchable by the words run together
// in it; a name without any is left as it is.
func TestWithNameWords(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"ZebraMigrationPlan.pdf", "ZebraMigrationPlan.pdf (Zebra Migration Plan)"},
		{"quarterly_revenue-forecast2025.xlsx", "quarterly_revenue-forecast2025.xlsx (forecast 2025)"},
		{"HTTPServerNotes.md", "HTTPServerNotes.md (HTTP Server Notes)"},
		{"codebook.pdf", "codebook.pdf"},
		{"IMG_2041.jpg", "IMG_2041.jpg"},
		{"src/components/UserProfile.tsx", "src/components/UserProfile.tsx (User Profile)"},
		{"v2api.go", "v2api.go (v 2 api)"},
		{"Übersicht2024.docx", "Übersicht2024.docx (Übersicht 2024)"},
		{"", ""},
	} {
		if got := WithNameWords(tt.in); got != tt.want {
			t.Errorf("WithNameWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
