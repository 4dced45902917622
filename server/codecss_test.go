package server

import (
	"bytes"
	"flag"
	"os"
	"testing"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
)

var updateCSS = flag.Bool("update-css", false, "write web/code.css from chroma's themes")

// codeCSS is the stylesheet of highlighted code (see Markdown): chroma's
// classes in a light theme, and a dark one for dark mode, each under its
// own media query so that rules of one the other lacks never show through.
func codeCSS() []byte {
	f := chromahtml.New(chromahtml.WithClasses(true))
	var b bytes.Buffer
	b.WriteString("/* Made by TestCodeCSS (go test ./server -run TestCodeCSS -update-css) from chroma's github themes. */\n")
	b.WriteString("@media not (prefers-color-scheme: dark) {\n")
	_ = f.WriteCSS(&b, styles.Get("github"))
	b.WriteString("}\n@media (prefers-color-scheme: dark) {\n")
	_ = f.WriteCSS(&b, styles.Get("github-dark"))
	b.WriteString("}\n")
	return b.Bytes()
}

// TestCodeCSS keeps web/code.css what chroma makes of its themes for the
// classes Markdown writes.
func TestCodeCSS(t *testing.T) {
	want := codeCSS()
	if *updateCSS {
		if err := os.WriteFile("web/code.css", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("web/code.css")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("web/code.css is not what chroma makes of its themes: run go test ./server -run TestCodeCSS -update-css")
	}
}
