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

  const page = await call("search_conversations", { query: "billing lag", type: "message" });
  check(page.structuredContent?.hits?.length === 10 && page.structuredContent.truncated === true && page.structuredContent.next_offset === 10,
    "search: default limit 10, truncated, next_offset 10");

  const win = await call("get_conversation", { id: FIXTURE, message: 3, context: 1, max_messages: 4 });
  const w = win.structuredContent;
  check(!win.isError && w.first === 2 && w.last === 5 && w.messages.length === 4 && w.message_count === 130, "get_conversation: window 2–5 of 130");
  const out = w.messages[1]?.tool_results?.[0]?.content ?? "";
  check(out.length < 1100 && /\[… \d+ more characters cut\]$/.test(out), "get_conversation: long tool output cut with a marker");
  check(w.truncated === true && w.next_message === 6, "get_conversation: truncated, next_message 6");

  const dec = await call("list_decisions", { query: "outbox" });
  const d = dec.structuredContent?.hits?.[0];
  check(d?.kind === "decision" && d.rationale?.includes("reordering") && d.source === "portable" && d.conversation_id === FIXTURE,
    "list_decisions: decision with rationale and source");

  const top = await call("list_topics", { project: "ledger", limit: 5 });
  check(top.structuredContent?.topics?.some((t) => t.name === "outbox replay" && t.conversations === 1), "list_topics: the fixture's topic");

  const rel = await call("related_conversations", { id: FIXTURE, limit: 3 });
  check(rel.structuredContent?.hits?.length > 0 && rel.structuredContent.hits.every((h) => h.conversation_id !== FIXTURE),
    "related_conversations: others, not itself");

  const { resourceTemplates } = await client.listResourceTemplates();
  check(resourceTemplates.some((t) => t.uriTemplate === "convsearch://conversation/{id}"), "resource template convsearch://conversation/{id}");
  const res = await client.readResource({ uri: `convsearch://conversation/${FIXTURE}` });
  check(res.contents?.[0]?.mimeType === "text/markdown" && res.contents[0].text.startsWith("# Replaying the ledger outbox"), "read the conversation resource");

  // Bad arguments: tool errors the agent can read; the server keeps serving.
  for (const [name, a, want] of [
    ["get_conversation", { id: "no-such-id" }, "ids come from search_conversations"],
    ["search_conversations", { query: "" }, "query is empty"],
    ["search_conversations", { query: "x", limit: 500 }, "limit 500 out of range"],
    ["search_conversations", { query: "x", since: "last tuesday" }, "since"],
    ["list_decisions", { until: "2025-02-30" }, "until"],
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

if (failures.length > 0) {
  console.error(`\n${failures.length} checks failed:\n- ${failures.join("\n- ")}\n\nserver stderr:\n${stderr}`);
  process.exit(1);
}
console.log("\nall checks passed");
