package loose

import "testing"

func TestReadableJSON(t *testing.T) {
	tests := []struct {
		name, in, want string
		ok             bool
	}{
		{"shell result", `{"exit_status":"0","stdout":"=== RUN   TestBurst\n--- PASS: TestBurst\nok","stderr":""}`,
			"exit_status: 0\nstdout: === RUN   TestBurst\n--- PASS: TestBurst\nok", true},
		{"nested", `{"content":[{"type":"text","text":"Issue #12\nStatus: open"}],"isError":false,"meta":null}`,
			"content:\n  type: text\n  text: Issue #12\nStatus: open\nisError: false", true},
		{"json in a json string", `{"result":"{\"rows\":[{\"id\":7,\"name\":\"caf\\u00e9\"}]}"}`,
			"result: rows:\n  id: 7\n  name: café", true},
		{"several values", `{"a":"x\ty"} ["p","q"]`, "a: x\ty\np\nq", true},
		{"key order kept", `{"z":1,"a":2}`, "z: 1\na: 2", true},
		{"empty object", ` {} `, "{}", true},
		{"cut short", `{"stdout":"line one\nline two \"quoted\" \u00e9\ud83d\ude00 end...content truncated`,
			"{\"stdout\":\"line one\nline two \"quoted\" é😀 end...content truncated", true},
		{"bad escapes kept", `{"a":"\q \u12"`, `{"a":"\q \u12"`, true},
		{"plain text", "hello\\nworld", "hello\\nworld", false},
		{"a JSON string", `"x\ny"`, `"x\ny"`, false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		got, ok := ReadableJSON(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: ReadableJSON(%q) = %q, %v; want %q, %v", tt.name, tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func FuzzReadableJSON(f *testing.F) {
	f.Add(`{"a":"b\nc","d":[1,{"e":null}]}`)
	f.Add(`[{"x":"{\"y\":\"z\"}"}] {"k":true}`)
	f.Add(`{"cut":"\ud83d`)
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := ReadableJSON(s)
		if !ok && got != s {
			t.Fatalf("not JSON but changed: %q → %q", s, got)
		}
	})
}
