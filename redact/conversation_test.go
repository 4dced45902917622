package redact

import (
	"strings"
	"testing"

	"github.com/convsearch/convsearch/conversation"
)

// TestConversation puts one secret in every field and checks which fields
// are redacted: every text is, ids (keys other records refer to), the
// source and the file read are not.
func TestConversation(t *testing.T) {
	secret := "ghp_" + fake(400, alnum, 36)
	const mark = "[redacted: github-pat]"
	c := &conversation.Conversation{
		ID: secret, Source: "claudecode", File: "/home/u/" + secret + ".jsonl",
		Title: "fix " + secret, Project: secret, Model: secret,
		Topics:               []conversation.Topic{{Name: secret}},
		Decisions:            []conversation.Decision{{Decision: "use " + secret, Rationale: "because " + secret}},
		Tags:                 []string{secret},
		RelatedConversations: []string{secret},
		Artifacts:            []conversation.Artifact{{Type: secret, Path: secret, Title: secret, Description: secret, Content: secret}},
		Summaries:            []string{secret},
		Notes:                []conversation.Note{{Kind: secret, Title: secret, Text: secret}},
		Messages: []conversation.Message{{
			ID: secret, ParentID: secret, Author: secret, Model: secret, Branch: secret,
			Content: secret, Thinking: secret,
			ToolCalls:   []conversation.ToolCall{{ID: secret, Name: secret, Arguments: `{"token":"` + secret + `"}`}},
			ToolResults: []conversation.ToolResult{{CallID: secret, Name: secret, Content: secret}},
			Attachments: []conversation.Attachment{{Name: secret, Type: secret, Ref: "https://b.s3.amazonaws.com/f?X-Amz-Signature=" + secret}},
		}},
	}
	n := New().Conversation(c)
	m := &c.Messages[0]
	for _, f := range []struct {
		field, got, want string
	}{
		{"Title", c.Title, "fix " + mark},
		{"Topics.Name", c.Topics[0].Name, mark},
		{"Decisions.Decision", c.Decisions[0].Decision, "use " + mark},
		{"Decisions.Rationale", c.Decisions[0].Rationale, "because " + mark},
		{"Tags", c.Tags[0], mark},
		{"Artifacts.Title", c.Artifacts[0].Title, mark},
		{"Artifacts.Description", c.Artifacts[0].Description, mark},
		{"Artifacts.Content", c.Artifacts[0].Content, mark},
		{"Summaries", c.Summaries[0], mark},
		{"Notes.Title", c.Notes[0].Title, mark},
		{"Notes.Text", c.Notes[0].Text, mark},
		{"Messages.Content", m.Content, mark},
		{"Messages.Thinking", m.Thinking, mark},
		{"ToolCalls.Arguments", m.ToolCalls[0].Arguments, `{"token":"` + mark + `"}`},
		{"ToolResults.Content", m.ToolResults[0].Content, mark},
		// searchable, so redacted though they name things
		{"Attachments.Name", m.Attachments[0].Name, mark},
		{"Messages.Author", m.Author, mark},
		{"Artifacts.Path", c.Artifacts[0].Path, mark},
		{"Project", c.Project, mark}, // shown in every hit and listed
		// structural, but filled from the input and shown or indexed
		{"Model", c.Model, mark},
		{"Messages.Model", m.Model, mark},
		{"Messages.Branch", m.Branch, mark},
		{"ToolCalls.Name", m.ToolCalls[0].Name, mark},
		{"ToolResults.Name", m.ToolResults[0].Name, mark},
		{"Notes.Kind", c.Notes[0].Kind, mark},
		{"Artifacts.Type", c.Artifacts[0].Type, mark},
		{"Attachments.Type", m.Attachments[0].Type, mark},
		{"Attachments.Ref", m.Attachments[0].Ref, "https://b.s3.amazonaws.com/f?X-Amz-Signature=" + mark},
		// ids: keys that references depend on; the source and file read
		{"ID", c.ID, secret},
		{"Source", c.Source, "claudecode"},
		{"File", c.File, "/home/u/" + secret + ".jsonl"},
		{"RelatedConversations", c.RelatedConversations[0], secret},
		{"Messages.ID", m.ID, secret},
		{"Messages.ParentID", m.ParentID, secret},
		{"ToolCalls.ID", m.ToolCalls[0].ID, secret},
		{"ToolResults.CallID", m.ToolResults[0].CallID, secret},
	} {
		if f.got != f.want {
			t.Errorf("%s = %q, want %q", f.field, f.got, f.want)
		}
	}
	if n != 28 {
		t.Errorf("Conversation replaced %d, want 28", n)
	}
}

