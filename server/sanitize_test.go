package server

import (
	"regexp"
	"strings"
	"testing"

	"github.com/microcosm-cc/bluemonday"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
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
	`<a href="https://example.com/x"/>the rest <div/>of the message`,
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
// https or mailto. It parses out as the page puts it in (the innerHTML of
// a div) and as part of a whole document, where out must stay inside its
// container; links are judged by the browser's reading of a URL's scheme,
// not by safeURL, which the checker would only agree with.
func checkSafe(t *testing.T, in, out string) {
	t.Helper()
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.ElementNode:
			if !allowedElements[n.Data] || n.Namespace != "" {
				t.Errorf("sanitize(%q) = %q: element <%s %s> kept", in, out, n.Namespace, n.Data)
			}
			checkAttrs(t, in, out, n)
		case html.CommentNode:
			t.Errorf("sanitize(%q) = %q: a comment kept", in, out)
		case html.DoctypeNode:
			t.Errorf("sanitize(%q) = %q: a doctype kept", in, out)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	// As the page puts it in: body.innerHTML = html.
	nodes, err := html.ParseFragment(strings.NewReader(out), &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		t.Fatalf("parse %q: %v", out, err)
	}
	for _, n := range nodes {
		walk(n)
	}
	// Put in a document between a container and what follows it: out
	// neither closes the container nor keeps it open (nor a link or other
	// formatting around what follows), and html, head and body gain no
	// attributes from it.
	const before, after = `<!DOCTYPE html><html><head></head><body><div id="c">`, `</div><p id="after">after</p></body></html>`
	doc, err := html.Parse(strings.NewReader(before + out + after))
	if err != nil {
		t.Fatalf("parse %q: %v", out, err)
	}
	var body *html.Node
	var root func(n *html.Node)
	root = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Data == "html" || n.Data == "head" || n.Data == "body") {
			if len(n.Attr) > 0 {
				t.Errorf("sanitize(%q) = %q: attributes %v on <%s>", in, out, n.Attr, n.Data)
			}
			if n.Data == "body" {
				body = n
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode || c.Type == html.DocumentNode {
				root(c)
			}
		}
	}
	root(doc)
	var kids []*html.Node
	for c := body.FirstChild; c != nil; c = c.NextSibling {
		kids = append(kids, c)
	}
	if len(kids) != 2 || attr(kids[0], "id") != "c" || attr(kids[1], "id") != "after" ||
		kids[1].FirstChild == nil || kids[1].FirstChild.Type != html.TextNode || kids[1].FirstChild.NextSibling != nil {
		var b strings.Builder
		_ = html.Render(&b, body)
		t.Errorf("sanitize(%q) = %q: out of its container: %s", in, out, b.String())
	}
}

// classPattern is the class list the policy allows.
var classPattern = regexp.MustCompile(`^[a-zA-Z0-9 _-]{1,80}$`)

// checkAttrs checks an element's attributes and their values.
func checkAttrs(t *testing.T, in, out string, n *html.Node) {
	t.Helper()
	for _, a := range n.Attr {
		ok := a.Key == "class" || a.Key == "start" && n.Data == "ol" ||
			n.Data == "a" && (a.Key == "href" || a.Key == "rel" || a.Key == "target")
		if a.Namespace != "" || !ok {
			t.Errorf("sanitize(%q) = %q: attribute %s on <%s> kept", in, out, a.Key, n.Data)
		}
		bad := false
		switch a.Key {
		case "href":
			if _, safe := safeURL(a.Val); !safe {
				t.Errorf("sanitize(%q) = %q: link to %q kept", in, out, a.Val)
			}
			switch browserScheme(a.Val) {
			case "http", "https", "mailto":
			default:
				bad = true
			}
		case "class":
			// Bluemonday's pattern, and the renderer's classes only: a
			// class of the page's own would let a message restyle it.
			bad = !classPattern.MatchString(a.Val)
			for w := range strings.FieldsSeq(a.Val) {
				bad = bad || !rendererClasses()[w]
			}
		case "start":
			bad = !digits(a.Val)
		case "target":
			bad = a.Val != "_blank" || !strings.Contains(attr(n, "rel"), "noopener")
		case "rel":
			bad = a.Val != "nofollow noreferrer noopener" && a.Val != "nofollow noreferrer"
		}
		if bad {
			t.Errorf("sanitize(%q) = %q: %s=%q on <%s>", in, out, a.Key, a.Val, n.Data)
		}
	}
	if n.Data == "a" && attr(n, "href") != "" && !strings.Contains(attr(n, "rel"), "noreferrer") {
		t.Errorf("sanitize(%q) = %q: a link without rel=noreferrer", in, out)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// browserScheme is a URL's scheme as the URL standard reads it, lower
// case; "" for a URL without one (a relative URL).
func browserScheme(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	s = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(s)
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return ""
	}
	for k := 0; k < i; k++ {
		c := s[k] | 0x20
		if !(c >= 'a' && c <= 'z' || k > 0 && (s[k] >= '0' && s[k] <= '9' || s[k] == '+' || s[k] == '-' || s[k] == '.')) {
			return ""
		}
	}
	return strings.ToLower(s[:i])
}

// FuzzSanitize gives sanitize any markup: what it returns must be safe.
func FuzzSanitize(f *testing.F) {
	for _, s := range hostileHTML {
		f.Add(s)
	}
	for _, c := range sanitizeAttacks {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkSafe(t, in, sanitize(in))
	})
}

