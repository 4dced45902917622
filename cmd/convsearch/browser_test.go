package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
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

	// Without the token the page says how to get one, and shows nothing.
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

// tab drives one headless Chromium tab through the DevTools protocol.
type tab struct {
	t   *testing.T
	ctx context.Context
	url string
	// shots is the folder screenshots are written to.
	shots string
}

// newBrowser starts Chromium for the test; it is closed at the test's end.
func newBrowser(t *testing.T, bin, url string) *tab {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.UserDataDir(filepath.Join(t.TempDir(), "profile")),
		chromedp.WindowSize(1200, 760), chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("lang", "en-US"))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelCtx(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("start chromium: %v", err)
	}
	shots := os.Getenv("CONVSEARCH_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	return &tab{t: t, ctx: ctx, url: url, shots: shots}
}

// step bounds one action: a page that never gets there fails the test
// rather than hanging it.
func (b *tab) step() (context.Context, context.CancelFunc) {
	return context.WithTimeout(b.ctx, 30*time.Second)
}

func (b *tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := b.step()
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

func (b *tab) open(path string) {
	b.t.Helper()
	b.do("open "+path, chromedp.Navigate(b.url+path))
}

// wait polls a JavaScript condition until it holds.
func (b *tab) wait(what, cond string) {
	b.t.Helper()
	ctx, cancel := b.step()
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		b.t.Fatalf("waiting for %s (%s): %v\n%s", what, cond, err, b.text("main"))
	}
}

// js evaluates an expression in the page.
func js[T any](b *tab, expr string) T {
	b.t.Helper()
	ctx, cancel := b.step()
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// text is the visible text of the first element sel matches, clipped,
// for error messages.
func (b *tab) text(sel string) string {
	ctx, cancel := b.step()
	defer cancel()
	s, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(`+strconv.Quote(sel)+`)||{}).innerText||""`))
	if len(s) > 3000 {
		s = s[:3000] + "…"
	}
	return s
}

// screenshot writes the window as <name>-light.png and <name>-dark.png.
func (b *tab) screenshot(name string) {
	b.t.Helper()
	for _, scheme := range []string{"light", "dark"} {
		ctx, cancel := b.step()
		_, err := chromedp.Run(ctx, chromedp.Action[cdp.Empty](func(ctx context.Context, t *chromedp.Target) (cdp.Empty, error) {
			return cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
			})
		}))
		var png []byte
		if err == nil {
			// Two frames: the new colours are painted.
			_, err = chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`, chromedp.EvalAwaitPromise))
		}
		if err == nil {
			png, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
		}
		cancel()
		if err != nil {
			b.t.Fatalf("screenshot %s %s: %v", name, scheme, err)
		}
		if err := os.WriteFile(filepath.Join(b.shots, name+"-"+scheme+".png"), png, 0o644); err != nil {
			b.t.Fatal(err)
		}
	}
	dark := js[bool](b, `matchMedia("(prefers-color-scheme: dark)").matches`)
	if !dark {
		b.t.Errorf("%s: the dark scheme was not in force for the screenshot", name)
	}
}

// hostileMarkdown is a message of Markdown that tries every way into the
// page: the page must render it and run none of it.
const hostileMarkdown = "Here is **bold text** and a list:\n\n- first item\n- second item\n\n" +
	"```go\nfunc quokka() int { return 42 }\n```\n\n" +
	"<script>document.title='pwned-script'</script>\n\n" +
	"<img src=x onerror=\"document.title='pwned-img'\">\n\n" +
	"[a trap](javascript:document.title='pwned-link') and ![a remote picture](https://example.invalid/pic.png)"

