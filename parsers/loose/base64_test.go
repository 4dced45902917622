package loose

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestStripBase64Runs(t *testing.T) {
	payload := strings.Repeat("iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB", 20) // 640 chars
	run400 := strings.Repeat("aB3", 133) + "+"                        // the shortest run taken
	tests := []struct{ in, want string }{
		{"short text", "short text"},
		{"png: " + payload + "== end", "png: [base64 data, 481 bytes] end"},
		{strings.Repeat("-", 500), strings.Repeat("-", 500)},             // a rule, not a payload
		{strings.Repeat("deadbeef", 60), strings.Repeat("deadbeef", 60)}, // no upper case
		{strings.Repeat("aB", 250), strings.Repeat("aB", 250)},           // no digit
		{run400[:399] + " tail", run400[:399] + " tail"},                 // one short
		{run400, "[base64 data, 300 bytes]"},
		{"a " + run400 + "\nb " + run400 + "/x", "a [base64 data, 300 bytes]\nb [base64 data, 301 bytes]"},
	}
	for _, tt := range tests {
		if got := StripBase64Runs(tt.in); got != tt.want {
			t.Errorf("StripBase64Runs(%.30q…) = %.60q, want %.60q", tt.in, got, tt.want)
		}
	}
}

func TestCleanBase64SizeArguments(t *testing.T) {
	png := "data:image/png;base64," + strings.Repeat("iVBORw0KGgo", 40)
	if got := Clean("see " + png + " here"); strings.Contains(got, "iVBORw0KGgo") || !strings.Contains(got, "see ") {
		t.Errorf("Clean left the payload: %q", got)
	}
	for data, want := range map[string]int64{"": 0, "aGk=": 2, "aGVsbG8=": 5, "aGVsbG8h": 6} {
		if got := Base64Size(data); got != want {
			t.Errorf("Base64Size(%q) = %d, want %d", data, got, want)
		}
	}
	for raw, want := range map[string]string{
		`{"path":"a.go"}`:       `{"path":"a.go"}`,
		`"{\"path\":\"a.go\"}"`: `{"path":"a.go"}`,
		`"plain words"`:         `plain words`,
		`{"img":"` + png + `"}`: `{"img":"[`,
	} {
		if got := Arguments(json.RawMessage(raw)); !strings.HasPrefix(got, want) {
			t.Errorf("Arguments(%s) = %q, want prefix %q", raw, got, want)
		}
	}
}