// sanitizeAttacks are markup meant to get past sanitize, and what it makes
// of each: tokenizer and browser disagreeing (raw text, comments, foreign
// content, NUL bytes), attributes ending early, links whose scheme hides
// behind entities, controls or backslashes, and elements left open.
var sanitizeAttacks = []struct{ in, want string }{
	{"<a href=\"https://evil.example/\"/>rest of the message", "<a href=\"https://evil.example/\" rel=\"nofollow noreferrer noopener\" target=\"_blank\">rest of the message</a>"},
	{"<div/>x", "<div>x</div>"},
	{"<table/>x", "<table>x</table>"},
	{"<pre/>x", "<pre>x</pre>"},
	{"<ul/><li>a", "<ul><li>a</li></ul>"},
	{"<a href=\"https:\\\\evil.example\">x</a>", "x"},
	{"<a href=\"https:/\\evil.example\">x</a>", "x"},
	{"<a href=\"https://evil.example\\@good.example\">x</a>", "x"},
	{"<a href=\"javascript&colon;alert(1)\">x</a>", "x"},
	{"<a href=\"javascript&#58alert(1)\">x</a>", "x"},
	{"<a href=\"&Tab;javascript:alert(1)\">x</a>", "x"},
	{"<a href=\"java&NewLine;script:alert(1)\">x</a>", "x"},
	{"<a href=\"\x00javascript:alert(1)\">x</a>", "x"},
	{"<a href=\"\x01javascript:alert(1)\">x</a>", "x"},
	{"<a href=\"\u00a0javascript:alert(1)\">x</a>", "x"},
	{"<a href=\"\u00a0https://ok.example/\u00a0\">x</a>", "<a href=\"https://ok.example/\" rel=\"nofollow noreferrer noopener\" target=\"_blank\">x</a>"},
	{"<a href=\"https://ok.example/\xff\xfe\">x</a>", "<a href=\"https://ok.example/%FF%FE\" rel=\"nofollow noreferrer noopener\" target=\"_blank\">x</a>"},
	{"<a href=\"https://ok.example/\\\"onmouseover=x\">x</a>", "<a href=\"https://ok.example/%5C\" rel=\"nofollow noreferrer noopener\" target=\"_blank\">x</a>"},
	{"<a href=\"https://x.example\"\"onmouseover=\"x\">y</a>", "<a href=\"https://x.example\" rel=\"nofollow noreferrer noopener\" target=\"_blank\">y</a>"},
	{"<a href='https://x.example'onmouseover='x'>y</a>", "<a href=\"https://x.example\" rel=\"nofollow noreferrer noopener\" target=\"_blank\">y</a>"},
	{"<a href=https://x.example/`onmouseover=x`>y</a>", "<a href=\"https://x.example/%60onmouseover=x%60\" rel=\"nofollow noreferrer noopener\" target=\"_blank\">y</a>"},
	{"<a href=\"https://x.example/#&lt;img src=x onerror=alert(1)&gt;\">x</a>", "<a href=\"https://x.example/#%3Cimg%20src=x%20onerror=alert(1)%3E\" rel=\"nofollow noreferrer noopener\" target=\"_blank\">x</a>"},
	{"<a href=\"https://x.example/?'`\">x</a>", "<a href=\"https://x.example/?&#39;`\" rel=\"nofollow noreferrer noopener\" target=\"_blank\">x</a>"},
	{"<a href=\"mailto:javascript:alert(1)\">x</a>", "<a href=\"mailto:javascript:alert(1)\" rel=\"nofollow noreferrer\">x</a>"},
	{"<a href=\"https://x\" href=\"javascript:alert(1)\">x</a>", "<a href=\"https://x\" rel=\"nofollow noreferrer noopener\" target=\"_blank\">x</a>"},
	{"<a href=\"javascript:alert(1)\" href=\"https://x\">x</a>", "x"},
	{"<a class=x href=javascript:alert(1)>x</a>", "<a class=\"x\">x</a>"},
	{"<a/href=\"javascript:alert(1)\">x</a>", "x"},
	{"<a href\x00=\"javascript:alert(1)\">x</a>", "x"},
	{"<a href=\"http://x.example\" rel=\"opener\" target=\"x\">y</a>", "<a href=\"http://x.example\" rel=\"nofollow noreferrer noopener\" target=\"_blank\">y</a>"},
	{"<p class=\"a\x00b\">x</p>", "<p>x</p>"},
	{"<scr\x00ipt>alert(1)</script>", "alert(1)"},
	{"<script>alert(1)</scr\x00ipt><p>x</p>", ""},
	{"<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></noscript>", "&#34;&gt;"},
	{"<template><script>alert(1)</script></template>", ""},
	{"<xmp><script>alert(1)</script></xmp>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
	{"<plaintext><script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
	{"<textarea></textarea><script>alert(1)</script>", ""},
	{"<title><script>alert(1)</script></title>", ""},
	{"<svg><![CDATA[</svg><img src=x onerror=alert(1)>]]></svg>", "]]&gt;"},
	{"<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>", "<table></table>"},
	{"<svg></p><style><a id=\"</style><img src=1 onerror=alert(1)>\">", "&#34;&gt;"},
	{"<svg><a href=\"javascript:alert(1)\">x</a></svg>", "x"},
	{"<math href=\"javascript:alert(1)\">x</math>", "x"},
	{"<!--><img src=x onerror=alert(1)>-->", "--&gt;"},
	{"<!--!><img src=x onerror=alert(1)>-->", ""},
	{"<?xml ><img src=x onerror=alert(1)>?>", "?&gt;"},
	{"<style/><img src=x onerror=alert(1)></style>", "&lt;img src=x onerror=alert(1)&gt;"},
	{"<iframe/><p>x</p></iframe>", "&lt;p&gt;x&lt;/p&gt;"},
	{"<object><script></object><img src=x onerror=alert(1)></script></object>", ""},
	{"<div </div>><img src=x onerror=alert(1)>", "<div>&gt;</div>"},
	{"<p/onclick=alert(1)>x", "<p>x</p>"},
	{"<ol start=\"1\"onclick=alert(1)>", "<ol start=\"1\"></ol>"},
	{"<body onload=alert(1)><html onmouseover=alert(1)>x", "x"},
	{"<p>a\x00b</p>", "<p>a\x00b</p>"},
	{"&lt;script&gt;&#0;&#x110000;&#xD800;&amp", "&lt;script&gt;���&amp;"},
	{"<a href=\"https://x\"><table><td></a>y", "<a href=\"https://x\" rel=\"nofollow noreferrer noopener\" target=\"_blank\"><table><td></td></table></a>y"},
	{"</div></td></table>x", "x"},
}

// TestSanitizeAttacks holds sanitize to its output on each attack, and
// checks it safe.
func TestSanitizeAttacks(t *testing.T) {
	for _, c := range sanitizeAttacks {
		got := sanitize(c.in)
		if got != c.want {
			t.Errorf("sanitize(%q)\n = %q\nwant %q", c.in, got, c.want)
		}
		checkSafe(t, c.in, got)
	}
}

// TestSanitizeClasses checks that only the renderer's classes stay: a
// class of the page's own (".conv" is position: fixed) would let a message
// restyle the page around it.
func TestSanitizeClasses(t *testing.T) {
	tests := []struct{ in, want string }{
		{`<span class="chroma kd">func</span>`, `<span class="chroma kd">func</span>`},
		{`<pre class="code"><code>x</code></pre>`, `<pre class="code"><code>x</code></pre>`},
		{`<div class="conv">over the page</div>`, `<div>over the page</div>`},
		{`<span class="kd conv">mixed</span>`, `<span>mixed</span>`},
		{`<p class="">empty</p>`, `<p>empty</p>`},
	}
	for _, tt := range tests {
		if got := sanitize(tt.in); got != tt.want {
			t.Errorf("sanitize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
