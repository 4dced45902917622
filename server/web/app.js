// convsearch's search page. Every string from the index is put in the page
// as text (textContent); fragments keep only their <mark> tags, built as
// elements, never parsed as HTML. The one exception is a message's
// rendered Markdown (html, thinking_html), which the server sanitises to a
// fixed list of tags and attributes (server/view.go) and which the page's
// Content-Security-Policy keeps inert besides: no inline script or style,
// no remote image.
"use strict";

const $ = (id) => document.getElementById(id);
const FACETS = [["type", "Type"], ["source", "Source"], ["project", "Project"], ["role", "Role"]];
const PAGE = 20;
const MSG_PAGE = 100; // messages of a conversation loaded at once
const EXPORT_PAGE = 1000; // messages asked at once for an export (the API's most)
const VIEWS = ["search", "decisions", "topics", "overview"];

const state = {
  view: "search",
  q: "",
  filters: { type: [], source: [], project: [], role: [] },
  sort: "",
  since: "",
  until: "",
  group: false,
  hits: [],
  next: null,      // how to ask for the next page: {offset}
  seq: 0,          // the latest search; older answers are dropped
  abort: null,
  open: null,      // {id, m}
  clicked: null,   // the position of the hit last opened
  lastChange: null, // when the index last changed, as the daemon said
  counts: "",
  conv: null,      // the open conversation: {id, total, from, to, meta}
  find: { marks: [], at: -1 },
};

// ---- talking to the daemon ----

// The daemon's token comes in the login link `convsearch serve` prints
// (/?token=…, or the token pasted in the bar, which submits the same). It is
// kept in this origin's localStorage, which no page of another port can
// read, and taken out of the address at once; every request sends it as a
// bearer token. Never a cookie: browsers send cookies to every port of the
// host, another account's server on this machine among them.
const TOKEN_KEY = "convsearch-token";
(function takeLoginToken() {
  const u = new URL(location.href);
  const t = u.searchParams.get("token");
  if (t === null) return;
  if (t) localStorage.setItem(TOKEN_KEY, t);
  u.searchParams.delete("token");
  history.replaceState(history.state, "", u.pathname + u.search + u.hash);
})();

async function api(path, signal, body) {
  const opts = { headers: { Accept: "application/json" }, signal, credentials: "omit" };
  const token = localStorage.getItem(TOKEN_KEY);
  if (token) opts.headers.Authorization = "Bearer " + token;
  if (body !== undefined) {
    opts.method = "POST";
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const resp = await fetch(path, opts);
  let out = null;
  try { out = await resp.json(); } catch { /* not JSON */ }
  if (resp.status === 401) {
    $("token-bar").hidden = false;
    $("token").focus();
  }
  if (!resp.ok) {
    const err = new Error((out && out.error) || resp.status + " " + resp.statusText);
    err.status = resp.status;
    throw err;
  }
  return out;
}

// ---- building the page with text only ----

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

// decodeEntities undoes the HTML escaping of a fragment's text.
function decodeEntities(s) {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (m, e) => {
    const k = e.toLowerCase();
    if (k === "amp") return "&";
    if (k === "lt") return "<";
    if (k === "gt") return ">";
    if (k === "quot") return '"';
    if (k === "apos") return "'";
    const code = k[1] === "x" ? parseInt(k.slice(2), 16) : parseInt(k.slice(1), 10);
    try { return String.fromCodePoint(code); } catch { return m; }
  });
}

// fragment renders an escaped fragment with <mark>…</mark> as text and
// mark elements: nothing else of it can become markup.
function fragment(frag, cls) {
  const box = el("div", cls);
  let target = box;
  for (const part of frag.split(/(<mark>|<\/mark>)/)) {
    if (part === "<mark>") {
      target = el("mark");
      box.appendChild(target);
    } else if (part === "</mark>") {
      target = box;
    } else if (part) {
      target.appendChild(document.createTextNode(decodeEntities(part)));
    }
  }
  return box;
}

// plainText returns a fragment's text without its marks.
function plainText(frag) {
  return decodeEntities(frag.replace(/<\/?mark>/g, ""));
}

// markedField renders a short field whole: as the fragment that covers it,
// when one does, else as plain text.
function markedField(text, frags, cls) {
  const t = (text || "").trim();
  for (const f of frags || []) {
    if (plainText(f).replace(/^…|…$/g, "").trim() === t) return fragment(f, cls);
  }
  return el("div", cls, t);
}

// queryTerms returns the plain words of the query, to mark them in the
// conversation view.
function queryTerms(q) {
  const out = [];
  for (let w of q.match(/"[^"]*"|\S+/g) || []) {
    if (w.startsWith("-") || w === "OR" || w === "AND" || w === "NOT") continue;
    w = w.replace(/^[a-z_]+:/i, "").replace(/["()*~]/g, " ");
    for (const t of w.split(/\s+/)) if (t.length >= 2) out.push(t.toLowerCase());
  }
  return [...new Set(out)];
}

function termsRegExp(terms) {
  if (!terms.length) return null;
  const esc = terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp("(" + esc.join("|") + ")", "gi");
}

// markText wraps the matches of re in the text under root in mark
// elements of class cls, and returns them. Text in code stays marked too:
// a hit is often a path or a command.
function markText(root, re, cls) {
  const out = [];
  if (!re) return out;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement && n.parentElement.closest("mark, summary, .msg-head")) continue;
    nodes.push(n);
  }
  for (const n of nodes) {
    const text = n.nodeValue;
    if (text.length > 200000) continue;
    re.lastIndex = 0;
    if (!re.test(text)) continue;
    re.lastIndex = 0;
    const frag = document.createDocumentFragment();
    let last = 0;
    text.replace(re, (m, ...rest) => {
      const at = rest[rest.length - 2];
      if (at > last) frag.appendChild(document.createTextNode(text.slice(last, at)));
      const mk = el("mark", cls, m);
      out.push(mk);
      frag.appendChild(mk);
      last = at + m.length;
      return m;
    });
    if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
    n.parentNode.replaceChild(frag, n);
  }
  return out;
}

