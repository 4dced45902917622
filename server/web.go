package server

import (
	"bytes"
	"embed"
	"io/fs"
	"net/http"
	"sync"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
)

// The search page: plain HTML, CSS and JavaScript, no build step, nothing
// fetched from elsewhere.
//
//go:embed web
var webFiles embed.FS

// pageCSP allows the page's own files and API only: no inline script, no
// other origin.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

func pageHandler() http.Handler {
	sub, err := fs.Sub(webFiles, "web")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, "%s not allowed here", r.Method)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", pageCSP)
		h.Set("X-Frame-Options", "DENY")
		// The page is small and changes with the binary: always revalidate.
		h.Set("Cache-Control", "no-cache")
		if r.URL.Path == "/code.css" {
			w.Header().Set("Content-Type", "text/css; charset=utf-8")
			_, _ = w.Write(codeCSS())
			return
		}
		files.ServeHTTP(w, r)
	})
}

// codeCSS is the stylesheet of highlighted code (see Markdown): chroma's
// classes in a light theme, and a dark one for dark mode.
var codeCSS = sync.OnceValue(func() []byte {
	f := chromahtml.New(chromahtml.WithClasses(true))
	var b bytes.Buffer
	// Each theme under its own media query: rules of one that the other
	// lacks must not show through.
	b.WriteString("@media not (prefers-color-scheme: dark) {\n")
	_ = f.WriteCSS(&b, styles.Get("github"))
	b.WriteString("}\n@media (prefers-color-scheme: dark) {\n")
	_ = f.WriteCSS(&b, styles.Get("github-dark"))
	b.WriteString("}\n")
	return b.Bytes()
})
