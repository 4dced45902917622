package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// findChromium returns a headless-capable Chromium, or "" when there is
// none. It skips the test under -short, and when there is none, except in
// CI (CI=true), where it fails.
func findChromium(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("drives a browser")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if inCI() {
		t.Fatal("no chromium in PATH; CI must install it (apt-get install -y chromium)")
	}
	t.Skip("no chromium in PATH")
	return ""
}

// chromium runs a headless Chromium on url with what (e.g. --dump-dom) and
// returns its stdout, after the page had 5 s of virtual time to run.
func chromium(t *testing.T, bin, url string, what ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	home := t.TempDir()
	args := append([]string{
		"--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + filepath.Join(home, "profile"), "--virtual-time-budget=5000",
		"--window-size=1400,900",
	}, what...)
	cmd := exec.CommandContext(ctx, bin, append(args, url)...)
	cmd.Env = append(os.Environ(), "HOME="+home)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", what, err, errOut.String())
	}
	return out.String()
}

// TestBrowserSearchPage loads the search page in headless Chromium with a
// query in its address, and finds the highlighted hit in the rendered page;
// then opens the conversation view at the matched message.
func TestBrowserSearchPage(t *testing.T) {
	bin := findChromium(t)
	home := t.TempDir()
	root := filepath.Join(home, "convs")
	writeConv(t, filepath.Join(root, "a.json"), conversationJSON("conv-hl", "Choosing a retry policy",
		"How should the uploader retry failed chunks?",
		"Use exponential backoff with full jitter, capped at 30 seconds: we'll use it because synchronized retries overloaded the gateway.",
		"Decision: backoff with jitter <script>alert(1)</script> & no thundering herd."))
	d := startServe(t, home, root)
	d.searchable("jitter", true)

	dom := chromium(t, bin, d.url+"/?token="+d.token+"&q=jitter", "--dump-dom")
	// A rendered hit, its matched word highlighted.
	if !regexp.MustCompile(`<div class="frag">[^<]*<mark>jitter</mark>`).MatchString(dom) {
		t.Errorf("no highlighted fragment in the rendered page:\n%s", clipDOM(dom))
	}
	if !strings.Contains(dom, "Choosing a retry policy") || !regexp.MustCompile(`\d+ match(es)? in`).MatchString(dom) {
		t.Errorf("no hit title or summary in the rendered page:\n%s", clipDOM(dom))
	}
	// The text the page was given stays text.
	if strings.Contains(dom, "<script>alert(1)") {
		t.Errorf("a conversation's markup reached the page as markup:\n%s", clipDOM(dom))
	}

	// Without the login cookie the page says how to get one, and shows nothing.
	dom = chromium(t, bin, d.url+"/?q=jitter", "--dump-dom")
	if !strings.Contains(dom, `<div id="token-bar" class="token-bar">`) || strings.Contains(dom, "Choosing a retry policy") {
		t.Errorf("the page without a login shows no login bar, or shows hits:\n%s", clipDOM(dom))
	}

	// The conversation view opens at the message and marks it.
	dom = chromium(t, bin, d.url+"/?token="+d.token+"&q=jitter#c=conv-hl&m=2", "--dump-dom")
	if !regexp.MustCompile(`<li class="msg user focus" id="m-2">`).MatchString(dom) {
		t.Errorf("the conversation view does not focus message 2:\n%s", clipDOM(dom))
	}
	if !strings.Contains(dom, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("the message's text is not shown as text:\n%s", clipDOM(dom))
	}
	if dir := os.Getenv("CONVSEARCH_SCREENSHOTS"); dir != "" {
		// For a person to look at: CONVSEARCH_SCREENSHOTS=/tmp go test -run Browser
		shot, _ := filepath.Abs(filepath.Join(dir, "convsearch-page.png"))
		chromium(t, bin, d.url+"/?token="+d.token+"&q=jitter#c=conv-hl&m=1", "--screenshot="+shot)
		t.Logf("screenshot: %s", shot)
	}
}

func clipDOM(dom string) string {
	if i := strings.Index(dom, "<main"); i >= 0 {
		dom = dom[i:]
	}
	if len(dom) > 4000 {
		dom = dom[:4000] + "…"
	}
	return dom
}
