package studio

import (
	"bytes"
	"context"
	"encoding/json"
	"io"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// jsonComment holds every field raw, since real files disagree with the
// spec on types (ids as numbers, timestamps as strings, `{}` for null).
type jsonComment struct {
	ID          json.RawMessage `json:"id"`
	UserID      json.RawMessage `json:"userId"`
	Type        json.RawMessage `json:"type"`
	Timestamp   json.RawMessage `json:"timestamp"`
	Content     json.RawMessage `json:"content"`
	ContentHash json.RawMessage `json:"contentHash"`
	Attachments json.RawMessage `json:"attachments"`
	Children    json.RawMessage `json:"children"`
	ParentID    json.RawMessage `json:"parentId"`
	Deleted     json.RawMessage `json:"deleted"`
	Artifacts   json.RawMessage `json:"artifacts"`
}

// looksLikeComment reports whether c has any key of a comment.
func (c *jsonComment) looksLikeComment() bool {
	return c.ID != nil || c.Content != nil || c.Children != nil || c.UserID != nil || c.Timestamp != nil || c.ContentHash != nil
}

// jsonAttachment covers the spec's {url, type, name, file} and an early
// exporter's {name, type, content}.
type jsonAttachment struct {
	URL     json.RawMessage `json:"url"`
	Content json.RawMessage `json:"content"`
	Type    json.RawMessage `json:"type"`
	Name    json.RawMessage `json:"name"`
}

type jsonArtifact struct {
	ID      json.RawMessage `json:"id"`
	Type    json.RawMessage `json:"type"`
	Title   json.RawMessage `json:"title"`
	Info    json.RawMessage `json:"info"`
	Status  json.RawMessage `json:"status"`
	Command json.RawMessage `json:"command"`
	Content json.RawMessage `json:"content"`
}

// parseJSON reads the native export: an array of root comments with nested
// children.
func parseJSON(ctx context.Context, path string, r io.Reader, res *parsers.Result) ([]*node, error) {
	data, err := loose.ReadAll(path, r)
	if err != nil {
		return nil, err
	}
	var top json.RawMessage
	if err := loose.Unmarshal(path, data, &top); err != nil {
		return nil, err
	}
	top = bytes.TrimSpace(top)
	if top[0] != '[' {
		return nil, parsers.Errorf(path, 1, parsers.ErrShape, "not a Conversation Studio export: want an array of comments, got %.20s", top)
	}
	var list []json.RawMessage
	if err := json.Unmarshal(top, &list); err != nil {
		return nil, parsers.Errorf(path, 1, parsers.ErrShape, "%v", err)
	}

	var roots []*node
	type item struct {
		raw    json.RawMessage
		parent *node
		where  string
	}
	// Breadth-first with a queue: each parent's children are appended in
	// array order, and no recursion follows the file's nesting.
	queue := make([]item, 0, len(list))
	for _, raw := range list {
		queue = append(queue, item{raw: raw, where: "top level"})
	}
	read := 0
	for i := 0; i < len(queue); i++ {
		if i%1024 == 1023 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		it := queue[i]
		queue[i] = item{}
		var c jsonComment
		if err := json.Unmarshal(it.raw, &c); err != nil || !c.looksLikeComment() {
			res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "%s: skipped a value that is not a comment: %.40s", it.where, it.raw))
			continue
		}
		read++
		n := &node{
			id:       loose.String(c.ID),
			parentID: loose.String(c.ParentID),
			userID:   loose.String(c.UserID),
			typ:      loose.String(c.Type),
			ts:       loose.Time(c.Timestamp),
			content:  loose.String(c.Content),
			deleted:  loose.Bool(c.Deleted),
			hash:     loose.String(c.ContentHash),
		}
		n.atts = jsonAttachments(c.Attachments)
		n.arts = jsonArtifacts(c.Artifacts)
		add(&roots, it.parent, n)
		var kids []json.RawMessage
		if !loose.IsNull(c.Children) && json.Unmarshal(c.Children, &kids) != nil {
			res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "comment %s: children is not an array", n.id))
		}
		for _, k := range kids {
			queue = append(queue, item{raw: k, parent: n, where: "children of " + n.id})
		}
	}
	if read == 0 && len(list) > 0 {
		return nil, parsers.Errorf(path, 1, parsers.ErrShape, "not a Conversation Studio export: no comment in the array")
	}
	return roots, nil
}

func jsonAttachments(raw json.RawMessage) []conversation.Attachment {
	var list []json.RawMessage
	if loose.IsNull(raw) || json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var out []conversation.Attachment
	for _, a := range list {
		a = bytes.TrimSpace(a)
		if len(a) == 0 {
			continue
		}
		if a[0] == '"' {
			// An early exporter wrote each attachment as its data URL alone.
			out = append(out, attachment("", "", loose.String(a)))
			continue
		}
		var ja jsonAttachment
		if json.Unmarshal(a, &ja) != nil {
			continue
		}
		url := loose.String(ja.URL)
		if url == "" {
			url = loose.String(ja.Content)
		}
		out = append(out, attachment(loose.String(ja.Name), loose.String(ja.Type), url))
	}
	return out
}

func jsonArtifacts(raw json.RawMessage) []conversation.Artifact {
	var list []jsonArtifact
	if loose.IsNull(raw) || json.Unmarshal(raw, &list) != nil {
		return nil
	}
	out := make([]conversation.Artifact, 0, len(list))
	for _, a := range list {
		out = append(out, artifact(loose.String(a.ID), loose.String(a.Type), loose.String(a.Title),
			loose.String(a.Info), loose.String(a.Status), loose.String(a.Command), loose.String(a.Content)))
	}
	return out
}
