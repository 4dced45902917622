package studio

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/convsearch/convsearch/parsers"
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
			return nil, parsers.Errorf(path, line, parsers.ErrSyntax, "%v", xmlReason(err))
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