// TestBrowserPageFeatures drives the search page in headless Chromium over
// the bundled examples and a few conversations of its own: markdown and
// highlighting, a hit in a tool output, filters and sort, the decisions,
// topics and overview pages, find, copy, export, paging, and untrusted
// markup kept inert. It writes a screenshot of each view, light and dark,
// to $CONVSEARCH_SCREENSHOTS (docs/screenshots in the README).
func TestBrowserPageFeatures(t *testing.T) {
	bin := findChromium(t)
	home := t.TempDir()
	root := filepath.Join(home, "convs")
	if err := os.CopyFS(filepath.Join(root, "examples"), os.DirFS(filepath.Join("..", "..", "examples"))); err != nil {
		t.Fatalf("copy the examples: %v", err)
	}
	writeConv(t, filepath.Join(root, "extra", "md.json"), conversationJSON("conv-md", "Markdown and injections",
		"How do I write the quokka function?", hostileMarkdown))
	long := []string{}
	for i := range 240 {
		s := fmt.Sprintf("filler message %d about wombats", i)
		if i == 40 || i == 200 {
			s += " with the needle in it"
		}
		long = append(long, s)
	}
	writeConv(t, filepath.Join(root, "extra", "long.json"), conversationJSON("conv-long", "A very long conversation", long...))
	// A file that fails, for the overview to say which and why.
	writeConv(t, filepath.Join(root, "extra", "chatgpt", "conversations.json"), `[{"title": "cut short", "mapping": {`)
	d := startServe(t, home, root)
	d.searchable("needle", true)
	d.searchable("quokka", true)

	b := newBrowser(t, bin, d.url)
	b.open("/?token=" + d.token)
	b.wait("the first page", `document.querySelectorAll("#hits li").length > 0`)

	t.Run("search cards and facets", func(t *testing.T) {
		b.t = t
		b.open("/?q=cache&group=1")
		b.wait("grouped hits", `document.querySelectorAll("#hits li").length > 0`)
		b.wait("previews", `[...document.querySelectorAll("#hits .preview")].some(p => p.textContent.length > 0)`)
		cards := js[int](b, `document.querySelectorAll("#hits li").length`)
		summary := js[string](b, `$("summary").textContent`)
		if !strings.HasPrefix(summary, strconv.Itoa(cards)+" conversation") {
			t.Errorf("grouped summary %q does not count the %d cards shown", summary, cards)
		}
		b.wait("facets", `document.querySelectorAll("#facets button[data-facet=source]").length > 1`)
		b.screenshot("search")
	})

	t.Run("more results to the last page, a full one", func(t *testing.T) {
		b.t = t
		// The long conversation's 240 messages about wombats: 12 full
		// pages, the last with none after it (the answer's next_offset).
		b.open("/?q=wombats&type=message")
		b.wait("the first page", `document.querySelectorAll("#hits li").length === 20 && !$("more").hidden`)
		for n := 40; n <= 240; n += 20 {
			b.do("more results", chromedp.Click(chromedp.ID("more")))
			b.wait(fmt.Sprintf("%d results", n), `document.querySelectorAll("#hits li").length === `+strconv.Itoa(n))
		}
		b.wait("no more after the last page", `$("more").hidden`)
		if summary := js[string](b, `$("summary").textContent`); strings.Contains(summary, "+") {
			t.Errorf("the last page's summary says more follow: %q", summary)
		}
	})

	t.Run("filters and sort change results", func(t *testing.T) {
		b.t = t
		b.open("/")
		b.wait("newest conversations", `document.querySelectorAll("#hits li").length > 1`)
		b.wait("source facet", `document.querySelectorAll("#facets button[data-facet=source]").length > 2`)
		sources := js[int](b, `document.querySelectorAll("#facets button[data-facet=source]").length`)
		first := js[string](b, `document.querySelector("#facets button[data-facet=source]").dataset.value`)
		b.do("choose a source", chromedp.Click(chromedp.CSS(`#facets button[data-facet=source]`)))
		b.wait("hits of that source only", `location.search.includes("source=") && [...document.querySelectorAll("#hits .meta")].every(m => m.textContent.startsWith(`+strconv.Quote(first)+`))`)
		b.wait("facet redrawn", `document.querySelector("#facets button[data-facet=source].on") !== null`)
		// Multi-select: the other sources stay listed, with counts.
		if n := js[int](b, `document.querySelectorAll("#facets button[data-facet=source]").length`); n != sources {
			t.Errorf("choosing a source left %d of the %d sources listed", n, sources)
		}
		b.do("clear filters", chromedp.Click(chromedp.ID("clear")))
		b.wait("every source again", `!location.search.includes("source=")`)
		// Sort: oldest first puts the oldest date first.
		b.do("sort oldest", chromedp.SetValue(chromedp.ID("sort"), "oldest"),
			chromedp.Evaluate[chromedp.Void](`$("sort").dispatchEvent(new Event("change"))`))
		b.wait("oldest first", `location.search.includes("sort=oldest") && $("summary").textContent.startsWith("Oldest")`)
		oldest := js[string](b, `document.querySelector("#hits .meta").textContent`)
		b.do("sort newest", chromedp.SetValue(chromedp.ID("sort"), "newest"),
			chromedp.Evaluate[chromedp.Void](`$("sort").dispatchEvent(new Event("change"))`))
		b.wait("newest first", `location.search.includes("sort=newest") && $("summary").textContent.startsWith("Newest")`)
		newest := js[string](b, `document.querySelector("#hits .meta").textContent`)
		if oldest == newest {
			t.Errorf("sorting oldest and newest first shows the same first hit: %q", oldest)
		}
		// A date range narrows the results.
		all := js[string](b, `$("summary").textContent`)
		b.do("since", chromedp.SetValue(chromedp.ID("since"), "2025-06-01"),
			chromedp.Evaluate[chromedp.Void](`$("since").dispatchEvent(new Event("change"))`))
		b.wait("a date range", `location.search.includes("since=2025-06-01") && $("summary").textContent !== `+strconv.Quote(all))
		if got := js[bool](b, `[...document.querySelectorAll("#hits .meta")].every(m => !/\b2024\b/.test(m.textContent))`); !got {
			t.Errorf("hits dated before the range remain: %s", b.text("#hits"))
		}
	})

	t.Run("markdown rendered and inert", func(t *testing.T) {
		b.t = t
		b.open("/?q=quokka#c=conv-md&m=1")
		b.wait("the message", `document.querySelector("#m-1 .md") !== null`)
		checks := map[string]string{
			"bold":                 `document.querySelector("#m-1 .md strong")?.textContent === "bold text"`,
			"list":                 `document.querySelectorAll("#m-1 .md ul li").length === 2`,
			"highlighted code":     `document.querySelector("#m-1 pre.chroma .kd") !== null`,
			"query word marked":    `document.querySelector("#m-1 pre mark.qhl")?.textContent === "quokka"`,
			"no script element":    `document.querySelectorAll("#messages script").length === 0`,
			"script shown as text": `$("messages").textContent.includes("<script>")`,
			"no image element":     `document.querySelectorAll("#messages img").length === 0`,
			"image as link":        `document.querySelector("#m-1 a.img-link")?.getAttribute("href") === "https://example.invalid/pic.png"`,
			"no javascript link":   `[...document.querySelectorAll("#messages a")].every(a => !/^\s*javascript:/i.test(a.getAttribute("href") || ""))`,
			"nothing ran":          `!document.title.startsWith("pwned")`,
		}
		for name, cond := range checks {
			if !js[bool](b, cond) {
				t.Errorf("%s: %s is false\n%s", name, cond, b.text("#m-1"))
			}
		}
		b.screenshot("conversation")
	})

	t.Run("a hit in a tool output opens it", func(t *testing.T) {
		b.t = t
		b.open("/?q=BenchmarkShardedGetParallel")
		b.wait("hits", `document.querySelectorAll("#hits li a").length > 0`)
		b.do("open the tool hit", chromedp.Click(chromedp.JSPath(`[...document.querySelectorAll("#hits a")].find(a => a.querySelector(".kind.tool"))`)))
		b.wait("the tool output opened, the match marked", `document.querySelector(".msg.focus details.tool[open] pre mark.qhl") !== null`)
		if got := js[string](b, `document.querySelector(".msg.focus details.tool .fold-preview")?.textContent || ""`); got == "" {
			t.Errorf("the tool fold has no preview")
		}
		if !js[bool](b, `[...document.querySelectorAll("details.tool.call .fold-preview")].some(p => p.textContent.includes("/"))`) {
			t.Errorf("no tool call previews its path or command")
		}
	})

	t.Run("long conversation paged, find, copy, export", func(t *testing.T) {
		b.t = t
		b.open("/#c=conv-long&m=200")
		b.wait("message 200", `document.querySelector("#m-200.focus") !== null`)
		loaded := js[int](b, `document.querySelectorAll("#messages .msg").length`)
		if loaded >= 240 || js[bool](b, `$("earlier").hidden`) {
			t.Errorf("a 240-message conversation loaded %d messages at once, earlier button hidden=%v", loaded, js[bool](b, `$("earlier").hidden`))
		}
		b.do("find", chromedp.Click(chromedp.ID("find")), chromedp.SendKeys(chromedp.ID("find"), "needle"))
		b.wait("a match", `$("find-count").textContent.startsWith("1 of ")`)
		before := js[string](b, `$("find-count").textContent`)
		// Pages of earlier messages, up to the start: find covers them too.
		for i := 0; js[bool](b, `!$("earlier").hidden`); i++ {
			if i > 5 {
				t.Fatalf("the earlier-messages button never goes away")
			}
			n := js[int](b, `document.querySelectorAll("#messages .msg").length`)
			b.do("earlier messages", chromedp.Click(chromedp.ID("earlier")))
			b.wait("more messages", `document.querySelectorAll("#messages .msg").length > `+strconv.Itoa(n))
		}
		if n := js[int](b, `document.querySelectorAll("#messages .msg").length`); n != 240 {
			t.Errorf("%d of 240 messages after loading every earlier page", n)
		}
		b.wait("the match in the earlier page found too", `$("find-count").textContent !== `+strconv.Quote(before)+` && document.querySelectorAll("mark.find").length === 2`)
		b.do("next match", chromedp.Click(chromedp.ID("find-next")))
		b.wait("the second match current", `$("find-count").textContent.startsWith("2 of 2")`)

		b.do("copy", chromedp.Click(chromedp.CSS(`#m-200 .copy`)))
		b.wait("copied", `document.querySelector("#m-200 .copy").textContent === "Copied"`)

		dl := t.TempDir()
		ctx, cancel := b.step()
		_, err := cdp.Call(ctx, chromedp.FromContext(b.ctx).Browser, browser.SetDownloadBehavior,
			browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dl})
		cancel()
		if err != nil {
			t.Fatalf("allow downloads: %v", err)
		}
		b.do("export", chromedp.Click(chromedp.ID("export")))
		var md []byte
		var name string
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) && md == nil {
			if m, _ := filepath.Glob(filepath.Join(dl, "*.md")); len(m) == 1 {
				md, _ = os.ReadFile(m[0])
				name = filepath.Base(m[0])
			}
			time.Sleep(100 * time.Millisecond)
		}
		if name != "A-very-long-conversation.md" {
			t.Errorf("the export is named %q, want A-very-long-conversation.md", name)
		}
		for _, want := range []string{"# A very long conversation\n", "## user #0", "## assistant #239", "with the needle in it"} {
			if !bytes.Contains(md, []byte(want)) {
				t.Errorf("the export lacks %q (%d bytes)", want, len(md))
			}
		}
	})

	t.Run("export file names keep every script", func(t *testing.T) {
		b.t = t
		for _, tc := range []struct{ title, id, want string }{
			{"A very long conversation", "conv-long", "A-very-long-conversation.md"},
			{"日本語の会話について", "c1", "日本語の会話について.md"},
			{"Über café", "c1", "Über-café.md"},
			{"Über cafe\u0301", "c1", "Über-café.md"}, // decomposed: one name all the same
			{"हिन्दी में बातचीत", "c1", "हिन्दी-में-बातचीत.md"},
			{"Привет, мир! 2024", "c1", "Привет-мир-2024.md"},
			{"  --Hello,   world!!  ", "c1", "Hello-world.md"},
			{"../../etc/passwd", "c1", "etc-passwd.md"},
			{"a_b.c-d", "c1", "a_b.c-d.md"},
			{"!!! ???", "conv-42", "conv-42.md"},
			{"", "conv-42", "conv-42.md"},
			{"🙂🙂", "🙂", "conversation.md"},
		} {
			got := js[string](b, "exportName("+strconv.Quote(tc.title)+", "+strconv.Quote(tc.id)+")")
			if got != tc.want {
				t.Errorf("exportName(%q, %q) = %q, want %q", tc.title, tc.id, got, tc.want)
			}
		}
		// Capped, in characters, below the 255 bytes a file name may have,
		// whatever the script, and never ending in a dash.
		for _, title := range []string{strings.Repeat("a", 300), strings.Repeat("語", 300), strings.Repeat("𝐀", 300), strings.Repeat("ab ", 100)} {
			got := js[string](b, "exportName("+strconv.Quote(title)+", \"c1\")")
			if len(got) > 255 || len([]rune(got)) > 70 || !strings.HasSuffix(got, ".md") || strings.HasSuffix(got, "-.md") || len(got) < 20 {
				t.Errorf("exportName of a %d-character title: %q (%d bytes)", len([]rune(title)), got, len(got))
			}
		}
	})

	t.Run("a link to a message the conversation lost opens its end", func(t *testing.T) {
		b.t = t
		b.open("/#c=conv-long&m=999")
		b.wait("the last message", `document.querySelector("#m-239") !== null`)
		if !js[bool](b, `$("later").hidden`) || js[string](b, `$("conv-title").textContent`) != "A very long conversation" {
			t.Errorf("the conversation is not open at its end: title %q", js[string](b, `$("conv-title").textContent`))
		}
	})

	t.Run("a link by a hit's id opens at the hit", func(t *testing.T) {
		b.t = t
		b.open("/#c=m%2Fconv-long%2F200")
		b.wait("message 200, focused", `document.querySelector("#m-200.focus") !== null`)
		if js[bool](b, `document.querySelector("#m-0") !== null`) {
			t.Errorf("a hit's id opened the conversation at its start")
		}
	})

	t.Run("decisions, topics, overview", func(t *testing.T) {
		b.t = t
		b.open("/?view=decisions")
		b.wait("decisions", `document.querySelectorAll("#decisions .decision-item a").length > 0`)
		if !js[bool](b, `[...document.querySelectorAll("#decisions .decision-item a")].every(a => a.getAttribute("href").startsWith("#c="))`) {
			t.Errorf("a decision without a link to its conversation")
		}
		n := js[int](b, `document.querySelectorAll("#decisions .decision-item").length`)
		b.screenshot("decisions")
		b.do("filter decisions", chromedp.SendKeys(chromedp.ID("decision-filter"), "bootstrap"))
		b.wait("fewer decisions", `document.querySelectorAll("#decisions .decision-item").length < `+strconv.Itoa(n))

		b.open("/?view=topics")
		b.wait("topics", `document.querySelectorAll("#topics a.topic").length > 0`)
		b.screenshot("topics")
		b.do("a topic", chromedp.Click(chromedp.CSS("#topics a.topic")))
		b.wait("its search", `location.search.includes("topic") && document.querySelectorAll("#hits li").length > 0`)

		b.open("/?view=overview")
		b.wait("charts", `document.querySelectorAll(".chart svg rect").length > 0`)
		if !js[bool](b, `$("last-pass").textContent.includes("files read")`) {
			t.Errorf("no last pass on the overview: %s", b.text("#last-pass"))
		}
		if got := b.text("#failed"); !strings.Contains(got, filepath.Join("extra", "chatgpt", "conversations.json")) || !strings.Contains(got, "syntax error") {
			t.Errorf("the overview does not list the file that failed, and why:\n%s", got)
		}
		b.screenshot("overview")
	})

	t.Run("narrow window", func(t *testing.T) {
		b.t = t
		b.do("narrow", chromedp.EmulateViewport(420, 760))
		b.open("/?q=cache#c=conv-md&m=1")
		b.wait("the conversation over the results", `document.querySelector("#m-1 .md") !== null`)
		if w := js[int](b, `document.documentElement.scrollWidth`); w > 440 {
			t.Errorf("the page is %d px wide in a 420 px window", w)
		}
		b.screenshot("narrow")
	})
}
