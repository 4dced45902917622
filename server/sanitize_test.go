package server

import (
	"regexp"
	"strings"
	"testing"

	"github.com/microcosm-cc/bluemonday"
	"golang.org/x/net/html"
)

// bluemondayPolicy is the policy sanitize replaced, as it was configured:
// the tests hold sanitize to it.
func bluemondayPolicy() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "hr", "em", "strong", "del", "code", "pre", "blockquote", "ul", "ol", "li",
		"h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td", "span", "div", "a")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^[a-zA-Z0-9 _-]{1,80}$`)).Globally()
	p.AllowAttrs("start").Matching(bluemonday.Integer).OnElements("ol")
	p.AllowAttrs("href").OnElements("a")
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return p
}

// hostileHTML is markup a renderer bug could let through, for sanitize
// alone.
var hostileHTML = []string{
	`<script>alert(1)</script>after`,
	`<SCRIPT SRC=//x.example/a.js></SCRIPT>after`,
	`<style>p{color:red}</style><p>text</p>`,
	`<p onclick="alert(1)" class="x">text</p>`,
	`<a href="javascript:alert(1)">x</a>`,
	`<a href="JaVaScRiPt:alert(1)">x</a>`,
	`<a href="jav&#x61;script:alert(1)">x</a>`,
	"<a href=\"java\tscript:alert(1)\">x</a>",
	`<a href=" javascript:alert(1)">x</a>`,
	`<a href="data:text/html;base64,PHNjcmlwdD4=">x</a>`,
	`<a href="vbscript:x">x</a>`,
	`<a href="/relative">x</a>`,
	`<a href="//example.com/x">x</a>`,
	`<a href="https://example.com/a?b=1&amp;c=2" onmouseover="x()">ok</a>`,
	`<a href="mailto:me@example.com">mail</a>`,
	`<a href="https://example.com/&quot;onmouseover=&quot;x">q</a>`,
	`<img src=x onerror=alert(1)>`,
	`<iframe src="https://example.com"></iframe>after`,
	`<svg><script>alert(1)</script></svg>after`,
	`<math><mi xlink:href="javascript:alert(1)">x</mi></math>`,
	`<!-- a comment --><p>p</p><![CDATA[x]]>`,
	`<ol start="3"><li>a</li></ol><ol start="3x"><li>b</li></ol>`,
	`<span class="chroma kd">func</span><span class="a&quot;b">x</span>`,
	`<div><p>unclosed <em>em <strong>strong</div> tail`,
	`</p></div>stray end tags<br/><hr>`,
	`<table><tr><td style="background:url(x)">cell</td></tr></table>`,
	`<form action="https://x"><input name=a></form>text`,
	`<textarea><script>alert(1)</script></textarea>after`,
	`<p>&lt;script&gt;escaped&lt;/script&gt; &amp; ok</p>`,
	`<base href="https://evil.example/"><meta http-equiv=refresh content="0;url=https://x">`,
	`<object data="x"></object><embed src="x">`,
	`<noscript><p>n</p></noscript>after`,
}

// normal renders HTML as its parsed tree, so that two serialisations of the
// same document compare equal.
func normal(t *testing.T, s string) string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	var b strings.Builder
	if err := html.Render(&b, doc); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestSanitizeAsBluemonday checks sanitize against the bluemonday policy it
// replaced: on what the Markdown renderer makes of hostile Markdown, and on
// hostile markup given to it directly, both make the same document, or
// sanitize's is the smaller and still safe.
func TestSanitizeAsBluemonday(t *testing.T) {
	p := bluemondayPolicy()
	inputs := append([]string{}, hostileHTML...)
	for _, md := range []string{
		"Some **bold**, *em* and `code`.\n\n- one\n- two\n\n3. three\n4. four",
		"```go\nfunc main() { fmt.Println(\"<hi>\") }\n```",
		"before <script>alert(1)</script> after",
		"<div onclick=\"alert(1)\">\n<img src=x onerror=alert(1)>\n</div>",
		"[click](javascript:alert(1)) and [ok](https://example.com/a?b=1)",
		"![a cat](https://example.com/cat.png) ![x](javascript:alert(1))",
		"see https://example.com/x and <javascript:alert(1)> and <me@example.com>",
		"| a | b |\n|---|:-:|\n| 1 | ~~2~~ |",
		"> quote\n\n# Title\n\n---\n\n- [x] done",
	} {
		var buf strings.Builder
		if err := markdown().Convert([]byte(md), &buf); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, buf.String())
	}
	// Where bluemonday leaves elements open, sanitize closes them: the
	// documents differ, and sanitize's is the one meant.
	closes := map[string]bool{`<div><p>unclosed <em>em <strong>strong</div> tail`: true}
	for _, in := range inputs {
		got, want := sanitize(in), p.Sanitize(in)
		if !closes[in] && normal(t, got) != normal(t, want) {
			t.Errorf("sanitize(%q)\n = %q\nbluemonday: %q", in, got, want)
		}
		checkSafe(t, in, got)
	}
}

// checkSafe fails when out, as a browser parses it, holds an element or
// attribute the policy does not allow, or a link to anything but http,
// https or mailto.
func checkSafe(t *testing.T, in, out string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(out))
	if err != nil {
		t.Fatalf("parse %q: %v", out, err)
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data != "html" && n.Data != "head" && n.Data != "body" {
			if !allowedElements[n.Data] {
				t.Errorf("sanitize(%q) = %q: element <%s> kept", in, out, n.Data)
			}
			for _, a := range n.Attr {
				ok := a.Key == "class" || a.Key == "start" && n.Data == "ol" ||
					n.Data == "a" && (a.Key == "href" || a.Key == "rel" || a.Key == "target")
				if a.Namespace != "" || !ok {
					t.Errorf("sanitize(%q) = %q: attribute %s on <%s> kept", in, out, a.Key, n.Data)
				}
				if a.Key == "href" {
					if _, safe := safeURL(a.Val); !safe {
						t.Errorf("sanitize(%q) = %q: link to %q kept", in, out, a.Val)
					}
				}
			}
		}
		if n.Type == html.CommentNode {
			t.Errorf("sanitize(%q) = %q: a comment kept", in, out)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
}

// FuzzSanitize gives sanitize any markup: what it returns must be safe.
func FuzzSanitize(f *testing.F) {
	for _, s := range hostileHTML {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkSafe(t, in, sanitize(in))
	})
}
