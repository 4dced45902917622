// End-to-end test of `convsearch mcp` under the official TypeScript MCP
// client (@modelcontextprotocol/sdk) over stdio: list the tools, call each
// one, check the structured results (the client also validates them against
// each tool's output schema), read a conversation resource, and check that
// bad arguments come back as tool errors while the server keeps serving.
//
// Usage: node e2e.mjs CONVSEARCH_BINARY ROOT... (run.sh installs the SDK
// next to this file and gives the environment a private HOME).

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [binary, ...roots] = process.argv.slice(2);
if (!binary || roots.length === 0) {
  console.error("usage: node e2e.mjs CONVSEARCH_BINARY ROOT...");
  process.exit(2);
}

const FIXTURE = "20250301-5e1d2a90"; // mcp/testdata/mcp: 130 messages, long tool output
const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
};

const args = ["mcp", "--no-default-roots"];
for (const r of roots) args.push("--root", r);
const transport = new StdioClientTransport({
  command: binary,
  args,
  env: process.env, // the runner's private HOME and data folder
  stderr: "pipe",
});
let stderr = "";
transport.stderr?.on("data", (d) => (stderr += d));

const client = new Client({ name: "convsearch-e2e", version: "1.0.0" });
await client.connect(transport);

const text = (res) => (res.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
const call = (name, a) => client.callTool({ name, arguments: a });

try {
  const info = client.getServerVersion();
  check(info?.name === "convsearch", `server name is convsearch (${info?.name} ${info?.version})`);
  check(Boolean(client.getInstructions()), "server gives instructions");

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  check(
    JSON.stringify(names) ===
      JSON.stringify(["get_conversation", "list_decisions", "list_topics", "related_conversations", "search_conversations"]),
    `five tools: ${names.join(", ")}`,
  );
  for (const t of tools) {
    check(t.inputSchema?.type === "object" && t.outputSchema?.type === "object", `${t.name}: input and output schemas`);
    check((t.description ?? "").length > 100, `${t.name}: a description that says when to use it`);
    check(t.annotations?.readOnlyHint === true, `${t.name}: read-only`);
  }

  // The index is built in the background: answers say "indexing" until the
  // first pass is over. Wait for a complete answer, and check that partial
  // ones said so.
  let search;
  let sawIndexingNote = true;
  let partial = 0;
  const deadline = Date.now() + 60000;
  for (;;) {
    search = await call("search_conversations", { query: "outbox replay batches" });
    const sc = search.structuredContent;
    if (!search.isError && sc?.indexing === true) {
      partial++;
      if (!text(search).startsWith("Note: convsearch is still indexing")) sawIndexingNote = false;
    }
    if (!search.isError && sc && sc.indexing !== true) break;
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  check(sawIndexingNote, `answers during the first pass say so in their text (${partial} such answers)`);
  check(!search.isError && search.structuredContent?.indexing !== true, "the first indexing pass ends (indexing no longer set)");
  const s = search.structuredContent;
  check(s?.hits?.length > 0 && s.hits[0].conversation_id === FIXTURE, "search_conversations finds the fixture first");
  check(typeof s?.total === "number" && typeof s?.took_ms === "number" && typeof s?.truncated === "boolean", "search result has total, took_ms, truncated");
  check(text(search).includes(`conversation_id: ${FIXTURE}`), "search text names the conversation id");

  // One hit per conversation by default; group=false lists every hit.
  const grouped = (await call("search_conversations", { query: "billing lag" })).structuredContent;
  const convs = new Set(grouped?.hits?.map((h) => h.conversation_id));
  check(grouped?.hits?.length > 0 && convs.size === grouped.hits.length && grouped.hits.every((h) => h.count >= 1),
    `search: one hit per conversation by default (${grouped?.hits?.length} hits, ${convs.size} conversations)`);
  const page = await call("search_conversations", { query: "billing lag", type: "message", group: false });
  check(page.structuredContent?.hits?.length === 10 && page.structuredContent.truncated === true && page.structuredContent.next_offset === 10,
    "search: group=false, default limit 10, truncated, next_offset 10");

  // Filters: a conversation (by its id or a hit's id), project, source, dates.
  const hitID = `m/${FIXTURE}/6`;
  for (const a of [
    { query: "billing", conversation_id: FIXTURE, group: false },
    { query: "billing", conversation_id: hitID, group: false },
    { query: "outbox", project: "ledger", source: "portable", since: "2025-03-01", until: "2025-03-02" },
  ]) {
    const r = await call("search_conversations", a);
    const hits = r.structuredContent?.hits ?? [];
    check(!r.isError && hits.length > 0 && hits.every((h) => h.conversation_id === FIXTURE),
      `search_conversations(${JSON.stringify(a)}): hits of the fixture only (${hits.length})`);
  }
  // Nothing visible matches, but a hidden message does: the answer says so.
  const hidden = await call("search_conversations", { query: "pg16", role: "system" });
  check(!hidden.isError && hidden.structuredContent?.hits?.length === 0 && hidden.structuredContent.hidden_matches === 1 &&
    text(hidden).includes("pass include_hidden:true"), "search_conversations: no match, but 1 hidden message, and how to see it");
  const none = await call("search_conversations", { query: "outbox", until: "2024-01-01" });
  check(!none.isError && none.structuredContent?.hits?.length === 0, "search_conversations: until before the fixture finds nothing");

  // Snippets are plain text with match offsets; no HTML reaches the agent.
  const code = await call("search_conversations", { query: "boot tickets", group: false, limit: 20 });
  const raw = JSON.stringify(code.structuredContent ?? {});
  check(!/<mark>|&lt;|&#34;|"fragments"/.test(raw), "search: no HTML fragments in the structured answer");
  const snippets = (code.structuredContent?.hits ?? []).flatMap((h) => h.snippets ?? []);
  check(snippets.some((sn) => sn.text.includes("b <- boot(")), "search: code in snippets as written (b <- boot()");
  check(snippets.length > 0 && snippets.every((sn) => (sn.matches ?? []).every(([a, b]) => {
    const word = [...sn.text].slice(a, b).join("").toLowerCase();
    return word.startsWith("boot") || word.startsWith("ticket");
  })), "search: snippet match offsets point at the matched words");

  const win = await call("get_conversation", { id: FIXTURE, message: 3, context: 1, max_messages: 4 });
  const w = win.structuredContent;
  check(!win.isError && w.first === 2 && w.last === 5 && w.messages.length === 4 && w.message_count === 130, "get_conversation: window 2–5 of 130");
  const out = w.messages[1]?.tool_results?.[0]?.content ?? "";
  check(out.length < 1100 && /\[… \d+ more characters cut\]$/.test(out), "get_conversation: long tool output cut with a marker");
  check(w.truncated === true && w.next_message === 6, "get_conversation: truncated, next_message 6");

  // A long message (#7, 9068 characters) is cut in a window, which says
  // where to read on in it; read alone from there, it comes to its end.
  const cutWin = (await call("get_conversation", { id: FIXTURE, message: 7, context: 0, max_messages: 2 })).structuredContent;
  const cm = cutWin?.cut_messages?.find((c) => c.message === 7);
  check(cm?.char_offset > 0 && cm.char_offset < 9068, `get_conversation: cut_messages says where message 7 goes on (${JSON.stringify(cm)})`);
  const rest = await call("get_conversation", { id: FIXTURE, message: 7, char_offset: cm?.char_offset ?? 0 });
  const r7 = rest.structuredContent;
  const kept = (cutWin?.messages?.[0]?.content ?? "").replace(/ \[… \d+ more characters cut\]$/, "");
  const tail = (r7?.messages?.[0]?.content ?? "").replace(/^\[… \d+ characters before this part\] /, "");
  check(!rest.isError && r7.messages.length === 1 && r7.message_chars === 9068 && r7.next_char_offset === undefined &&
    Array.from(kept + tail).length === 9068 && r7.next_message === 8 && text(rest).includes(`get_conversation(id="${FIXTURE}", offset=8)`),
    "get_conversation(message, char_offset): the rest of the message, to its end, then where to read on");
  const whole = (await call("get_conversation", { id: FIXTURE, message: 7, max_messages: 1 })).structuredContent;
  check(Array.from(whole?.messages?.[0]?.content ?? "").length === 9068 && whole.next_char_offset === undefined,
    "get_conversation(message, max_messages=1): the message whole");

  // A hit's id works where a conversation id goes; long conversations page.
  const byHit = (await call("get_conversation", { id: hitID })).structuredContent;
  check(byHit?.id === FIXTURE && byHit.first <= 6 && byHit.last >= 6, "get_conversation(hit id): the hit's conversation, at its message");
  const p2 = (await call("get_conversation", { id: FIXTURE, offset: 20, max_messages: 20 })).structuredContent;
  check(p2?.first === 20 && p2.messages?.[0]?.index === 20 && p2.next_message === 40, "get_conversation: offset pages (20–39, next 40)");
  const big = await call("get_conversation", { id: FIXTURE, max_messages: 100 });
  const size = text(big).length + JSON.stringify(big.structuredContent).length;
  check(!big.isError && size <= 80000, `get_conversation(max_messages=100): ${size} bytes, under 20k tokens`);
  const relHit = await call("related_conversations", { id: hitID, limit: 3 });
  check(!relHit.isError && relHit.structuredContent?.hits?.every((h) => h.conversation_id !== FIXTURE), "related_conversations(hit id)");
  const resHit = await client.readResource({ uri: `convsearch://conversation/${encodeURIComponent(hitID)}` });
  check(resHit.contents?.[0]?.text?.includes(`id ${FIXTURE}`), "read the resource of a hit id");
  // As an agent copies it: the hit's id with its slashes, unescaped.
  const resRaw = await client.readResource({ uri: `convsearch://conversation/${hitID}` });
  check(resRaw.contents?.[0]?.text?.includes(`id ${FIXTURE}`), "read the resource of a hit id, unescaped (m/ID/N)");
  let missing;
  try {
    await client.readResource({ uri: "convsearch://conversation/no-such-id" });
  } catch (e) {
    missing = e;
  }
  check(missing?.code === -32602 && /resource not found: no conversation with id "no-such-id"/.test(missing?.message ?? ""),
    `a missing resource: -32602 saying what was not found (${missing?.code} ${missing?.message})`);

  const dec = await call("list_decisions", { query: "outbox" });
  const d = dec.structuredContent?.hits?.[0];
  check(d?.kind === "decision" && d.rationale?.includes("reordering") && d.source === "portable" && d.conversation_id === FIXTURE,
    "list_decisions: decision with rationale and source");

  // Paging: a page others follow says next_offset and the call that reads on.
  const dec1 = await call("list_decisions", { limit: 2 });
  check(dec1.structuredContent?.truncated === true && dec1.structuredContent?.next_offset === 2 &&
    text(dec1).includes("More: list_decisions(limit=2, offset=2)"), "list_decisions: next_offset and the call to read on");
  const dec2 = await call("list_decisions", { limit: 2, offset: 2 });
  check(dec2.structuredContent?.hits?.length > 0 && dec2.structuredContent.hits[0].id !== dec1.structuredContent.hits[0].id,
    "list_decisions: the page at offset 2 follows the first");
  const top1 = await call("list_topics", { limit: 1 });
  check(top1.structuredContent?.next_offset === 1 && text(top1).includes("More: list_topics(limit=1, offset=1)"),
    "list_topics: next_offset and the call to read on");
  const top2 = await call("list_topics", { limit: 1, offset: 1 });
  check(top2.structuredContent?.topics?.length === 1 && top2.structuredContent.topics[0].name !== top1.structuredContent.topics[0].name,
    "list_topics: the page at offset 1 follows the first");

  const top = await call("list_topics", { project: "ledger", limit: 5 });
  check(top.structuredContent?.topics?.some((t) => t.name === "outbox replay" && t.conversations === 1), "list_topics: the fixture's topic");

  const rel = await call("related_conversations", { id: FIXTURE, limit: 3 });
  check(rel.structuredContent?.hits?.length > 0 && rel.structuredContent.hits.every((h) => h.conversation_id !== FIXTURE),
    "related_conversations: others, not itself");

  const { resourceTemplates } = await client.listResourceTemplates();
  check(resourceTemplates.some((t) => t.uriTemplate === "convsearch://conversation/{id}"), "resource template convsearch://conversation/{id}");
  const { resources } = await client.listResources();
  check(resources.length >= 10 && resources.some((r) => r.uri === `convsearch://conversation/${FIXTURE}`) &&
    resources.every((r) => r.mimeType === "text/markdown" && r.uri.startsWith("convsearch://conversation/")),
    `resources/list: the conversations (${resources.length})`);
  const res = await client.readResource({ uri: `convsearch://conversation/${FIXTURE}` });
  check(res.contents?.[0]?.mimeType === "text/markdown" && res.contents[0].text.startsWith("# Replaying the ledger outbox"), "read the conversation resource");

  // Bad arguments: tool errors the agent can read; the server keeps serving.
  for (const [name, a, want] of [
    ["get_conversation", { id: "no-such-id" }, "ids come from search_conversations"],
    ["search_conversations", { query: "" }, "query is empty"],
    ["search_conversations", { query: "x", limit: 500 }, "limit 500 out of range"],
    ["search_conversations", { query: "x", since: "last tuesday" }, "since"],
    ["list_decisions", { until: "2025-02-30" }, "until"],
    ["list_decisions", { offset: -1 }, "offset -1 out of range"],
    ["list_topics", { offset: 10001 }, "offset 10001 out of range"],
    ["get_conversation", { id: FIXTURE, message: 1000 }, "130 messages"],
  ]) {
    const r = await call(name, a);
    check(r.isError === true && text(r).includes(want), `${name}(${JSON.stringify(a)}) is a tool error: ${text(r).split("\n")[0]}`);
  }
  const after = await call("list_topics", { limit: 1 });
  check(!after.isError && after.structuredContent.topics.length === 1, "still serving after the errors");
} catch (e) {
  failures.push(`exception: ${e?.stack ?? e}`);
  console.log(`FAIL exception: ${e?.stack ?? e}`);
} finally {
  await client.close();
}

// A restart over the same index and roots: the first pass was completed
// and remembered, so no answer says "still indexing".
try {
  const again = new Client({ name: "convsearch-e2e-restart", version: "1.0.0" });
  await again.connect(new StdioClientTransport({ command: binary, args, env: process.env, stderr: "pipe" }));
  const r = await again.callTool({ name: "search_conversations", arguments: { query: "outbox replay batches" } });
  check(!r.isError && r.structuredContent?.indexing !== true && !text(r).startsWith("Note:"),
    "after a restart on a complete index: no indexing note");
  await again.close();
} catch (e) {
  failures.push(`exception after restart: ${e?.stack ?? e}`);
}

if (failures.length > 0) {
  console.error(`\n${failures.length} checks failed:\n- ${failures.join("\n- ")}\n\nserver stderr:\n${stderr}`);
  process.exit(1);
}
console.log("\nall checks passed");
