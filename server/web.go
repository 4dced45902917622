package server

import (
	"embed"
	"io/fs"
	"net/http"
)

// The search page: plain HTML, CSS and JavaScript, no build step, nothing
// fetched from elsewhere. web/code.css, the colours of highlighted code, is
// made by TestCodeCSS from chroma's themes: linking chroma's styles into
// the binary cost every command 8 ms at start.
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
		if h.Get("Cache-Control") == "" {
			h.Set("Cache-Control", "no-cache")
		}
		files.ServeHTTP(w, r)
	})
}
