package server

import (
	"net/url"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"

	"golang.org/x/net/html"
)

// The page's HTML sanitiser: an allowlist over x/net/html's tokenizer, the
// second layer behind goldmark (which drops raw HTML and dangerous links
// itself). It replaced bluemonday, whose package initialisation (its CSS
// tables and regular expressions, and gorilla/css's) ran in every command
// of this one binary: 4 ms of a 22 ms whole-process search. The policy is
// bluemonday's as it was configured here, but for classes, now the
// renderer's own only; sanitize_test.go compares the two on every case.

// allowedElements are the elements the Markdown renderer makes.
var allowedElements = map[string]bool{
	"p": true, "br": true, "hr": true, "em": true, "strong": true, "del": true, "code": true, "pre": true,
	"blockquote": true, "ul": true, "ol": true, "li": true, "h1": true, "h2": true, "h3": true, "h4": true,
	"h5": true, "h6": true, "table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true,
	"span": true, "div": true, "a": true,
}

// voidElements have no end tag.
var voidElements = map[string]bool{"br": true, "hr": true}

// droppedWithContent are elements whose content is not text to show
// (bluemonday's list).
var droppedWithContent = map[string]bool{
	"frameset": true, "iframe": true, "noembed": true, "noframes": true, "noscript": true, "nostyle": true,
	"object": true, "script": true, "style": true, "title": true,
}

// maxEndSearch bounds how far into the open elements an end tag looks.
const maxEndSearch = 100

// sanitize returns in with only the allowed elements and attributes; text
// is escaped again, and every element left open is closed.
func sanitize(in string) string {
	z := html.NewTokenizer(strings.NewReader(in))
	var b strings.Builder
	b.Grow(len(in))
	var open []string // allowed elements written and not closed yet
	skip := 0         // depth inside elements dropped with their content
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			for i := len(open) - 1; i >= 0; i-- {
				b.WriteString("</" + open[i] + ">")
			}
			return b.String()
		case html.TextToken:
			if skip == 0 {
				b.WriteString(html.EscapeString(string(z.Text())))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			tag := string(name)
			if droppedWithContent[tag] {
				if tt == html.StartTagToken {
					skip++
				}
				continue
			}
			if skip > 0 || !allowedElements[tag] {
				continue
			}
			var attrs []html.Attribute
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				attrs = append(attrs, html.Attribute{Key: string(k), Val: string(v)})
			}
			kept, ok := keepAttributes(tag, attrs)
			if !ok {
				continue // a link left with nothing: its text stays
			}
			b.WriteString("<" + tag + kept + ">")
			// A browser ignores the slash of <div/> or <a href=x/>: the
			// element is open all the same, and is closed like any other
			// (left open, a link would take in all that follows).
			if !voidElements[tag] {
				open = append(open, tag)
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			tag := string(name)
			if droppedWithContent[tag] {
				skip = max(0, skip-1)
				continue
			}
			if skip > 0 {
				continue
			}
			// Close up to the element this ends; an end tag with nothing
			// open to end is dropped. Only the innermost elements are
			// looked at: stray end tags under deep nesting would cost
			// the square of the text's length.
			for i := len(open) - 1; i >= max(0, len(open)-maxEndSearch); i-- {
				if open[i] == tag {
					for j := len(open) - 1; j >= i; j-- {
						b.WriteString("</" + open[j] + ">")
					}
					open = open[:i]
					break
				}
			}
		}
		// Comments and doctypes are dropped.
	}
}

// keepAttributes returns the attributes of tag that may stay, serialised;
// ok is false for a link left with none, which is dropped.
func keepAttributes(tag string, attrs []html.Attribute) (kept string, ok bool) {
	var b strings.Builder
	var href *url.URL
	for _, a := range attrs {
		switch {
		case a.Key == "class" && classValue(a.Val):
			b.WriteString(` class="` + html.EscapeString(a.Val) + `"`)
		case a.Key == "start" && tag == "ol" && digits(a.Val):
			b.WriteString(` start="` + a.Val + `"`)
		case a.Key == "href" && tag == "a" && href == nil:
			if u, ok := safeURL(a.Val); ok {
				href = u
				b.WriteString(` href="` + html.EscapeString(u.String()) + `"`)
			}
		}
	}
	if tag != "a" {
		return b.String(), true
	}
	if href == nil {
		// Without a target a link is kept only for what else it says (a
		// class), as bluemonday kept it.
		return b.String(), b.Len() > 0
	}
	// Nothing of the page goes to the site linked, nor does its rank.
	if href.Host != "" {
		b.WriteString(` rel="nofollow noreferrer noopener" target="_blank"`)
	} else {
		b.WriteString(` rel="nofollow noreferrer"`)
	}
	return b.String(), true
}

// safeURL parses a link's target: absolute, http, https or mailto.
func safeURL(s string) (*url.URL, bool) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil {
		return nil, false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return u, u.Host != ""
	case "mailto":
		return u, true
	}
	return nil, false
}

// classValue is a class list of the renderer's classes only: code
// highlighting's and view.go's own. Any other word could be one of the
// page's (".conv" is position: fixed), and let a message restyle the page.
func classValue(s string) bool {
	if s == "" || len(s) > 80 {
		return false
	}
	for w := range strings.FieldsSeq(s) {
		if !rendererClasses()[w] {
			return false
		}
	}
	return strings.TrimSpace(s) != ""
}

// rendererClasses are the classes the Markdown renderer writes.
var rendererClasses = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{"code": true, "raw-html": true, "img-link": true}
	for _, c := range chroma.StandardTypes {
		if c != "" {
			m[c] = true
		}
	}
	return m
})

func digits(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
