// Package parsertest is the test suite every parser family runs: detection,
// exact counts, stable ids, golden output, no binary payloads, and no panic on
// truncated input. A family's test calls Run with its cases and Fuzz from its
// fuzz target.
package parsertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/internal/golden"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
)

// Want is what one conversation of a case must look like.
type Want struct {
	ID    string // exact id; "" means not checked
	Title string // exact title; "" means not checked
	// Messages is the exact number of messages.
	Messages int
	// Roles, when set, is the role of every message in order, one letter
	// each: u(ser), a(ssistant), s(ystem), t(ool).
	Roles string
}

// Case is one input file and what parsing it must give.
type Case struct {
	// File is the primary file, relative to the test's package folder.
	File string
	// Want lists the conversations in the order Parse returns them. A case
	// with no Want expects a parse that yields no conversation.
	Want []Want
	// Warnings is the number of warnings the parse must report.
	Warnings int
	// Golden names the golden file under testdata/golden/ (default: the
	// file's base name with .json appended). "-" skips the golden check.
	Golden string
	// NoTruncate skips the truncated-input check (for formats where every
	// prefix is valid and the check says nothing).
	NoTruncate bool
	// ByPath says Parse reads the file at its path and not the reader it
	// is handed (a SQLite store): the truncated-input check then writes
	// each prefix to a file of the same name in a temporary folder and
	// parses that, since cutting the reader would check nothing.
	ByPath bool
}

// Run runs the suite for parser p over cases.
func Run(t *testing.T, p parsers.Parser, cases []Case) {
	t.Helper()
	if p.Info().Name == "" || p.Info().Version < 1 {
		t.Errorf("Info() = %+v: want a Name and a Version ≥ 1", p.Info())
	}
	for _, tc := range cases {
		t.Run(filepath.Base(tc.File), func(t *testing.T) {
			data, err := os.ReadFile(tc.File)
			if err != nil {
				t.Fatal(err)
			}
			head := data[:min(len(data), parsers.HeadSize)]
			if !p.Detect(tc.File, head) {
				t.Errorf("Detect(%s) = false, want true", tc.File)
			}
			res := parse(t, p, tc.File, data)
			checkWant(t, tc, res)
			checkInvariants(t, tc.File, res)
			checkStable(t, p, tc.File, data, res)
			checkGolden(t, tc, res)
			if !tc.NoTruncate {
				checkTruncated(t, p, tc.File, data, tc.ByPath)
			}
		})
	}
}

func parse(t testing.TB, p parsers.Parser, path string, data []byte) *parsers.Result {
	t.Helper()
	res, err := p.Parse(context.Background(), path, bytes.NewReader(data))
	if err != nil {
		t.Fatalf("Parse(%s): %v", path, err)
	}
	if res == nil {
		t.Fatalf("Parse(%s) returned a nil result and no error", path)
	}
	return res
}

