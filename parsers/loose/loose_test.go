package loose

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/parsers"
)

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"text"`, "text"},
		{`42`, "42"},
		{`4.5`, "4.5"},
		{`true`, "true"},
		{`null`, ""},
		{`{}`, ""},
		{`[]`, ""},
		{``, ""},
		{`{"a": 1}`, `{"a":1}`},
		{`[1, 2]`, `[1,2]`},
		{`"\u00e9"`, "é"},
		{`{"b": "na\u00efvet\u00e9", "a": "\u003c"}`, `{"b":"naïveté","a":"<"}`},
	}
	for _, tt := range tests {
		if got := String(json.RawMessage(tt.in)); got != tt.want {
			t.Errorf("String(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIntFloatBool(t *testing.T) {
	ints := []struct {
		in   string
		want int64
		ok   bool
	}{{`12`, 12, true}, {`"12"`, 12, true}, {`" 7 "`, 7, true}, {`1.5`, 0, false}, {`{}`, 0, false}, {`"x"`, 0, false}, {`1e3`, 1000, true}}
	for _, tt := range ints {
		got, ok := Int(json.RawMessage(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("Int(%s) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	for in, want := range map[string]bool{`true`: true, `"true"`: true, `1`: true, `"TRUE"`: true, `false`: false, `{}`: false, `0`: false, `null`: false} {
		if got := Bool(json.RawMessage(in)); got != want {
			t.Errorf("Bool(%s) = %v, want %v", in, got, want)
		}
	}
}

func TestTime(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
		return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	}
	tests := []struct {
		in   string
		want time.Time
	}{
		{`"2025-11-27T09:00:00"`, utc(2025, 11, 27, 9, 0, 0, 0)},
		{`"2025-11-27T09:00:00.123456"`, utc(2025, 11, 27, 9, 0, 0, 123456000)},
		{`"2025-11-27T09:00:00Z"`, utc(2025, 11, 27, 9, 0, 0, 0)},
		{`"2025-11-27 09:00:00"`, utc(2025, 11, 27, 9, 0, 0, 0)},
		{`"2025-11-27"`, utc(2025, 11, 27, 0, 0, 0, 0)},
		{`1732588772`, utc(2024, 11, 26, 2, 39, 32, 0)},
		{`1732588772420`, utc(2024, 11, 26, 2, 39, 32, 420000000)},
		{`"1732588772420"`, utc(2024, 11, 26, 2, 39, 32, 420000000)},
		{`1732588772.5`, utc(2024, 11, 26, 2, 39, 32, 500000000)},
		{`"Tue Nov 26 2024 02:39:32 GMT+0000 (Coordinated Universal Time)"`, utc(2024, 11, 26, 2, 39, 32, 0)},
		{`"1:56 pm on 8 May, 2023"`, utc(2023, 5, 8, 13, 56, 0, 0)},
		{`"10:37 AM on 27 June, 2023"`, utc(2023, 6, 27, 10, 37, 0, 0)},
		{`"May 8, 2023"`, utc(2023, 5, 8, 0, 0, 0, 0)},
		{`"8 May 2023"`, utc(2023, 5, 8, 0, 0, 0, 0)},
		{`null`, time.Time{}},
		{`{}`, time.Time{}},
		{`"not a time"`, time.Time{}},
		{`-5`, time.Time{}},
	}
	for _, tt := range tests {
		if got := Time(json.RawMessage(tt.in)); !got.Equal(tt.want) {
			t.Errorf("Time(%s) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestJSONText(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"path": "a.go"}`, `{"path":"a.go"}`},
		{`{"q": "na\u00efvet\u00e9", "n": 1.50}`, `{"q":"naïveté","n":1.50}`},
		{`"quoted"`, "quoted"},
		{`plain text`, "plain text"},
		{`{broken`, "{broken"},
		{``, ""},
	}
	for _, tt := range tests {
		if got := JSONText(tt.in); got != tt.want {
			t.Errorf("JSONText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDataURL(t *testing.T) {
	// 16 base64 characters with one "=" of padding decode to 11 bytes.
	mt, size, ok := DataURL("data:image/png;base64,iVBORw0KGgoAAAA=")
	if !ok || mt != "image/png" || size != 11 {
		t.Errorf("DataURL = %q, %d, %v", mt, size, ok)
	}
	if _, _, ok := DataURL("blob:http://x/1"); ok {
		t.Error("a blob: URL taken for a data: URL")
	}
	in := `see ![plot](data:image/png;base64,iVBORw0KGgoAAAANSUhEUg) and metadata: fine`
	out := StripDataURLs(in)
	if strings.Contains(out, "iVBOR") || !strings.Contains(out, "[image/png data,") || !strings.Contains(out, "metadata: fine") {
		t.Errorf("StripDataURLs = %q", out)
	}
}

func TestUnmarshalErrorsNameFileAndLine(t *testing.T) {
	var v map[string]any
	err := Unmarshal("f.json", []byte("{\n  \"a\": 1,\n  \"b\": ]\n}"), &v)
	var pe *parsers.Error
	if !errors.As(err, &pe) || pe.Line != 3 || !errors.Is(err, parsers.ErrSyntax) || !strings.HasPrefix(err.Error(), "f.json:3:") {
		t.Errorf("syntax error: %v", err)
	}
	err = Unmarshal("f.json", []byte("{\"a\": [1,"), &v)
	if !errors.Is(err, parsers.ErrSyntax) || !strings.Contains(err.Error(), "f.json") {
		t.Errorf("truncated: %v", err)
	}
	var list []int
	err = Unmarshal("f.json", []byte("\n{\"a\": 1}"), &list)
	if !errors.Is(err, parsers.ErrShape) || !strings.Contains(err.Error(), "f.json") {
		t.Errorf("wrong shape: %v", err)
	}
	if err := Unmarshal("e.json", []byte("  \n"), &v); !errors.Is(err, parsers.ErrSyntax) || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty: %v", err)
	}
}

// TestByteOrderMark: a document read whole is read past a byte-order mark,
// by ReadAll and by Unmarshal alike; only the first bytes are looked at.
func TestByteOrderMark(t *testing.T) {
	for _, tc := range []struct{ name, in, read string }{
		{"mark", "\xef\xbb\xbf{\"a\":1}", `{"a":1}`},
		{"none", `{"a":1}`, `{"a":1}`},
		{"two marks", "\xef\xbb\xbf\xef\xbb\xbf{}", "\xef\xbb\xbf{}"},
		{"mark inside", "{\"a\":\"\xef\xbb\xbf\"}", "{\"a\":\"\xef\xbb\xbf\"}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := ReadAll("f.json", strings.NewReader(tc.in))
			if err != nil || string(data) != tc.read {
				t.Errorf("ReadAll = %q, %v; want %q", data, err, tc.read)
			}
			var v any
			err = Unmarshal("f.json", []byte(tc.in), &v)
			if wantErr := tc.name == "two marks"; (err != nil) != wantErr {
				t.Errorf("Unmarshal: %v", err)
			}
		})
	}
}