// TestConversationEchoes: a secret found in one field is replaced in the
// others — a reply that repeats it, thinking, a tool's output, a title cut
// from the first prompt at or inside it — and a word of letters caught in
// one text is not replaced elsewhere.
func TestConversationEchoes(t *testing.T) {
	const pw, mark = "Tr0ub4dorXk99Qm7", "[redacted: password]"
	for _, tt := range []struct {
		name, in, want string
		title          bool
	}{
		{name: "reply", in: "Never paste " + pw + " into a chat.", want: "Never paste " + mark + " into a chat."},
		{name: "glued", in: "mysql -p" + pw, want: "mysql -p" + mark},
		{name: "title cut after it", in: "Here is my .env file: DB_PASSWORD=" + pw + "…", want: "Here is my .env file: DB_PASSWORD=" + mark + "…", title: true},
		{name: "title cut inside it", in: "check DB_PASSWORD=" + pw[:9] + "…", want: "check DB_PASSWORD=" + mark + "…", title: true},
		{name: "title cut in three dots", in: "check " + pw[:8] + "...", want: "check " + mark + "...", title: true},
		{name: "too short a start", in: "check " + pw[:7] + "…", want: "check " + pw[:7] + "…", title: true},
		{name: "a start inside a word", in: "check xTr0ub4…", want: "check xTr0ub4…", title: true},
		{name: "not cut", in: "check " + pw[:9], want: "check " + pw[:9], title: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := &conversation.Conversation{Messages: []conversation.Message{
				{Content: "DB_PASSWORD=" + pw},
				{Content: "ok", Thinking: "x"},
			}}
			if tt.title {
				c.Title = tt.in
			} else {
				c.Messages[1].Content, c.Messages[1].Thinking = tt.in, tt.in
			}
			New().Conversation(c)
			got := c.Messages[1].Content
			if tt.title {
				got = c.Title
			} else if c.Messages[1].Thinking != tt.want {
				t.Errorf("thinking %q, want %q", c.Messages[1].Thinking, tt.want)
			}
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if c.Messages[0].Content != "DB_PASSWORD="+mark {
				t.Errorf("the secret itself: %q", c.Messages[0].Content)
			}
		})
	}
	// A text other than the title ending in the start of a secret is no
	// secret cut short.
	c0 := &conversation.Conversation{Messages: []conversation.Message{
		{Content: "DB_PASSWORD=" + pw},
		{Content: "Logging in as " + pw[:9] + "…"},
	}}
	New().Conversation(c0)
	if got := c0.Messages[1].Content; got != "Logging in as "+pw[:9]+"…" {
		t.Errorf("a message ending in a secret's start: %q", got)
	}
	// A URL's password of letters is replaced in its own text only.
	c := &conversation.Conversation{Messages: []conversation.Message{
		{Content: "postgres://app:zebrapony@db/app"},
		{Content: "the zebrapony migration"},
	}}
	New().Conversation(c)
	if strings.Contains(c.Messages[0].Content, "zebrapony") {
		// Else the check below proves nothing: choose another password.
		t.Fatalf("the URL password of letters is not redacted in its own text: %q", c.Messages[0].Content)
	}
	if c.Messages[1].Content != "the zebrapony migration" {
		t.Errorf("a word of letters replaced in another field: %q", c.Messages[1].Content)
	}
}
