package daemon

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Segments damaged under a running daemon (they are mapped into its
// memory): a search answers 500 with the rebuild message, and the daemon
// goes on answering.
func TestDamagedSegmentUnderDaemon(t *testing.T) {
	d := examplesDaemon(t, "secret")
	auth := []string{"Authorization", "Bearer secret"}
	if code, _, body := get(t, d, "/api/search?q=intervals", auth...); code != http.StatusOK {
		t.Fatalf("search before the damage: %d %s", code, body)
	}
	d.damaged = true
	segs, _ := filepath.Glob(filepath.Join(d.dir, "index.bleve", "store", "*.zap"))
	for _, s := range segs {
		info, err := os.Stat(s)
		if err != nil || info.Size() < 400 {
			continue
		}
		// All but the footer, which the open has read already.
		f, err := os.OpenFile(s, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteAt(bytes.Repeat([]byte{0xA5}, int(info.Size()-200)), 0)
		f.Close()
	}
	for range 2 {
		code, _, body := get(t, d, "/api/search?q=intervals", auth...)
		if code != http.StatusInternalServerError || !strings.Contains(string(body), "the index is damaged") ||
			!strings.Contains(string(body), "convsearch index --rebuild") {
			t.Errorf("search of a damaged index: %d %s: want 500 and the rebuild message", code, body)
		}
	}
}
