package blocks

import (
	"encoding/json"
	"testing"

	"github.com/convsearch/convsearch/conversation"
)

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		raw   string
		types []string
		texts []string
	}{
		{`null`, nil, nil},
		{``, nil, nil},
		{`"hello"`, []string{""}, []string{`"hello"`}},
		{`{"type":"text","text":"a"}`, []string{`"text"`}, []string{`"a"`}},
		{`[{"type":"text","text":"a"},"b",3,{"type":"tool_use","id":"x"}]`,
			[]string{`"text"`, "", "", `"tool_use"`}, []string{`"a"`, `"b"`, `"3"`, ""}},
		{`[`, nil, nil},
	} {
		got := Decode(json.RawMessage(tc.raw))
		if len(got) != len(tc.types) {
			t.Errorf("Decode(%s): %d blocks, want %d", tc.raw, len(got), len(tc.types))
			continue
		}
		for i, b := range got {
			if string(b.Type) != tc.types[i] || string(b.Text) != tc.texts[i] {
				t.Errorf("Decode(%s)[%d] = type %s text %s, want type %s text %s", tc.raw, i, b.Type, b.Text, tc.types[i], tc.texts[i])
			}
		}
	}
}

func TestResult(t *testing.T) {
	raw := `[{"type":"text","text":"one"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"QUJD"}},` +
		`{"type":"search_result","content":"two"},{"type":"text","text":""}]`
	text, atts := Result(json.RawMessage(raw))
	if text != "one\ntwo" {
		t.Errorf("text %q, want %q", text, "one\ntwo")
	}
	want := conversation.Attachment{Type: "image/png", Size: 3}
	if len(atts) != 1 || atts[0] != want {
		t.Errorf("attachments %+v, want [%+v]", atts, want)
	}
	if text, atts := Result(json.RawMessage(`"plain"`)); text != "plain" || atts != nil {
		t.Errorf("string result: %q %v", text, atts)
	}
}

func TestAttachment(t *testing.T) {
	for _, tc := range []struct {
		kind, block string
		want        conversation.Attachment
	}{
		{"image", `{"source":{"type":"base64","media_type":"image/png","data":"QQ=="}}`, conversation.Attachment{Type: "image/png", Size: 1}},
		{"document", `{"title":" a\n report ","source":{"type":"text","data":"hello"}}`, conversation.Attachment{Name: "a report", Type: "text/plain", Size: 5}},
		{"image", `{"source":{"type":"url","url":"https://x/y.png"}}`, conversation.Attachment{Type: "image", Ref: "https://x/y.png"}},
		{"image", `{"source":{"type":"url","url":"data:image/gif;base64,QUJD"}}`, conversation.Attachment{Type: "image/gif", Size: 3}},
		{"document", `{"source":{"type":"file","file_id":"file_1"}}`, conversation.Attachment{Type: "document", Ref: "file_1"}},
		{"image", `{}`, conversation.Attachment{Type: "image"}},
		// No source type: inferred from the payload.
		{"image", `{"source":{"media_type":"image/png","data":"QUI="}}`, conversation.Attachment{Type: "image/png", Size: 2}},
		{"image", `{"source":{"url":"https://x/y.png"}}`, conversation.Attachment{Type: "image", Ref: "https://x/y.png"}},
	} {
		var b Block
		if err := json.Unmarshal([]byte(tc.block), &b); err != nil {
			t.Fatal(err)
		}
		if got := Attachment(tc.kind, b); got != tc.want {
			t.Errorf("Attachment(%s, %s) = %+v, want %+v", tc.kind, tc.block, got, tc.want)
		}
	}
}
