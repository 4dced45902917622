package studio

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// parseXML reads the XML export: <comments><comment> with fields as child
// elements, <content> and <url> as CDATA or plain text, replies nested in
// <children>. It walks the token stream with its own stack, so neither the
// nesting depth nor a 500 KB data URL costs more than the text itself.
func parseXML(ctx context.Context, path string, r io.Reader, res *parsers.Result) ([]*node, error) {
	d := xml.NewDecoder(r)
	// Lenient: the worker exporter writes names and ids unescaped.
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }

	var (
		roots    []*node
		comments []*node // open <comment> elements, innermost last
		elems    []string
		text     strings.Builder
		att      *xmlFields // open <attachment>
		art      *xmlFields // open <artifact>
		sawRoot  bool
		tokens   int
		// comments whose content was read whole (open ones may not be)
		hasContent = map[*node]bool{}
	)
	for {
		tokens++
		if tokens%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line, _ := d.InputPos()
			serr := parsers.Errorf(path, line, parsers.ErrSyntax, "%v", xmlReason(err))
			if !cutShort(err) {
				return nil, serr
			}
			// An export cut short (a partial download) keeps the comments
			// whose content was written whole; the first open one whose
			// content was not is dropped, with what it holds.
			for i, c := range comments {
				if !hasContent[c] {
					dropLast(&roots, comments[:i+1])
					break
				}
			}
			if n := countNodes(roots); n > 0 {
				res.Warn(loose.TornWarning(serr, fmt.Sprintf("the %d comments whose text was complete", n)))
				return roots, nil
			}
			return nil, serr
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := t.Name.Local
			elems = append(elems, name)
			text.Reset()
			switch name {
			case "comments":
				sawRoot = true
			case "comment":
				sawRoot = true
				n := &node{}
				for _, a := range t.Attr {
					setCommentField(n, a.Name.Local, a.Value)
					if a.Name.Local == "content" {
						hasContent[n] = true
					}
				}
				var parent *node
				if len(comments) > 0 {
					parent = comments[len(comments)-1]
				}
				add(&roots, parent, n)
				comments = append(comments, n)
			case "attachment":
				att = &xmlFields{}
			case "artifact":
				art = &xmlFields{}
			}
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			name := t.Name.Local
			if len(elems) > 0 {
				elems = elems[:len(elems)-1]
			}
			value := text.String()
			text.Reset()
			switch {
			case name == "comment":
				if len(comments) > 0 {
					comments = comments[:len(comments)-1]
				}
			case name == "attachment" && att != nil:
				if len(comments) > 0 {
					n := comments[len(comments)-1]
					n.atts = append(n.atts, attachment(att.get("name"), att.get("type"), att.get("url")))
				}
				att = nil
			case name == "artifact" && art != nil:
				if len(comments) > 0 {
					n := comments[len(comments)-1]
					n.arts = append(n.arts, artifact(art.get("id"), art.get("type"), art.get("title"), art.get("info"), art.get("status"), art.get("command"), art.get("content")))
				}
				art = nil
			case att != nil:
				att.set(name, value)
			case art != nil:
				art.set(name, value)
			case len(comments) > 0 && len(elems) > 0 && elems[len(elems)-1] == "comment":
				// A field directly under <comment>: not one nested in an
				// element we do not know.
				setCommentField(comments[len(comments)-1], name, value)
				if name == "content" {
					hasContent[comments[len(comments)-1]] = true
				}
			}
		}
	}
	if !sawRoot {
		return nil, parsers.Errorf(path, 1, parsers.ErrShape, "not a Conversation Studio export: no <comments> or <comment> element")
	}
	return roots, nil
}

// setCommentField sets the comment field named name (an element or
// attribute of <comment>).
func setCommentField(n *node, name, value string) {
	switch name {
	case "id":
		n.id = strings.TrimSpace(value)
	case "userId":
		n.userID = strings.TrimSpace(value)
	case "type":
		n.typ = strings.TrimSpace(value)
	case "timestamp":
		n.ts = parseTimestamp(value)
	case "content":
		n.content = strings.TrimSpace(value)
	case "contentHash":
		n.hash = strings.TrimSpace(value)
	case "parentId":
		n.parentID = strings.TrimSpace(value)
	case "deleted":
		v := strings.ToLower(strings.TrimSpace(value))
		n.deleted = v == "true" || v == "1" || v == "yes"
	}
}

// xmlFields collects the leaf fields of an <attachment> or <artifact>.
type xmlFields struct{ fields map[string]string }

func (f *xmlFields) set(name, value string) {
	if f.fields == nil {
		f.fields = map[string]string{}
	}
	f.fields[name] = value
}

func (f *xmlFields) get(name string) string { return f.fields[name] }

// xmlReason shortens encoding/xml's messages, which repeat "XML syntax error
// on line N" that the returned error already carries.
func xmlReason(err error) string {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return se.Msg
	}
	return fmt.Sprint(err)
}

// cutShort reports whether err is the XML decoder meeting the end of the
// file inside the document.
func cutShort(err error) bool {
	var se *xml.SyntaxError
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &se) && se.Msg == "unexpected EOF"
}

// dropLast removes open[len(open)-1], an open comment, which was the last
// added to its parent: from its parent's children, or from roots.
func dropLast(roots *[]*node, open []*node) {
	list := roots
	if len(open) > 1 {
		list = &open[len(open)-2].children
	}
	if n := len(*list); n > 0 && (*list)[n-1] == open[len(open)-1] {
		*list = (*list)[:n-1]
	}
}

// countNodes counts the comments of a tree.
func countNodes(roots []*node) int {
	n := 0
	todo := append([]*node(nil), roots...)
	for len(todo) > 0 {
		c := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		n++
		todo = append(todo, c.children...)
	}
	return n
}
