package mcp

import (
	"encoding/json"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAnswerSizeIsTheSDKs: answerSize counts a tool's answer as the SDK
// encodes it, escapes included, without encoding the result whole.
func TestAnswerSizeIsTheSDKs(t *testing.T) {
	for _, tc := range []struct {
		text string
		out  any
	}{
		{"plain", map[string]any{"hits": []int{1, 2}}},
		{"héllo <b> & \x02 \u2028 \"q\"", map[string]any{"a": "<&>\x01", "b": 3}},
		{"", struct{}{}},
	} {
		data, err := json.Marshal(tc.out)
		if err != nil {
			t.Fatal(err)
		}
		want := wireSize(&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: tc.text}}, StructuredContent: json.RawMessage(data)})
		if got := answerSize(tc.text, tc.out); got != want {
			t.Errorf("answerSize(%q) = %d, the SDK's encoding %d", tc.text, got, want)
		}
	}
}
