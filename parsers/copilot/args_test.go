package copilot

import (
	"encoding/json"
	"testing"
)

// Arguments the parser builds itself, and arguments the file writes with
// escapes, read as text: json.Marshal's "\u003e" for ">" would keep
// "ls > out" from being found as written.
func TestToolArgumentsReadAsText(t *testing.T) {
	tests := []struct {
		name, input, specific, want string
	}{
		{"terminal command", ``, `{"kind": "terminal", "commandLine": {"original": "ls > out && cat <in"}}`, `{"command":"ls > out && cat <in"}`},
		{"subagent", ``, `{"kind": "subagent", "agentName": "r<1>", "description": "a & b", "prompt": "naïve"}`, `{"agentName":"r<1>","description":"a & b","prompt":"naïve"}`},
		{"escaped input", `{"query": "na\u00efvet\u00e9", "path": "a\/b"}`, ``, `{"query":"naïveté","path":"a/b"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &part{ToolID: json.RawMessage(`"run"`), ToolSpecificData: json.RawMessage(tt.specific)}
			if tt.input != "" {
				p.ResultDetails = json.RawMessage(`{"input": ` + tt.input + `}`)
			}
			call, _ := toolInvocation(p)
			if call.Arguments != tt.want {
				t.Errorf("arguments %s, want %s", call.Arguments, tt.want)
			}
		})
	}
}