// unmark undoes markText for the marks given.
function unmark(marks) {
  for (const mk of marks) {
    const p = mk.parentNode;
    if (!p) continue;
    p.replaceChild(document.createTextNode(mk.textContent), mk);
    p.normalize();
  }
}

// openAround opens the folded parts (tool calls, thinking) holding node.
function openAround(node) {
  for (let d = node.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
}

function shortDate(s) {
  if (!s) return "";
  const d = new Date(s);
  if (isNaN(d)) return "";
  return d.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

function longDate(s) {
  if (!s) return "";
  const d = new Date(s);
  if (isNaN(d) || d.getFullYear() < 1971) return "";
  return d.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

function clip(s, n) {
  s = (s || "").replace(/\s+/g, " ").trim();
  return s.length > n ? s.slice(0, n - 1) + "…" : s;
}

// ---- the address bar holds the state, so a search can be linked ----

function readURL() {
  const p = new URLSearchParams(location.search);
  state.view = VIEWS.includes(p.get("view")) ? p.get("view") : "search";
  state.q = p.get("q") || "";
  for (const [name] of FACETS) state.filters[name] = p.getAll(name).filter(Boolean);
  state.sort = p.get("sort") || "";
  state.since = p.get("since") || "";
  state.until = p.get("until") || "";
  state.group = p.get("group") === "1";
  const h = new URLSearchParams(location.hash.slice(1));
  state.open = h.get("c") ? { id: h.get("c"), m: h.has("m") ? Number(h.get("m")) : null } : null;
}

function writeURL() {
  const p = new URLSearchParams();
  if (state.view !== "search") p.set("view", state.view);
  if (state.q) p.set("q", state.q);
  for (const [name] of FACETS) for (const v of state.filters[name]) p.append(name, v);
  if (state.sort) p.set("sort", state.sort);
  if (state.since) p.set("since", state.since);
  if (state.until) p.set("until", state.until);
  if (state.group) p.set("group", "1");
  const search = p.toString() ? "?" + p : "";
  if (search !== location.search) history.replaceState(null, "", location.pathname + search + location.hash);
}

function convHash(id, m) {
  const h = new URLSearchParams();
  h.set("c", id);
  if (m !== null && m !== undefined) h.set("m", String(m));
  return "#" + h;
}

// ---- search ----

// filterParams are the search's restrictions, less the facet skip (whose
// own values must not narrow its counts).
function filterParams(p, skip) {
  for (const [name] of FACETS) if (name !== skip) for (const v of state.filters[name]) p.append(name, v);
  if (state.since) p.set("since", state.since);
  // A date picked as "to" includes that whole day.
  if (state.until) p.set("until", state.until + "T23:59:59");
  return p;
}

function searchParams(more) {
  const p = new URLSearchParams();
  const q = state.q.trim();
  if (q) {
    p.set("q", q);
    if (state.sort) p.set("sort", state.sort);
  } else {
    p.set("sort", state.sort && state.sort !== "relevance" ? state.sort : "newest");
    if (!state.filters.type.length) p.set("type", "conversation");
  }
  filterParams(p);
  if (state.group) p.set("group", "1");
  p.set("limit", String(PAGE));
  if (more && state.next) p.set("offset", String(state.next.offset));
  return p;
}

// facetParams asks for the facets of the same search alone (counting every
// hit costs several times the search, so the hits are not kept waiting),
// without skip's own filter: the other values of a facet stay listed with
// the counts they would add.
function facetParams(skip) {
  const p = new URLSearchParams();
  const q = state.q.trim();
  if (q) p.set("q", q);
  else if (!state.filters.type.length || skip === "type") p.set("type", "conversation");
  filterParams(p, skip);
  if (!q && skip === "type") {
    // Every type, not none: a search with neither words nor a filter is refused.
    p.delete("type");
    for (const t of ["conversation", "message", "topic", "decision"]) p.append("type", t);
  }
  p.set("limit", "1");
  p.set("no_highlight", "1");
  p.set("facets", "1");
  return p;
}

async function search(more = false, quiet = false) {
  const seq = ++state.seq;
  if (state.abort) state.abort.abort();
  const ctl = new AbortController();
  state.abort = ctl;
  writeURL();
  let res;
  try {
    res = await api("api/search?" + searchParams(more), ctl.signal);
  } catch (e) {
    if (e.name === "AbortError" || seq !== state.seq) return;
    if (!quiet) showError(e);
    return;
  }
  if (seq !== state.seq) return;
  const hits = res.hits || [];
  state.hits = more ? state.hits.concat(hits) : hits;
  const shown = state.hits.length;
  state.next = null;
  // Offsets, not search-after: relevance order has no sort value to resume
  // from. The answer says where the next page starts, if one does: a full
  // page may be the last, and none follows past the offset cap.
  if (res.next_offset) state.next = { offset: res.next_offset };
  renderSummary(res);
  renderHits(state.hits, more ? shown - hits.length : 0);
  $("more").hidden = !state.next;
  addPreviews(hits, ctl.signal);
  if (more) return; // the same search: the same facets
  try {
    const all = await api("api/search?" + facetParams(), ctl.signal);
    const facets = all.facets || {};
    for (const [name] of FACETS) {
      if (!state.filters[name].length) continue;
      const f = await api("api/search?" + facetParams(name), ctl.signal);
      facets[name] = (f.facets || {})[name] || [];
    }
    if (seq === state.seq) renderFacets(facets);
  } catch (e) {
    /* the hits are shown; a search typed since aborted this */
  }
}

function showError(e) {
  const s = $("summary");
  s.textContent = "";
  s.appendChild(el("span", "error", e.message));
}

function renderSummary(res) {
  const s = $("summary");
  s.textContent = "";
  const n = state.hits.length;
  const more = state.next ? "+" : "";
  if (state.group) {
    // Cards are conversations: count those, not the hits behind them.
    s.textContent = n.toLocaleString() + more + (n === 1 ? " conversation" : " conversations") +
      (state.q.trim() ? " matching “" + state.q.trim() + "”" : "");
    return;
  }
  if (!state.q.trim()) {
    s.textContent = (state.sort === "oldest" ? "Oldest first · " : "Newest first · ") + res.total.toLocaleString() + (res.total === 1 ? " item" : " items");
    return;
  }
  if (!res.hits.length) {
    s.textContent = "No match for “" + state.q.trim() + "”.";
    return;
  }
  let text = res.total.toLocaleString() + (res.total === 1 ? " match" : " matches") + " in " + res.took_ms.toFixed(1) + " ms";
  if (res.relaxed) text += " — nothing matched every word; these match the most of them";
  s.textContent = text;
}

function kindLabel(h) {
  if (h.kind === "message") {
    let l = (h.role || "message") + (h.message_index !== undefined ? " #" + h.message_index : "");
    if (h.hidden) l += " · hidden";
    return l;
  }
  return h.kind;
}

function renderHits(hits, from) {
  const list = $("hits");
  if (from === 0) list.textContent = "";
  for (let i = from; i < hits.length; i++) {
    const h = hits[i];
    const li = el("li", "hit");
    const a = el("a");
    a.href = convHash(h.conversation_id, h.message_index !== undefined ? h.message_index : null);
    a.dataset.i = String(i);
    a.dataset.conv = h.conversation_id;
    const head = el("div", "hit-head");
    head.appendChild(el("span", "kind " + (h.kind === "message" ? h.role || "" : ""), kindLabel(h)));
    head.appendChild(el("span", "title", h.title || "(untitled)"));
    a.appendChild(head);
    a.appendChild(el("div", "preview"));
    if (h.kind === "decision" || h.kind === "topic") {
      // Short fields: show them whole, marked where a fragment covers them.
      a.appendChild(markedField(h.text, h.fragments, "frag"));
      if (h.rationale) {
        const r = markedField(h.rationale, h.fragments, "rationale");
        r.insertBefore(document.createTextNode("because "), r.firstChild);
        a.appendChild(r);
      }
    } else if (h.kind !== "conversation" || state.q.trim()) {
      // A conversation's own fields are its title and topic words: its
      // first question (the preview) says more.
      const frags = (h.fragments || []).slice(0, 2);
      if (frags.length) {
        for (const f of frags) a.appendChild(fragment(f, "frag"));
      } else if (h.text && h.kind !== "conversation") {
        a.appendChild(el("div", "frag", clip(h.text, 300)));
      }
    }
    const meta = [h.source, shortDate(h.date), h.project].filter(Boolean);
    if (h.count > 1) meta.push(h.count + " hits in this conversation");
    a.appendChild(el("div", "meta", meta.join(" · ")));
    li.appendChild(a);
    list.appendChild(li);
  }
  markCurrent();
}

// addPreviews puts each card's first user message under its title: one
// request for the page, asking the stored messages at the start of each
// conversation.
async function addPreviews(hits, signal) {
  const ids = [...new Set(hits.map((h) => h.conversation_id))];
  if (!ids.length) return;
  let out;
  try {
    out = await api("api/context", signal, {
      hits: ids.map((id) => ({ kind: "message", conversation_id: id, message_index: 0 })),
      context: 4,
    });
  } catch {
    return; // the cards stand without
  }
  const first = new Map();
  for (let i = 0; i < ids.length; i++) {
    const msgs = (out[i] && out[i].context) || [];
    const m = msgs.find((x) => x.role === "user" && !x.hidden && x.content.trim()) || msgs.find((x) => x.role === "user");
    if (m) first.set(ids[i], m.content);
  }
  for (const a of document.querySelectorAll("#hits a")) {
    const box = a.querySelector(".preview");
    const text = first.get(a.dataset.conv);
    if (box && text && !box.textContent) box.textContent = clip(text, 220);
  }
}

function renderFacets(facets) {
  const box = $("facets");
  box.textContent = "";
  for (const [name, label] of FACETS) {
    const chosen = state.filters[name];
    const counts = (facets[name] || []).slice();
    // A chosen value stays listed even when nothing matches it now.
    for (const v of chosen) if (!counts.some((c) => c.value === v)) counts.push({ value: v, count: 0 });
    if (!counts.length) continue;
    const sec = el("section", "facet");
    const hid = "facet-" + name;
    const h3 = el("h3", null, label);
    h3.id = hid;
    sec.appendChild(h3);
    const ul = el("ul");
    ul.setAttribute("aria-labelledby", hid);
    for (const c of counts) {
      const li = el("li");
      const b = el("button");
      b.type = "button";
      const on = chosen.includes(c.value);
      if (on) b.classList.add("on");
      b.dataset.facet = name;
      b.dataset.value = c.value;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.title = (on ? "Remove " : "Add ") + name + " " + (c.value || "(none)") + (on ? " from the filter" : " to the filter");
      b.appendChild(el("span", "check", on ? "☑" : "☐"));
      b.appendChild(el("span", "value", c.value || "(none)"));
      b.appendChild(el("span", "n", c.count.toLocaleString()));
      b.addEventListener("click", () => {
        state.filters[name] = on ? chosen.filter((v) => v !== c.value) : chosen.concat([c.value]);
        search();
      });
      li.appendChild(b);
      ul.appendChild(li);
    }
    sec.appendChild(ul);
    box.appendChild(sec);
  }
}

// ---- views: search, decisions, topics, overview ----

function showView(view) {
  state.view = view;
  for (const a of document.querySelectorAll(".views a")) {
    if (a.dataset.view === view) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  const isSearch = view === "search";
  $("facets").hidden = !isSearch;
  $("results").hidden = !isSearch;
  $("page").hidden = isSearch;
  document.body.dataset.view = view;
  writeURL();
  if (view === "decisions") renderDecisions();
  else if (view === "topics") renderTopics();
  else if (view === "overview") renderOverview();
}

function pageBox(title) {
  const box = $("page");
  box.textContent = "";
  box.appendChild(el("h2", null, title));
  return box;
}

async function renderDecisions() {
  const box = pageBox("Decisions");
  const form = el("form", "page-filter");
  const label = el("label", null, "Filter ");
  const input = el("input");
  input.type = "search";
  input.id = "decision-filter";
  input.value = state.q;
  input.placeholder = "words in the decision or its rationale";
  label.appendChild(input);
  form.appendChild(label);
  box.appendChild(form);
  const list = el("ol", "decisions");
  list.id = "decisions";
  box.appendChild(list);
  const load = async () => {
    const p = filterParams(new URLSearchParams(), "role");
    p.delete("type");
    p.delete("role");
    if (input.value.trim()) p.set("q", input.value.trim());
    p.set("limit", "200");
    let res;
    try {
      res = await api("api/decisions?" + p);
    } catch (e) {
      list.textContent = "";
      list.appendChild(el("li", "error", e.message));
      return;
    }
    list.textContent = "";
    if (!res.hits.length) list.appendChild(el("li", "empty", "No decision found."));
    for (const h of res.hits) {
      const li = el("li", "decision-item");
      const a = el("a");
      a.href = convHash(h.conversation_id, h.message_index !== undefined ? h.message_index : null);
      a.appendChild(markedField(h.text, h.fragments, "decision-text"));
      if (h.rationale) {
        const r = markedField(h.rationale, h.fragments, "rationale");
        r.insertBefore(document.createTextNode("because "), r.firstChild);
        a.appendChild(r);
      }
      a.appendChild(el("div", "meta", [h.title, h.source, shortDate(h.date), h.project].filter(Boolean).join(" · ")));
      li.appendChild(a);
      list.appendChild(li);
    }
  };
  let timer = null;
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(load, 150); });
  form.addEventListener("submit", (e) => { e.preventDefault(); load(); });
  await load();
}

async function renderTopics() {
  const box = pageBox("Topics");
  box.appendChild(el("p", "hint", "By the number of conversations about each; choose one to search it."));
  const list = el("ol", "topics");
  list.id = "topics";
  box.appendChild(list);
  const p = new URLSearchParams();
  for (const v of state.filters.project) p.append("project", v);
  for (const v of state.filters.source) p.append("source", v);
  p.set("limit", "200");
  let topics;
  try {
    topics = await api("api/topics?" + p);
  } catch (e) {
    list.appendChild(el("li", "error", e.message));
    return;
  }
  const most = Math.max(1, ...topics.map((t) => t.conversations));
  for (const t of topics) {
    const li = el("li");
    const a = el("a", "topic");
    const q = 'topic:"' + t.name.replace(/"/g, "") + '"';
    a.href = "?q=" + encodeURIComponent(q) + "&group=1";
    a.addEventListener("click", (e) => {
      if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return; // a new tab: the link
      e.preventDefault();
      state.q = q;
      state.group = true;
      $("q").value = q;
      $("group").checked = true;
      showView("search");
      search();
    });
    a.appendChild(el("span", "value", t.name));
    const bar = el("span", "bar");
    const fill = el("span", "fill");
    // A width in steps of 5%, as a class: the CSP forbids inline styles.
    fill.classList.add("w" + Math.max(1, Math.round((t.conversations / most) * 20)) * 5);
    bar.appendChild(fill);
    a.appendChild(bar);
    a.appendChild(el("span", "n", t.conversations + (t.conversations === 1 ? " conversation" : " conversations")));
    li.appendChild(a);
    list.appendChild(li);
  }
  if (!topics.length) list.appendChild(el("li", "empty", "No topics yet."));
}

// The SVG namespace, as the parser gives it to an <svg> in the page (the
// page names no address of another origin, not even a namespace's).
const SVG = document.querySelector("svg.ns").namespaceURI;

function svgEl(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// chart draws stacked bars: one bar per bucket, one colour per series.
function chart(title, starts, bucket, series, field) {
  const fig = el("figure", "chart");
  fig.appendChild(el("figcaption", null, title));
  const W = 640, H = 200, L = 44, B = 22, T = 8;
  const n = starts.length;
  const totals = starts.map((_, i) => series.reduce((s, x) => s + x[field][i], 0));
  const most = Math.max(1, ...totals);
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "chart-svg" });
  const sum = series.map((s) => s.name + " " + s["total_" + field]).join(", ");
  svg.setAttribute("aria-label", title + ": " + sum);
  const bw = (W - L - 4) / Math.max(n, 1);
  const y = (v) => T + (H - T - B) * (1 - v / most);
  for (const frac of [0, 0.5, 1]) {
    const v = Math.round(most * frac);
    svg.appendChild(svgEl("line", { x1: L, x2: W, y1: y(v), y2: y(v), class: "grid" }));
    svg.appendChild(svgEl("text", { x: L - 4, y: y(v) + 4, class: "axis end" }, v.toLocaleString()));
  }
  for (let i = 0; i < n; i++) {
    let base = 0;
    series.forEach((s, k) => {
      const v = s[field][i];
      if (!v) return;
      const r = svgEl("rect", { x: L + i * bw + 1, width: Math.max(bw - 2, 1), y: y(base + v), height: y(base) - y(base + v), class: "s" + (k % 8) });
      r.appendChild(svgEl("title", {}, `${s.name}, ${bucketLabel(starts[i], bucket)}: ${v.toLocaleString()}`));
      svg.appendChild(r);
      base += v;
    });
  }
  const every = Math.max(1, Math.ceil(n / 8));
  for (let i = 0; i < n; i += every) {
    svg.appendChild(svgEl("text", { x: L + i * bw + bw / 2, y: H - 6, class: "axis mid" }, bucketLabel(starts[i], bucket)));
  }
  fig.appendChild(svg);
  const legend = el("ul", "legend");
  series.forEach((s, k) => {
    const li = el("li");
    li.appendChild(el("span", "swatch s" + (k % 8)));
    li.appendChild(document.createTextNode(s.name + " " + s["total_" + field].toLocaleString()));
    legend.appendChild(li);
  });
  fig.appendChild(legend);
  return fig;
}

function bucketLabel(s, bucket) {
  const d = new Date(s);
  return bucket === "week"
    ? d.toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" })
    : d.toLocaleDateString(undefined, { year: "2-digit", month: "short", timeZone: "UTC" });
}

async function renderOverview() {
  const box = pageBox("Overview");
  let ov, status;
  try {
    [ov, status] = await Promise.all([api("api/overview"), api("api/status")]);
  } catch (e) {
    box.appendChild(el("p", "error", e.message));
    return;
  }
  const d = status.daemon || {};
  const pass = el("section", "pass");
  pass.id = "last-pass";
  pass.appendChild(el("h3", null, "Last indexing pass"));
  const last = d.last;
  const lines = [];
  if (last) {
    const s = last.summary || {};
    lines.push(longDate(last.at) + " (" + last.reason + ", " + ((s.elapsed_ns || 0) / 1e6).toFixed(0) + " ms): " + [
      (s.files_parsed || 0) + " files read", (s.files_unchanged || 0) + " unchanged", (s.files_removed || 0) + " removed",
      (s.files_failed || 0) + " failed", (s.conversations || 0) + " conversations", (s.messages || 0) + " messages"].join(", "));
    if (last.err) lines.push("Error: " + last.err);
  } else if (ov.last_sync) {
    lines.push(longDate(ov.last_sync));
  } else {
    lines.push("No pass recorded yet.");
  }
  lines.push(ov.files.toLocaleString() + " conversation files indexed" + (ov.undated ? ", " + ov.undated + " conversations without a date" : ""));
  for (const l of lines) pass.appendChild(el("p", null, l));
  box.appendChild(pass);
  const grid = el("div", "charts");
  if (ov.starts && ov.starts.length) {
    const per = ov.bucket === "week" ? " per week" : " per month";
    grid.appendChild(chart("Conversations per source" + per, ov.starts, ov.bucket, ov.by_source, "conversations"));
    grid.appendChild(chart("Messages per source" + per, ov.starts, ov.bucket, ov.by_source, "messages"));
    if (ov.by_project && ov.by_project.length) {
      grid.appendChild(chart("Conversations per project" + per, ov.starts, ov.bucket, ov.by_project, "conversations"));
      grid.appendChild(chart("Messages per project" + per, ov.starts, ov.bucket, ov.by_project, "messages"));
    }
  } else {
    grid.appendChild(el("p", "empty", "Nothing dated is indexed yet."));
  }
  box.appendChild(grid);
  const failed = el("section", "failed");
  failed.id = "failed";
  failed.appendChild(el("h3", null, "Files that failed" + (ov.failed ? " (" + ov.failed.length + ")" : "")));
  if (!ov.failed || !ov.failed.length) failed.appendChild(el("p", null, "None."));
  else {
    const ul = el("ul");
    for (const f of ov.failed) {
      const li = el("li");
      li.appendChild(el("code", null, f.path));
      li.appendChild(el("div", "why", (f.parser ? f.parser + ": " : "") + f.error));
      ul.appendChild(li);
    }
    failed.appendChild(ul);
  }
  box.appendChild(failed);
}

// ---- the conversation view ----

async function openConversation(id, m) {
  state.open = { id, m };
  $("conv").hidden = false;
  $("layout").classList.add("open");
  markCurrent();
  const title = $("conv-title");
  const loaded = state.conv && state.conv.id === id;
  const inPage = loaded && (m === null || m === undefined || (m >= state.conv.from && m < state.conv.to));
  if (!inPage) {
    if (!loaded) {
      title.textContent = "Loading…";
      $("conv-meta").textContent = "";
      $("conv-extra").textContent = "";
      $("messages").textContent = "";
    }
    let v;
    try {
      v = await loadMessagePage(id, m);
    } catch (e) {
      title.textContent = "Cannot open this conversation";
      $("conv-meta").textContent = e.message;
      state.conv = null;
      return;
    }
    if (!state.open || state.open.id !== id) return;
    renderConversation(v);
    // A hit's id without a message: the server opened the page at the
    // hit's message, and says which it is.
    if ((m === null || m === undefined) && v.focus !== undefined) m = v.focus;
  }
  focusMessage(m);
}

// loadMessagePage loads the page around message m; without one, the page
// the id opens at (the start, or a hit id's message). A message the file
// has since lost (the API answers 400) opens the conversation at its end,
// where it was likely cut.
async function loadMessagePage(id, m) {
  if (m === null || m === undefined) return loadPage(id, null, true);
  try {
    return await loadPage(id, m, true);
  } catch (e) {
    if (e.status !== 400 || m <= 0) throw e;
  }
  const v = await loadPage(id, 0, false);
  return v.total > v.messages.length ? loadPage(id, v.total - 1, true) : v;
}

// loadPage loads the page of MSG_PAGE messages around message at, or
// from offset at; at null leaves where to the server.
function loadPage(id, at, around) {
  const p = new URLSearchParams();
  p.set("limit", String(MSG_PAGE));
  if (at !== null) p.set(around ? "around" : "offset", String(Math.max(at, 0)));
  return api("api/conversations/" + encodeURIComponent(id) + "/view?" + p);
}

function renderConversation(v) {
  state.conv = { id: v.id, total: v.total, from: v.offset, to: v.offset + v.messages.length, title: v.title };
  resetFind();
  $("conv-title").textContent = v.title || "(untitled)";
  const meta = [v.source, longDate(v.date), v.project ? "project " + v.project : "", v.total + " messages"].filter(Boolean);
  $("conv-meta").textContent = meta.join(" · ");
  const extra = $("conv-extra");
  extra.textContent = "";
  extra.appendChild(el("div", "meta", v.file));
  if (v.from_index) extra.appendChild(el("div", "note", "The file could not be read again: this is the text the index keeps."));
  if (v.topics && v.topics.length) extra.appendChild(el("div", null, "Topics: " + v.topics.map((t) => t.name).join(", ")));
  for (const d of v.decisions || []) {
    const a = el("a", "decision", "Decision: " + d.decision + (d.rationale ? " — because " + d.rationale : ""));
    a.href = convHash(v.id, d.message_index);
    extra.appendChild(a);
  }
  const list = $("messages");
  list.textContent = "";
  appendMessages(v.messages, false);
  updatePagers();
}

function appendMessages(msgs, before) {
  const list = $("messages");
  const re = termsRegExp(queryTerms(state.q));
  const frag = document.createDocumentFragment();
  for (const m of msgs) frag.appendChild(renderMessage(m, re));
  if (before) list.insertBefore(frag, list.firstChild);
  else list.appendChild(frag);
}

function updatePagers() {
  const c = state.conv;
  const e = $("earlier"), l = $("later");
  e.hidden = c.from <= 0;
  e.textContent = "Show " + Math.min(MSG_PAGE, c.from) + " earlier messages (" + c.from + " before)";
  l.hidden = c.to >= c.total;
  l.textContent = "Show " + Math.min(MSG_PAGE, c.total - c.to) + " later messages (" + (c.total - c.to) + " after)";
}

async function loadMore(earlier) {
  const c = state.conv;
  if (!c) return;
  const from = earlier ? Math.max(c.from - MSG_PAGE, 0) : c.to;
  const v = await loadPage(c.id, from, false);
  if (!state.conv || state.conv.id !== c.id) return;
  const msgs = earlier ? v.messages.filter((m) => m.index < c.from) : v.messages;
  const body = $("conv-body");
  const keep = body.scrollHeight - body.scrollTop;
  appendMessages(msgs, earlier);
  if (earlier) {
    c.from = from;
    body.scrollTop = body.scrollHeight - keep; // stay on what was read
  } else {
    c.to = v.offset + v.messages.length;
  }
  updatePagers();
  if ($("find").value) runFind();
}

function renderMessage(m, re) {
  const li = el("li", "msg " + (m.role || ""));
  li.id = "m-" + m.index;
  if (m.hidden) li.classList.add("hidden-msg");
  const head = el("div", "msg-head");
  head.appendChild(el("span", "role", m.role));
  if (m.author) head.appendChild(el("span", "author", m.author));
  head.appendChild(el("span", null, "#" + m.index));
  const when = longDate(m.timestamp);
  if (when) head.appendChild(el("span", null, when));
  if (m.model) head.appendChild(el("span", null, m.model));
  const flags = ["hidden", "cancelled", "partial", "deleted", "sidechain"].filter((f) => m[f]);
  if (m.branch && m.branch !== "0") flags.push("branch " + m.branch);
  if (flags.length) head.appendChild(el("span", null, "[" + flags.join(", ") + "]"));
  const copy = el("button", "copy", "Copy");
  copy.type = "button";
  copy.title = "Copy this message's text";
  copy.setAttribute("aria-label", "Copy message " + m.index);
  copy.addEventListener("click", () => copyText(messageMarkdown(m), copy));
  head.appendChild(copy);
  li.appendChild(head);
  if (m.thinking) {
    const d = fold("thinking", clip(m.thinking, 100), "thinking");
    const body = el("div", "md");
    body.innerHTML = m.thinking_html || ""; // sanitised by the server
    d.appendChild(body);
    li.appendChild(d);
  }
  if (m.content) {
    const body = el("div", "content md");
    body.innerHTML = m.html || ""; // sanitised by the server
    li.appendChild(body);
  }
  for (const t of m.tools || []) {
    const name = (t.kind === "call" ? "→ " : "← ") + (t.name || "result") + (t.is_error ? " (error)" : "");
    const d = fold(name, t.preview, "tool " + t.kind + (t.is_error ? " error" : ""));
    d.appendChild(el("pre", null, t.text));
    li.appendChild(d);
  }
  for (const at of m.attachments || []) {
    const size = at.size ? ", " + at.size.toLocaleString() + " bytes" : "";
    li.appendChild(el("div", "attachment", "📎 " + (at.name || "attachment") + " (" + (at.type || "?") + size + ")"));
  }
  // The query's words, marked; a fold holding one opens.
  for (const mk of markText(li, re, "qhl")) openAround(mk);
  return li;
}

function fold(name, preview, cls) {
  const d = el("details", cls);
  const s = el("summary");
  s.appendChild(el("span", "fold-name", name));
  if (preview) s.appendChild(el("span", "fold-preview", preview));
  d.appendChild(s);
  return d;
}

function focusMessage(m) {
  for (const old of document.querySelectorAll(".msg.focus")) old.classList.remove("focus");
  const body = $("conv-body");
  if (m === null || m === undefined) {
    body.scrollTop = 0;
    return;
  }
  const li = $("m-" + m);
  if (!li) return;
  li.classList.add("focus");
  const hl = li.querySelector("mark.qhl");
  (hl || li).scrollIntoView({ block: "center" });
}

function closeConversation() {
  state.open = null;
  $("conv").hidden = true;
  $("layout").classList.remove("open");
  history.replaceState(null, "", location.pathname + location.search);
  markCurrent();
  const cur = document.querySelector(".hit.current a");
  if (cur) cur.focus();
}

// ---- find, copy, export ----

function resetFind() {
  unmark(state.find.marks);
  state.find = { marks: [], at: -1 };
  $("find-count").textContent = "";
}

function runFind() {
  resetFind();
  const t = $("find").value.trim();
  if (!t) return;
  const re = new RegExp("(" + t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + ")", "gi");
  state.find.marks = markText($("messages"), re, "find");
  stepFind(1);
}

function stepFind(step) {
  const f = state.find;
  if (!f.marks.length) {
    $("find-count").textContent = $("find").value.trim() ? "0 of 0" : "";
    return;
  }
  if (f.at >= 0) f.marks[f.at].classList.remove("find-current");
  f.at = (f.at + step + f.marks.length) % f.marks.length;
  const mk = f.marks[f.at];
  mk.classList.add("find-current");
  openAround(mk);
  mk.scrollIntoView({ block: "center" });
  let text = f.at + 1 + " of " + f.marks.length;
  const c = state.conv;
  if (c && (c.from > 0 || c.to < c.total)) text += " in messages " + c.from + "–" + (c.to - 1);
  $("find-count").textContent = text;
}

async function copyText(text, button) {
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    // No clipboard permission (an http page elsewhere than localhost):
    // the old way, through a selection.
    const ta = el("textarea", "offscreen");
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    ta.remove();
  }
  button.textContent = ok ? "Copied" : "Copy failed";
  button.classList.toggle("done", ok);
  setTimeout(() => { button.textContent = "Copy"; button.classList.remove("done"); }, 1500);
}

// fence returns a code fence longer than any run of backticks in text.
function fence(text) {
  const runs = text.match(/`{3,}/g) || [];
  return "`".repeat(Math.max(3, ...runs.map((r) => r.length + 1)));
}

function messageMarkdown(m) {
  const parts = [];
  if (m.content) parts.push(m.content);
  const tools = m.tools || (m.tool_calls || []).map((t) => ({ kind: "call", name: t.name, text: t.arguments || "" }))
    .concat((m.tool_results || []).map((t) => ({ kind: "result", name: t.name, text: t.content || "", is_error: t.is_error })));
  for (const t of tools) {
    const f = fence(t.text);
    parts.push((t.kind === "call" ? "Tool call: " : "Tool result: ") + (t.name || "") + (t.is_error ? " (error)" : "") + "\n\n" + f + "\n" + t.text + "\n" + f);
  }
  return parts.join("\n\n");
}

// exportMarkdown returns the whole conversation (every message, not only
// those loaded) as Markdown.
async function exportMarkdown(id) {
  // The API sends a conversation a page at a time: ask for every page.
  let c = null;
  for (let offset = 0; ;) {
    const data = await api("api/conversations/" + encodeURIComponent(id) + "?offset=" + offset + "&limit=" + EXPORT_PAGE);
    if (!c) c = data.conversation;
    else c.messages = (c.messages || []).concat(data.conversation.messages || []);
    if (!data.next_offset || data.next_offset <= offset) break;
    offset = data.next_offset;
  }
  const out = ["# " + (c.title || "(untitled)"), ""];
  out.push([c.source, c.date ? new Date(c.date).toISOString() : "", c.project ? "project " + c.project : "", c.file].filter(Boolean).map((s) => "- " + s).join("\n"), "");
  for (const m of c.messages || []) {
    const when = m.timestamp ? " · " + new Date(m.timestamp).toISOString() : "";
    out.push("## " + m.role + " #" + m.index + when, "");
    if (m.thinking) out.push("<details><summary>thinking</summary>\n\n" + m.thinking + "\n\n</details>", "");
    const body = messageMarkdown(m);
    if (body) out.push(body, "");
  }
  return { name: exportName(c.title, c.id), text: out.join("\n") };
}

// EXPORT_NAME is the most characters of an export's file name before
// ".md": 60 characters of 4 bytes each stay below the 255 bytes a file
// name may have.
const EXPORT_NAME = 60;

// exportName is the file name of a conversation's export: its title's
// letters, marks and digits of any script, with ".", "_" and "-", each run
// of anything else one dash, no dash or dot at either end (no hidden
// file, no "../"), capped; the id when the title leaves nothing.
function exportName(title, id) {
  const clean = (s) => {
    const trim = (t) => t.replace(/^[-.]+|[-.]+$/g, "");
    const name = trim(String(s || "").normalize("NFC").replace(/[^\p{L}\p{M}\p{N}._-]+/gu, "-").replace(/-{2,}/g, "-"));
    return trim(Array.from(name).slice(0, EXPORT_NAME).join(""));
  };
  return (clean(title) || clean(id) || "conversation") + ".md";
}

async function exportConversation() {
  if (!state.conv) return;
  const b = $("export");
  let md;
  try {
    md = await exportMarkdown(state.conv.id);
  } catch (e) {
    b.textContent = "Export failed";
    return;
  }
  const url = URL.createObjectURL(new Blob([md.text], { type: "text/markdown;charset=utf-8" }));
  const a = el("a");
  a.href = url;
  a.download = md.name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

// markCurrent marks the hit whose conversation is open: the one clicked,
// else the first that leads there (several hits may point at one message).
function markCurrent() {
  const links = [...document.querySelectorAll("#hits a")];
  const want = state.open ? convHash(state.open.id, state.open.m) : null;
  let cur = links.find((a) => a.dataset.i === String(state.clicked) && a.getAttribute("href") === want);
  if (!cur) cur = links.find((a) => a.getAttribute("href") === want);
  for (const a of links) a.parentElement.classList.toggle("current", a === cur);
}

function route() {
  readURL();
  if (state.open) openConversation(state.open.id, state.open.m);
  else if (!$("conv").hidden) closeConversation();
}

// ---- status line ----

// refreshStatus polls the daemon's status (cheap); the index's counts are
// asked again only when the index changed.
async function refreshStatus() {
  try {
    const status = await api("api/status");
    const d = status.daemon || {};
    const changed = d.last_change ? d.last_change.at : "";
    const first = state.lastChange === null;
    if (first || changed !== state.lastChange || !status.ready) {
      const stats = await api("api/stats");
      const convs = (stats.by_kind && stats.by_kind.conversation) || 0;
      const msgs = (stats.by_kind && stats.by_kind.message) || 0;
      state.counts = convs.toLocaleString() + " conversations, " + msgs.toLocaleString() + " messages";
    }
    const parts = [state.counts];
    if (!status.ready) parts.push("indexing…");
    if (changed) parts.push("last change " + new Date(changed).toLocaleTimeString());
    $("status").textContent = parts.join(" · ");
    const browsing = document.activeElement && document.activeElement.closest("#hits");
    if (!first && changed !== state.lastChange && !browsing && state.view === "search") {
      search(false, true); // the index changed: show it
    }
    state.lastChange = changed;
  } catch {
    $("status").textContent = "the daemon does not answer";
  }
}

// ---- keyboard ----

function moveFocus(step) {
  const links = [...document.querySelectorAll("#hits a")];
  if (!links.length) return;
  let i = links.indexOf(document.activeElement);
  i = i < 0 ? (step > 0 ? 0 : links.length - 1) : Math.min(Math.max(i + step, 0), links.length - 1);
  links[i].focus();
  links[i].scrollIntoView({ block: "nearest" });
}

function onKey(e) {
  const inInput = e.target.matches("input, textarea, select");
  if (e.key === "/" && !inInput) {
    e.preventDefault();
    $("q").focus();
    $("q").select();
  } else if (e.key === "f" && !inInput && state.open && !e.ctrlKey && !e.metaKey && !e.altKey) {
    e.preventDefault();
    $("find").focus();
    $("find").select();
  } else if (e.key === "Escape") {
    if (e.target === $("find") && $("find").value) {
      $("find").value = "";
      resetFind();
    } else if (state.open) {
      e.preventDefault();
      closeConversation();
    } else if (e.target === $("q") && $("q").value) {
      $("q").value = "";
      state.q = "";
      search();
    }
  } else if ((e.key === "ArrowDown" || (e.key === "j" && !inInput)) && !e.altKey && !e.ctrlKey && !e.metaKey) {
    // Elsewhere (the conversation view) the arrows scroll as usual.
    if (e.target !== $("q") && e.target !== document.body && !e.target.closest("#hits")) return;
    e.preventDefault();
    moveFocus(1);
  } else if ((e.key === "ArrowUp" || (e.key === "k" && !inInput)) && e.target.closest("#hits")) {
    e.preventDefault();
    const links = [...document.querySelectorAll("#hits a")];
    if (links.indexOf(document.activeElement) === 0) $("q").focus();
    else moveFocus(-1);
  }
}

// ---- start ----

function start() {
  readURL();
  const input = $("q");
  input.value = state.q;
  $("group").checked = state.group;
  $("sort").value = state.sort || "relevance";
  $("since").value = state.since;
  $("until").value = state.until;
  let timer = null;
  const toSearch = () => {
    if (state.view !== "search") showView("search");
    search();
  };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      state.q = input.value;
      toSearch();
    }, 120);
  });
  $("search-form").addEventListener("submit", (e) => {
    e.preventDefault();
    clearTimeout(timer);
    state.q = input.value;
    if (state.view !== "search") showView("search");
    search().then(() => moveFocus(1));
  });
  $("group").addEventListener("change", () => { state.group = $("group").checked; search(); });
  $("sort").addEventListener("change", () => { state.sort = $("sort").value === "relevance" ? "" : $("sort").value; search(); });
  $("since").addEventListener("change", () => { state.since = $("since").value; search(); });
  $("until").addEventListener("change", () => { state.until = $("until").value; search(); });
  $("clear").addEventListener("click", () => {
    for (const [name] of FACETS) state.filters[name] = [];
    state.since = state.until = state.sort = "";
    $("since").value = $("until").value = "";
    $("sort").value = "relevance";
    search();
  });
  $("more").addEventListener("click", () => search(true));
  $("hits").addEventListener("click", (e) => {
    const a = e.target.closest("a");
    if (a) state.clicked = Number(a.dataset.i);
  });
  for (const a of document.querySelectorAll(".views a")) {
    a.addEventListener("click", (e) => {
      e.preventDefault();
      showView(a.dataset.view);
      if (a.dataset.view === "search") search();
    });
  }
  $("close").addEventListener("click", closeConversation);
  $("earlier").addEventListener("click", () => loadMore(true));
  $("later").addEventListener("click", () => loadMore(false));
  $("find-form").addEventListener("submit", (e) => e.preventDefault());
  let findTimer = null;
  $("find").addEventListener("input", () => { clearTimeout(findTimer); findTimer = setTimeout(runFind, 150); });
  $("find").addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    clearTimeout(findTimer);
    if (!state.find.marks.length) runFind();
    else stepFind(e.shiftKey ? -1 : 1);
  });
  $("find-next").addEventListener("click", () => stepFind(1));
  $("find-prev").addEventListener("click", () => stepFind(-1));
  $("export").addEventListener("click", exportConversation);
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  showView(state.view);
  if (state.view === "search") search();
  if (state.open) openConversation(state.open.id, state.open.m);
  refreshStatus();
  setInterval(refreshStatus, 5000);
}

start();
