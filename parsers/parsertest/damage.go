package parsertest

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/convsearch/convsearch/parsers"
)

// Damage is what a crash or a preallocating disk can leave before the first
// record of a JSON Lines file, by name.
var Damage = []struct{ Name, Prefix string }{
	{"NUL line", strings.Repeat("\x00", 1000) + "\n"},
	{"NULs glued to the first record", strings.Repeat("\x00", 1000)},
	{"garbage line", "garbage\n"},
	{"NULs then garbage", strings.Repeat("\x00", 1000) + "\ngarbage\n"},
	{"torn record", `{"torn":` + "\n"},
}

// CheckLeadingDamage puts each of Damage before data, a JSON Lines file of
// p's that it reads to at least one message, and checks that p still claims
// it as path, reads the same conversations as from data, and warns of line
// 1, the damage, naming path.
func CheckLeadingDamage(t *testing.T, p parsers.Parser, path string, data []byte) {
	t.Helper()
	clean := parse(t, p, path, data)
	want, err := Canonical(clean.Conversations)
	if err != nil {
		t.Fatal(err)
	}
	if len(clean.Conversations) == 0 || len(clean.Conversations[0].Messages) == 0 {
		t.Fatalf("Parse(%s): no message to keep", path)
	}
	for _, d := range Damage {
		t.Run(d.Name, func(t *testing.T) {
			damaged := append([]byte(d.Prefix), data...)
			head := damaged[:min(len(damaged), parsers.HeadSize)]
			if !p.Detect(path, head) {
				t.Errorf("Detect(%s) = false for a head of %s before the records", path, d.Name)
			}
			res, err := p.Parse(context.Background(), path, bytes.NewReader(damaged))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if got, _ := Canonical(res.Conversations); !bytes.Equal(got, want) {
				t.Errorf("conversations differ from the clean file's:\n%s\nwant\n%s", got, want)
			}
			warned := false
			for _, w := range res.Warnings {
				if pe, ok := errors.AsType[*parsers.Error](w); ok && pe.Path == path && pe.Line == 1 {
					warned = true
				}
			}
			if !warned {
				t.Errorf("warnings %v: none names %s, line 1", res.Warnings, path)
			}
		})
	}
}