// RoleLetters returns the roles of msgs as the letters Want.Roles uses.
func RoleLetters(msgs []conversation.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		switch m.Role {
		case conversation.RoleUser:
			b.WriteByte('u')
		case conversation.RoleAssistant:
			b.WriteByte('a')
		case conversation.RoleSystem:
			b.WriteByte('s')
		case conversation.RoleTool:
			b.WriteByte('t')
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}

func checkWant(t *testing.T, tc Case, res *parsers.Result) {
	t.Helper()
	if len(res.Conversations) != len(tc.Want) {
		t.Fatalf("%s: %d conversations, want %d", tc.File, len(res.Conversations), len(tc.Want))
	}
	for i, w := range tc.Want {
		c := res.Conversations[i]
		if w.ID != "" && c.ID != w.ID {
			t.Errorf("conversation %d: id %q, want %q", i, c.ID, w.ID)
		}
		if w.Title != "" && c.Title != w.Title {
			t.Errorf("conversation %d: title %q, want %q", i, c.Title, w.Title)
		}
		if len(c.Messages) != w.Messages {
			t.Errorf("conversation %d (%s): %d messages, want %d", i, c.ID, len(c.Messages), w.Messages)
		}
		if w.Roles != "" {
			if got := RoleLetters(c.Messages); got != w.Roles {
				t.Errorf("conversation %d (%s): roles %q, want %q", i, c.ID, got, w.Roles)
			}
		}
	}
	if len(res.Warnings) != tc.Warnings {
		t.Errorf("%s: %d warnings, want %d: %v", tc.File, len(res.Warnings), tc.Warnings, res.Warnings)
	}
}

// base64Run finds what looks like an inlined binary payload: a data: URL with
// its payload, a PNG or JPEG signature in base64, or a long unbroken base64
// run.
var base64Run = regexp.MustCompile(`data:[a-z]+/[a-z0-9.+-]+;base64,[A-Za-z0-9+/]{16}|iVBORw0KGgo|/9j/4AAQ|[A-Za-z0-9+/]{400,}`)

func checkInvariants(t *testing.T, path string, res *parsers.Result) {
	t.Helper()
	if err := Invariants(res); err != nil {
		t.Errorf("%s: %v", path, err)
	}
	out, _ := json.Marshal(res.Conversations)
	if loc := base64Run.FindIndex(out); loc != nil {
		t.Errorf("%s: binary payload in the output: %.80s…", path, out[loc[0]:])
	}
	for _, w := range res.Warnings {
		if !strings.Contains(w.Error(), path) {
			t.Errorf("warning does not name the file %s: %v", path, w)
		}
	}
}

// Invariants checks what every parse result must satisfy: every conversation
// has an id and a source-independent shape, message indexes are positions,
// roles are canonical.
func Invariants(res *parsers.Result) error {
	seen := map[string]bool{}
	for _, c := range res.Conversations {
		if c == nil {
			return errors.New("nil conversation")
		}
		if c.ID == "" {
			return fmt.Errorf("conversation %q has no id", c.Title)
		}
		if seen[c.ID] {
			return fmt.Errorf("id %s given to two conversations", c.ID)
		}
		seen[c.ID] = true
		for i, m := range c.Messages {
			if m.Index != i {
				return fmt.Errorf("conversation %s: message %d has Index %d", c.ID, i, m.Index)
			}
			if !m.Role.Valid() {
				return fmt.Errorf("conversation %s: message %d has role %q", c.ID, i, m.Role)
			}
		}
		for _, d := range c.Decisions {
			if d.MessageIndex >= len(c.Messages) {
				return fmt.Errorf("conversation %s: decision %q points at message %d of %d", c.ID, d.Decision, d.MessageIndex, len(c.Messages))
			}
		}
	}
	return nil
}

func checkStable(t *testing.T, p parsers.Parser, path string, data []byte, first *parsers.Result) {
	t.Helper()
	again := parse(t, p, path, data)
	a, _ := json.Marshal(first.Conversations)
	b, _ := json.Marshal(again.Conversations)
	if !bytes.Equal(a, b) {
		t.Errorf("%s: two parses of the same bytes differ", path)
	}
	// The same bytes under another folder must give the same ids: ids may
	// not depend on where a file happens to be.
	moved := filepath.Join(t.TempDir(), "elsewhere", filepath.Base(filepath.Dir(path)), filepath.Base(path))
	if err := os.MkdirAll(filepath.Dir(moved), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(moved, data, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := p.Parse(context.Background(), moved, bytes.NewReader(data))
	if err != nil {
		t.Fatalf("Parse(%s) after a move: %v", moved, err)
	}
	if len(res.Conversations) != len(first.Conversations) {
		t.Fatalf("%s: %d conversations after a move, %d before", path, len(res.Conversations), len(first.Conversations))
	}
	for i, c := range res.Conversations {
		if c.ID != first.Conversations[i].ID {
			t.Errorf("%s: id %s changed to %s when the file moved", path, first.Conversations[i].ID, c.ID)
		}
	}
}

// Canonical returns the JSON the golden files pin: the conversations with
// File reduced to its base name, so goldens do not depend on where the
// repository is checked out.
func Canonical(convs []*conversation.Conversation) ([]byte, error) {
	cp := make([]conversation.Conversation, len(convs))
	for i, c := range convs {
		cp[i] = *c
		cp[i].File = filepath.Base(c.File)
	}
	out, err := json.MarshalIndent(cp, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

func checkGolden(t *testing.T, tc Case, res *parsers.Result) {
	t.Helper()
	name := tc.Golden
	if name == "-" {
		return
	}
	if name == "" {
		name = filepath.Base(tc.File) + ".json"
	}
	goldenPath := filepath.Join("testdata", "golden", name)
	got, err := Canonical(res.Conversations)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, goldenPath, got)
}

// checkTruncated parses prefixes of data: each must give an error naming the
// file or a result that satisfies the invariants, and never panic. byPath
// writes each prefix to a file named like path, in a temporary folder, and
// parses that.
func checkTruncated(t *testing.T, p parsers.Parser, path string, data []byte, byPath bool) {
	t.Helper()
	if byPath {
		path = filepath.Join(t.TempDir(), filepath.Base(path))
	}
	cuts := map[int]bool{0: true, 1: true, len(data) / 10: true, len(data) / 3: true, len(data) / 2: true, len(data) * 9 / 10: true, len(data) - 1: true}
	for cut := range cuts {
		if cut < 0 || cut >= len(data) {
			continue
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s cut at %d bytes: panic: %v", path, cut, r)
				}
			}()
			if byPath {
				if err := os.WriteFile(path, data[:cut], 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := p.Parse(context.Background(), path, bytes.NewReader(data[:cut]))
			if err != nil {
				if !strings.Contains(err.Error(), path) {
					t.Errorf("%s cut at %d bytes: error does not name the file: %v", path, cut, err)
				}
				return
			}
			if res == nil {
				t.Errorf("%s cut at %d bytes: nil result and no error", path, cut)
				return
			}
			if err := Invariants(res); err != nil {
				t.Errorf("%s cut at %d bytes: %v", path, cut, err)
			}
		}()
	}
}

// Fuzz runs a fuzz target for p seeded with the given files: any input must
// parse without panic into a result that satisfies Invariants, or fail with an
// error that names the file.
func Fuzz(f *testing.F, p parsers.Parser, name string, seeds ...string) {
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	path := filepath.Join(f.TempDir(), name)
	f.Fuzz(func(t *testing.T, data []byte) {
		head := data[:min(len(data), parsers.HeadSize)]
		_ = p.Detect(path, head)
		res, err := p.Parse(context.Background(), path, bytes.NewReader(data))
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error does not name the file: %v", err)
			}
			return
		}
		if res == nil {
			t.Fatal("nil result and no error")
		}
		if err := Invariants(res); err != nil {
			t.Error(err)
		}
	})
}
