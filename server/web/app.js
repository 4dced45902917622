// convsearch's search page. Every string from the index is put in the page
// as text (textContent); fragments keep only their <mark> tags, built as
// elements, never parsed as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const FACETS = [["type", "Type"], ["source", "Source"], ["project", "Project"], ["role", "Role"]];
const PAGE = 20;

const state = {
  q: "",
  filters: { type: [], source: [], project: [], role: [] },
  group: false,
  hits: [],
  next: null,      // how to ask for the next page: {offset}
  seq: 0,          // the latest search; older answers are dropped
  abort: null,
  open: null,      // {id, m}
  clicked: null,   // the position of the hit last opened
  lastChange: null, // when the index last changed, as the daemon said
  counts: "",
};

// ---- talking to the daemon ----

// The daemon's token travels as an HttpOnly cookie, set by the login link
// `convsearch serve` prints: no script here ever holds it.
async function api(path, signal) {
  const headers = { Accept: "application/json" };
  const resp = await fetch(path, { headers, signal, credentials: "same-origin" });
  let body = null;
  try { body = await resp.json(); } catch { /* not JSON */ }
  if (resp.status === 401) {
    $("token-bar").hidden = false;
    $("token").focus();
  }
  if (!resp.ok) {
    const err = new Error((body && body.error) || resp.status + " " + resp.statusText);
    err.status = resp.status;
    throw err;
  }
  return body;
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

// textWithMarks returns text as nodes, with matches of re in marks.
function textWithMarks(text, re, cls) {
  const box = el("div", cls);
  if (!re || text.length > 200000) {
    box.textContent = text;
    return box;
  }
  let last = 0;
  text.replace(re, (m, _g, at) => {
    if (at > last) box.appendChild(document.createTextNode(text.slice(last, at)));
    box.appendChild(el("mark", null, m));
    last = at + m.length;
    return m;
  });
  if (last < text.length) box.appendChild(document.createTextNode(text.slice(last)));
  return box;
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

// ---- the address bar holds the state, so a search can be linked ----

function readURL() {
  const p = new URLSearchParams(location.search);
  state.q = p.get("q") || "";
  for (const [name] of FACETS) state.filters[name] = p.getAll(name).filter(Boolean);
  state.group = p.get("group") === "1";
  const h = new URLSearchParams(location.hash.slice(1));
  state.open = h.get("c") ? { id: h.get("c"), m: h.has("m") ? Number(h.get("m")) : null } : null;
}

function writeURL() {
  const p = new URLSearchParams();
  if (state.q) p.set("q", state.q);
  for (const [name] of FACETS) for (const v of state.filters[name]) p.append(name, v);
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

function searchParams(more) {
  const p = new URLSearchParams();
  const q = state.q.trim();
  if (q) {
    p.set("q", q);
  } else {
    p.set("sort", "newest");
    if (!state.filters.type.length) p.set("type", "conversation");
  }
  for (const [name] of FACETS) for (const v of state.filters[name]) p.append(name, v);
  if (state.group) p.set("group", "1");
  p.set("limit", String(PAGE));
  if (more && state.next) p.set("offset", String(state.next.offset));
  return p;
}

// facetParams asks for the facets of the same search alone: counting every
// hit costs several times the search, so the hits are not kept waiting.
function facetParams() {
  const p = searchParams(false);
  p.delete("group");
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
  // Offsets, not search-after: relevance order has no sort value to resume from.
  if (hits.length === PAGE) state.next = { offset: shown };
  renderSummary(res);
  renderHits(state.hits, more ? shown - hits.length : 0);
  $("more").hidden = !state.next;
  if (more) return; // the same search: the same facets
  try {
    const f = await api("api/search?" + facetParams(), ctl.signal);
    if (seq === state.seq) renderFacets(f.facets || {});
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
  if (!state.q.trim()) {
    s.textContent = "Newest first · " + res.total.toLocaleString() + (res.total === 1 ? " item" : " items");
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
    const head = el("div", "hit-head");
    head.appendChild(el("span", "kind " + (h.kind === "message" ? h.role || "" : ""), kindLabel(h)));
    head.appendChild(el("span", "title", h.title || "(untitled)"));
    a.appendChild(head);
    if (h.kind === "decision" || h.kind === "topic") {
      // Short fields: show them whole, marked where a fragment covers them.
      a.appendChild(markedField(h.text, h.fragments, "frag"));
      if (h.rationale) {
        const r = markedField(h.rationale, h.fragments, "rationale");
        r.insertBefore(document.createTextNode("because "), r.firstChild);
        a.appendChild(r);
      }
    } else {
      const frags = (h.fragments || []).slice(0, 2);
      if (frags.length) {
        for (const f of frags) a.appendChild(fragment(f, "frag"));
      } else if (h.text) {
        a.appendChild(el("div", "frag", h.text));
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
    sec.appendChild(el("h3", null, label));
    const ul = el("ul");
    for (const c of counts) {
      const li = el("li");
      const b = el("button");
      b.type = "button";
      const on = chosen.includes(c.value);
      if (on) b.classList.add("on");
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.title = (on ? "Remove the filter " : "Only ") + name + " " + (c.value || "(none)");
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

// ---- the conversation view ----

async function openConversation(id, m) {
  state.open = { id, m };
  $("conv").hidden = false;
  $("layout").classList.add("open");
  markCurrent();
  const title = $("conv-title");
  const msgs = $("messages");
  if (title.dataset.id !== id) {
    title.textContent = "Loading…";
    $("conv-meta").textContent = "";
    $("conv-extra").textContent = "";
    msgs.textContent = "";
    let data;
    try {
      data = await api("api/conversations/" + encodeURIComponent(id));
    } catch (e) {
      title.textContent = "Cannot open this conversation";
      $("conv-meta").textContent = e.message;
      title.dataset.id = "";
      return;
    }
    if (!state.open || state.open.id !== id) return;
    renderConversation(data.conversation, data.from_index);
    title.dataset.id = id;
  }
  focusMessage(m);
}

function renderConversation(c, fromIndex) {
  $("conv-title").textContent = c.title || "(untitled)";
  const meta = [c.source, longDate(c.date), c.project ? "project " + c.project : "", (c.messages || []).length + " messages"].filter(Boolean);
  $("conv-meta").textContent = meta.join(" · ");
  const extra = $("conv-extra");
  extra.textContent = "";
  extra.appendChild(el("div", "meta", c.file));
  if (fromIndex) extra.appendChild(el("div", "note", "The file could not be read again: this is the text the index keeps."));
  if (c.topics && c.topics.length) extra.appendChild(el("div", null, "Topics: " + c.topics.map((t) => t.name).join(", ")));
  for (const d of c.decisions || []) {
    extra.appendChild(el("div", "decision", "Decision: " + d.decision + (d.rationale ? " — because " + d.rationale : "")));
  }
  const re = termsRegExp(queryTerms(state.q));
  const list = $("messages");
  list.textContent = "";
  for (const m of c.messages || []) list.appendChild(renderMessage(m, re));
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
  li.appendChild(head);
  if (m.thinking) li.appendChild(details("thinking", m.thinking));
  if (m.content) li.appendChild(textWithMarks(m.content, re, "content"));
  for (const tc of m.tool_calls || []) li.appendChild(details("→ " + tc.name, tc.arguments || ""));
  for (const tr of m.tool_results || []) {
    li.appendChild(details("← " + (tr.name || "result") + (tr.is_error ? " (error)" : ""), tr.content || ""));
  }
  for (const at of m.attachments || []) {
    const size = at.size ? ", " + at.size.toLocaleString() + " bytes" : "";
    li.appendChild(el("div", "attachment", "📎 " + (at.name || "attachment") + " (" + (at.type || "?") + size + ")"));
  }
  return li;
}

function details(summary, text) {
  const d = el("details");
  d.appendChild(el("summary", null, summary));
  d.appendChild(el("pre", null, text));
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
  li.scrollIntoView({ block: "center" });
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
    if (!first && changed !== state.lastChange && !browsing) {
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
  const inInput = e.target.matches("input, textarea");
  if (e.key === "/" && !inInput) {
    e.preventDefault();
    $("q").focus();
    $("q").select();
  } else if (e.key === "Escape") {
    if (state.open) {
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
  let timer = null;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      state.q = input.value;
      search();
    }, 120);
  });
  $("search-form").addEventListener("submit", (e) => {
    e.preventDefault();
    clearTimeout(timer);
    state.q = input.value;
    search().then(() => moveFocus(1));
  });
  $("group").addEventListener("change", () => {
    state.group = $("group").checked;
    search();
  });
  $("more").addEventListener("click", () => search(true));
  $("hits").addEventListener("click", (e) => {
    const a = e.target.closest("a");
    if (a) state.clicked = Number(a.dataset.i);
  });
  $("close").addEventListener("click", closeConversation);
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  search();
  if (state.open) openConversation(state.open.id, state.open.m);
  refreshStatus();
  setInterval(refreshStatus, 5000);
}

start();
