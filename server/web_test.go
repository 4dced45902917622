package server

import (
	"strings"
	"testing"
)

// TestPageIsSelfContained: nothing on the page is loaded from elsewhere, so
// it works offline and leaks no query to a third party.
func TestPageIsSelfContained(t *testing.T) {
	for _, f := range []string{"web/index.html", "web/app.js", "web/style.css"} {
		b, err := webFiles.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 {
			t.Errorf("%s is empty", f)
		}
		if strings.Contains(string(b), "http://") || strings.Contains(string(b), "https://") {
			t.Errorf("%s refers to another origin", f)
		}
	}
}
