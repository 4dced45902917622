package loose

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/convsearch/convsearch/parsers"
)

// note is the note that ends a string cut, left bytes left out.
func note(left int64) string { return parsers.CutNote(left) }

func TestCapStrings(t *testing.T) {
	long := strings.Repeat("é", 10) // 20 bytes
	tests := []struct {
		name, in, want string
		max            int
	}{
		{"short strings pass", `{"a":"bc","d":[1,"e"]}`, `{"a":"bc","d":[1,"e"]}`, 8},
		{"long string cut", `{"k":"abcdefghijkl"}`, `{"k":"abcdefgh` + note(4) + `"}`, 8},
		{"keys count too", `{"abcdefghij":1}`, `{"abcdefgh` + note(2) + `":1}`, 8},
		{"escaped quote is not the end", `["ab\"cdefghij","x"]`, `["ab\"cdef` + note(4) + `","x"]`, 8},
		{"no escape is split", `["abcdef\u00e9zz"]`, `["abcdef\u00e9` + note(2) + `"]`, 8},
		{"escape dropped whole", `["abcdefgh\n"]`, `["abcdefgh` + note(2) + `"]`, 8},
		{"rune boundary", `["` + long + `"]`, `["` + long[:8] + note(12) + `"]`, 8},
		{"newline ends a broken string", "[\"abcdefghijkl\n\"abcdefghijkl\"]\n", "[\"abcdefgh\n\"abcdefgh" + note(4) + "\"]\n", 8},
		{"backslash at the end", `["abc\\","defghijklm"]`, `["abc\\","defghijk` + note(2) + `"]`, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := io.ReadAll(iotest.OneByteReader(newCapStrings(strings.NewReader(tt.in), tt.max)))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
			if json.Valid([]byte(tt.in)) && !json.Valid(got) {
				t.Errorf("valid JSON in, invalid out: %s", got)
			}
		})
	}
}

// A string far over the cap is cut as it is read, in reads of any size.
func TestCapStringsLong(t *testing.T) {
	in := `{"text":"` + strings.Repeat("word ", 1<<20) + `","n":1}`
	got, err := io.ReadAll(newCapStrings(strings.NewReader(in), 1000))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Text string
		N    int
	}
	if err := json.Unmarshal(got, &v); err != nil {
		t.Fatalf("%v: %.100s", err, got)
	}
	text, cut := strings.CutSuffix(v.Text, note(int64(5<<20-1000)))
	if len(text) != 1000 || !cut || v.N != 1 || !bytes.HasPrefix([]byte(in[9:]), []byte(text)) {
		t.Errorf("got a text of %d bytes and n %d; want 1000 bytes and 1", len(v.Text), v.N)
	}
}
