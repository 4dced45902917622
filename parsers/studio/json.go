package studio

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// parseJSON reads the native export: an array of root comments with nested
// children. The file is decoded once into generic values: re-decoding each
// comment's children would copy every subtree once per level, and a chat
// in the app is one long chain of replies, as deep as it is long.
func parseJSON(ctx context.Context, path string, r io.Reader, res *parsers.Result) ([]*node, error) {
	data, err := loose.ReadAll(path, r)
	if err != nil {
		return nil, err
	}
	// A first pass for errors that name the line. An export cut short (a
	// partial download) keeps the comments whose own fields were written
	// whole before the tear: raw is then the mended document.
	var raw json.RawMessage
	torn, unit, err := loose.UnmarshalMendedUnit(path, data, &raw, commentUnit)
	if err != nil {
		return nil, err
	}
	if torn != nil {
		data = raw
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // ids and timestamps keep their exact text
	var top any
	if err := dec.Decode(&top); err != nil {
		return nil, parsers.Errorf(path, 0, parsers.ErrSyntax, "%v", err)
	}
	list, ok := top.([]any)
	if !ok {
		return nil, parsers.Errorf(path, 1, parsers.ErrShape, "not a Conversation Studio export: want an array of comments, got %s", describe(top))
	}
	if torn != nil {
		list = dropTorn(list, unit)
		n := countComments(list)
		if n == 0 {
			return nil, torn
		}
		res.Warn(loose.TornWarning(torn, fmt.Sprintf("the %d comments whose text was complete", n)))
	}

	var roots []*node
	type item struct {
		v      any
		parent *node
		where  string
	}
	// Breadth-first with a queue: each parent's children are appended in
	// array order, and no recursion follows the file's nesting.
	queue := make([]item, 0, len(list))
	for _, v := range list {
		queue = append(queue, item{v: v, where: "top level"})
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
		c, ok := it.v.(map[string]any)
		if !ok || !looksLikeComment(c) {
			res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "%s: skipped a value that is not a comment: %s", it.where, describe(it.v)))
			continue
		}
		read++
		n := &node{
			id:       str(c["id"]),
			parentID: str(c["parentId"]),
			userID:   str(c["userId"]),
			typ:      str(c["type"]),
			ts:       loose.Time(rawOf(c["timestamp"])),
			content:  str(c["content"]),
			deleted:  loose.Bool(rawOf(c["deleted"])),
			hash:     str(c["contentHash"]),
			atts:     jsonAttachments(c["attachments"]),
			arts:     jsonArtifacts(c["artifacts"]),
		}
		add(&roots, it.parent, n)
		switch kids := c["children"].(type) {
		case []any:
			for _, k := range kids {
				queue = append(queue, item{v: k, parent: n, where: "children of " + n.id})
			}
		default:
			if !loose.IsNull(rawOf(kids)) {
				res.Warn(parsers.Errorf(path, 0, parsers.ErrShape, "comment %s: children is not an array: %s", n.id, describe(kids)))
			}
		}
	}
	if read == 0 && len(list) > 0 {
		return nil, parsers.Errorf(path, 1, parsers.ErrShape, "not a Conversation Studio export: no comment in the array")
	}
	return roots, nil
}

// looksLikeComment reports whether c has any key of a comment.
func looksLikeComment(c map[string]any) bool {
	for _, k := range []string{"id", "content", "children", "userId", "timestamp", "contentHash"} {
		if _, ok := c[k]; ok {
			return true
		}
	}
	return false
}

// rawOf returns v as JSON text, for the loose helpers.
func rawOf(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// str returns v as text the way loose.String does: numbers as their text,
// `{}` and `[]` as nothing, other objects as compact JSON.
func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	}
	return loose.String(rawOf(v))
}

// describe says what kind of value v is, for a warning: never what it
// holds, which may be a secret (the first 40 bytes of a token are most of
// it, and cut short no longer have the shape that redaction knows).
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return fmt.Sprintf("a string of %d bytes", len(v))
	case map[string]any:
		return fmt.Sprintf("an object of %d keys", len(v))
	case []any:
		return fmt.Sprintf("a list of %d values", len(v))
	case bool:
		return "a boolean"
	case nil:
		return "null"
	default:
		return "a number"
	}
}

// jsonAttachments reads the spec's {url, type, name, file}, an early
// exporter's {name, type, content}, and a still earlier one's bare data URL.
func jsonAttachments(v any) []conversation.Attachment {
	list, _ := v.([]any)
	var out []conversation.Attachment
	for _, a := range list {
		switch a := a.(type) {
		case string:
			out = append(out, attachment("", "", a))
		case map[string]any:
			url := str(a["url"])
			if url == "" {
				url = str(a["content"])
			}
			out = append(out, attachment(str(a["name"]), str(a["type"]), url))
		}
	}
	return out
}

func jsonArtifacts(v any) []conversation.Artifact {
	list, _ := v.([]any)
	var out []conversation.Artifact
	for _, a := range list {
		if m, ok := a.(map[string]any); ok {
			out = append(out, artifact(str(m["id"]), str(m["type"]), str(m["title"]),
				str(m["info"]), str(m["status"]), str(m["command"]), str(m["content"])))
		}
	}
	return out
}

// commentUnit is where a torn export is cut back: in the comment the tear
// went through, keeping its fields written whole, or else in the list of
// comments (the root array, a children array) that holds it.
func commentUnit(path []string) bool {
	n := len(path)
	switch {
	case n == 0:
		return true
	case path[n-1] == "children":
		return true
	}
	_, err := strconv.Atoi(path[n-1])
	return err == nil && (n == 1 || path[n-2] == "children")
}

// dropTorn removes from a mended export the comments the tear went through
// whose content was not written whole: at is the path MendUnit cut back in,
// which passes through them. The first such comment is dropped with what
// it holds.
func dropTorn(list []any, at []string) []any {
	set := func(l []any) { list = l }
	arr := list
	for i := 0; i < len(at); i += 2 {
		j, err := strconv.Atoi(at[i])
		if err != nil || j < 0 || j >= len(arr) {
			return list
		}
		c, ok := arr[j].(map[string]any)
		if !ok {
			return list
		}
		if _, has := c["content"]; !has {
			set(arr[:j])
			return list
		}
		if i+1 >= len(at) || at[i+1] != "children" {
			return list
		}
		kids, ok := c["children"].([]any)
		if !ok {
			return list
		}
		set = func(l []any) { c["children"] = l }
		arr = kids
	}
	return list
}

// countComments counts the comments of list and of their children.
func countComments(list []any) int {
	n := 0
	todo := [][]any{list}
	for len(todo) > 0 {
		l := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, v := range l {
			if c, ok := v.(map[string]any); ok && looksLikeComment(c) {
				n++
				if kids, ok := c["children"].([]any); ok {
					todo = append(todo, kids)
				}
			}
		}
	}
	return n
}
