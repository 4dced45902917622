package loose

import (
	"strings"
	"testing"
)

// Escapes JSON does not require are undone, everything else is kept as
// written: key order, numbers, the escapes JSON needs.
func TestCompactJSON(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{`{"command": "grep -r na\u00efvet\u00e9 ."}`, `{"command":"grep -r naïveté ."}`, true},
		{`{"z": 1, "a": 2, "m": {"y": [1, 2.50, -3e2], "b": null}}`, `{"z":1,"a":2,"m":{"y":[1,2.50,-3e2],"b":null}}`, true},
		{`{"cmd": "ls \u003e out \u0026\u0026 cat \u003cin"}`, `{"cmd":"ls > out && cat <in"}`, true},
		{`{"emoji": "\ud83d\ude00", "path": "a\/b"}`, `{"emoji":"😀","path":"a/b"}`, true},
		{`{"s": "line\nnext \"q\" back\\slash tab\t nul\u0000 ls\u2028"}`, `{"s":"line\nnext \"q\" back\\slash tab\t nul\u0000 ls\u2028"}`, true},
		{`{"na\u00efve": true, "f": false, "e": "", "o": {}, "a": []}`, `{"naïve":true,"f":false,"e":"","o":{},"a":[]}`, true},
		{`[{"a": "\u00fc"}, ["\u00fc"], "\u00fc", 1]`, `[{"a":"ü"},["ü"],"ü",1]`, true},
		{`"caf\u00e9"`, `"café"`, true},
		{` 42 `, `42`, true},
		{`{"plain": "no escapes <b>"}`, `{"plain":"no escapes <b>"}`, true},
		{`{"a": 1} {"b": 2}`, ``, false},
		{`{"a": `, ``, false},
		{`not json`, ``, false},
		{``, ``, false},
	}
	for _, tt := range tests {
		got, ok := CompactJSON([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("CompactJSON(%s) = %s, %v; want %s, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
	// The characters are counted as read: 20,000 ü are 20,000 runes.
	in := `{"text":"` + strings.Repeat(`\u00fc`, 20000) + `"}`
	got, _ := CompactJSON([]byte(in))
	if n := len([]rune(got)); n != 20000+len(`{"text":""}`) {
		t.Errorf("20,000 escaped ü give %d characters", n)
	}
}
