// Package convtest writes conversation files for the tests of the daemon,
// the commands and the benchmarks.
package convtest

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/convsearch/convsearch/internal/atomicfile"
)

// Portable returns a conversation in the portable format: its id, title
// and a fixed date, and messages taking turns between the user and the
// assistant, the user first.
func Portable(id, title string, messages ...string) []byte {
	type msg struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	c := struct {
		ID       string `json:"id"`
		Title    string `json:"title"`
		Date     string `json:"date"`
		Messages []msg  `json:"messages"`
	}{ID: id, Title: title, Date: "2025-06-01T10:00:00Z"}
	for i, m := range messages {
		c.Messages = append(c.Messages, msg{Role: []string{"user", "assistant"}[i%2], Content: m})
	}
	b, err := json.Marshal(c)
	if err != nil {
		panic(err) // strings only: cannot fail
	}
	return b
}

// WriteAtomic writes a file as editors do, a temporary file renamed over,
// making its folder first.
func WriteAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o644)
}
