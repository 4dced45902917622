package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/convsearch/convsearch/daemon"
	"github.com/convsearch/convsearch/internal/calltime"
	csmcp "github.com/convsearch/convsearch/mcp"
)

// The MCP server as an agent runs it: the built binary on a real stdio pipe,
// driven by the Go SDK's client.

const mcpFixtures = "../../mcp/testdata/mcp"

// mcpProc is a running `convsearch mcp` and a client session to it.
type mcpProc struct {
	cmd    *exec.Cmd
	cs     *mcp.ClientSession
	stdout *lockedBuffer // every byte the server wrote on stdout
	stderr *lockedBuffer
	done   chan error
}

func startMCP(tb testing.TB, home string, args ...string) *mcpProc {
	tb.Helper()
	cmd := exec.Command(binary, append([]string{"mcp"}, args...)...)
	cmd.Env = daemonEnv(home)
	p := &mcpProc{cmd: cmd, stdout: &lockedBuffer{}, stderr: &lockedBuffer{}, done: make(chan error, 1)}
	cmd.Stderr = p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	go func() { p.done <- cmd.Wait() }()
	tb.Cleanup(func() {
		stdin.Close()
		select {
		case <-p.done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-p.done
		}
	})
	c := mcp.NewClient(&mcp.Implementation{Name: "convsearch-test", Version: "0"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p.cs, err = c.Connect(ctx, &mcp.IOTransport{Reader: io.NopCloser(io.TeeReader(stdout, p.stdout)), Writer: stdin}, nil)
	if err != nil {
		tb.Fatalf("connect: %v\nstderr:\n%s", err, p.stderr)
	}
	return p
}

// close ends the session as a client does, by closing stdin, and returns
// the exit error.
func (p *mcpProc) close(tb testing.TB) error {
	p.cs.Close()
	select {
	case err := <-p.done:
		p.done <- err
		return err
	case <-time.After(10 * time.Second):
		tb.Fatalf("the server did not exit after stdin closed\nstderr:\n%s", p.stderr)
	}
	return nil
}

func (p *mcpProc) call(tb testing.TB, name string, args map[string]any) *mcp.CallToolResult {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := p.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		tb.Fatalf("%s: %v\nstderr:\n%s", name, err, p.stderr)
	}
	return res
}

func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// waitHits calls search_conversations until it finds something in a
// complete answer: the index is built in the background while the server
// already answers, and answers say "indexing" until the first pass is over.
func (p *mcpProc) waitHits(tb testing.TB, q string) map[string]any {
	tb.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		res := p.call(tb, "search_conversations", map[string]any{"query": q})
		if !res.IsError {
			out := res.StructuredContent.(map[string]any)
			hits, _ := out["hits"].([]any)
			if out["indexing"] == true && !strings.HasPrefix(resultText(res), "Note: convsearch is still indexing") {
				tb.Errorf("a partial answer without the note: %.300s", resultText(res))
			}
			if len(hits) > 0 && out["indexing"] != true {
				return out
			}
		}
		if time.Now().After(deadline) {
			tb.Fatalf("no complete answer with hits for %q after 30s: %s\nstderr:\n%s", q, resultText(res), p.stderr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestMCPOverStdio(t *testing.T) {
	home := t.TempDir()
	p := startMCP(t, home, "--no-default-roots", "--root", examples, "--root", mcpFixtures)
	tools, err := p.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if want := []string{"get_conversation", "list_decisions", "list_topics", "related_conversations", "search_conversations"}; !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}

	out := p.waitHits(t, "outbox replay batches")
	hit := out["hits"].([]any)[0].(map[string]any)
	if hit["conversation_id"] != "20250301-5e1d2a90" {
		t.Errorf("first hit %v", hit)
	}
	res := p.call(t, "get_conversation", map[string]any{"id": "20250301-5e1d2a90", "message": 3, "context": 1, "max_messages": 3})
	w := res.StructuredContent.(map[string]any)
	if res.IsError || w["first"] != 2.0 || w["last"] != 4.0 || w["truncated"] != true {
		t.Errorf("window: %v", w)
	}
	for name, args := range map[string]map[string]any{
		"list_decisions":        {"query": "outbox"},
		"list_topics":           {"limit": 5},
		"related_conversations": {"id": "20250301-5e1d2a90"},
	} {
		if res := p.call(t, name, args); res.IsError || res.StructuredContent == nil {
			t.Errorf("%s: %s", name, resultText(res))
		}
	}
	if res := p.call(t, "get_conversation", map[string]any{"id": "nope"}); !res.IsError || !strings.Contains(resultText(res), "no conversation") {
		t.Errorf("unknown id: %v %s", res.IsError, resultText(res))
	}
	rr, err := p.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: csmcp.ConversationURI("20250301-5e1d2a90")})
	if err != nil || !strings.Contains(rr.Contents[0].Text, "# Replaying the ledger outbox") {
		t.Errorf("resource: %v", err)
	}

	if err := p.close(t); err != nil {
		t.Errorf("exit: %v\nstderr:\n%s", err, p.stderr)
	}
	// stdout holds the protocol and nothing else; the logs went to stderr.
	sc := bufio.NewScanner(strings.NewReader(p.stdout.String()))
	sc.Buffer(nil, 16<<20)
	lines := 0
	for sc.Scan() {
		var msg struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil || msg.JSONRPC != "2.0" {
			t.Errorf("stdout line is not JSON-RPC: %.200q", sc.Text())
		}
		lines++
	}
	if lines < 8 {
		t.Errorf("%d lines on stdout", lines)
	}
	if !strings.Contains(p.stderr.String(), "serving the local index") {
		t.Errorf("stderr:\n%s", p.stderr)
	}
}

// TestMCPIndexInUse: a second server on an index another process holds
// answers from the start, says why it cannot search yet, and takes the index
// over once it is free.
func TestMCPIndexInUse(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a lock")
	}
	home := t.TempDir()
	first := startMCP(t, home, "--no-default-roots", "--root", mcpFixtures)
	first.waitHits(t, "outbox")
	second := startMCP(t, home, "--no-default-roots", "--root", mcpFixtures, "--lock-retry", "300ms")
	res := second.call(t, "search_conversations", map[string]any{"query": "outbox"})
	holder := fmt.Sprintf("process %d (`convsearch mcp`, an agent's MCP server)", first.cmd.Process.Pid)
	if !res.IsError || !strings.Contains(resultText(res), "in use by another convsearch process") || !strings.Contains(resultText(res), "convsearch serve") || !strings.Contains(resultText(res), holder) {
		t.Errorf("second server while the first runs: %v %s", res.IsError, resultText(res))
	}
	if err := first.close(t); err != nil {
		t.Fatalf("first server: %v", err)
	}
	second.waitHits(t, "outbox")
	if err := second.close(t); err != nil {
		t.Errorf("second server: %v", err)
	}
}

// TestMCPThroughDaemon: with `convsearch serve` running, the MCP server
// answers through it instead of opening the index.
func TestMCPThroughDaemon(t *testing.T) {
	home := t.TempDir()
	serve := exec.Command(binary, "serve", "--addr", "127.0.0.1:0", "--no-default-roots", "--root", mcpFixtures)
	serve.Env = daemonEnv(home)
	var serr lockedBuffer
	serve.Stderr, serve.Stdout = &serr, &serr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { serve.Wait(); close(exited) }()
	t.Cleanup(func() {
		serve.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			serve.Process.Kill()
			<-exited
		}
	})
	dataDir := filepath.Join(home, "data", "convsearch")
	deadline := time.Now().Add(15 * time.Second)
	for {
		if _, err := daemon.ReadInfo(dataDir); err == nil {
			break
		}
		select {
		case <-exited:
			t.Fatalf("serve exited:\n%s", serr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no daemon after 15s:\n%s", serr.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	p := startMCP(t, home, "--no-default-roots", "--root", examples)
	p.waitHits(t, "outbox replay")
	// The daemon indexed --root for it.
	p.waitHits(t, "sharded LRU")
	// A query the index refuses reads as it does without a daemon: the
	// mistake, a caret and the query language, no HTTP status.
	res := p.call(t, "search_conversations", map[string]any{"query": "the"})
	if txt := resultText(res); !res.IsError || !strings.Contains(txt, "nothing to search for") || !strings.Contains(txt, "The query language") ||
		strings.Contains(txt, "HTTP") || strings.Contains(txt, "daemon") {
		t.Errorf("search_conversations(the) through the daemon: error %v %q", res.IsError, txt)
	}
	if err := p.close(t); err != nil {
		t.Errorf("exit: %v", err)
	}
	if !strings.Contains(p.stderr.String(), "answering through the daemon") || strings.Contains(p.stderr.String(), "serving the local index") {
		t.Errorf("stderr:\n%s", p.stderr)
	}
}

// TestMCPOfficialClients runs test/mcp/run.sh: `convsearch mcp` under the
// official TypeScript SDK client over stdio, and the official conformance
// suite against /mcp of `convsearch serve`. Both are installed from npm into
// a temporary folder, so the test skips under -short and without node and
// npm, except in CI (CI set), where it must run.
func TestMCPOfficialClients(t *testing.T) {
	ci := inCI()
	for _, tool := range []string{"node", "npm", "npx"} {
		if _, err := exec.LookPath(tool); err != nil {
			if ci {
				t.Fatalf("CI: %s is needed for the MCP end-to-end test (Node 20 or later, and the npm registry)", tool)
			}
			t.Skipf("%s not found", tool)
		}
	}
	if testing.Short() && !ci {
		t.Skip("installs the MCP SDK and conformance suite from npm")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "../../test/mcp/run.sh", "all")
	cmd.Env = append(os.Environ(), "CONVSEARCH_BIN="+binary)
	// On timeout the script gets SIGTERM, so it stops the daemon it started.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 15 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("test/mcp/run.sh: %v\n%s", err, out)
	}
	t.Logf("test/mcp/run.sh:\n%s", out)
}

// BenchmarkMCPStdio measures the round trip of search_conversations over a
// real stdio pipe to the built binary, with p50 and p95 besides the mean.
// client=sdk drives it with the Go SDK's client (whose own decoding is part
// of the figure); client=raw writes JSON-RPC lines and waits for the answer
// line, so the figure is the server's work and the pipe. Run with
// -benchtime=200x for the figures of 200 calls; server's
// BenchmarkMCPSearch/path=bare gives the query alone.
func BenchmarkMCPStdio(b *testing.B) {
	queries := []struct{ name, query string }{{"rare", "outbox replay"}, {"common", "billing lag"}}
	b.Run("client=sdk", func(b *testing.B) {
		p := startMCP(b, b.TempDir(), "--no-default-roots", "--root", examples, "--root", mcpFixtures)
		for _, q := range queries {
			b.Run("query="+q.name, func(b *testing.B) {
				p.waitHits(b, q.query)
				args := map[string]any{"query": q.query}
				calltime.Measure(b, func() {
					if res := p.call(b, "search_conversations", args); res.IsError {
						b.Fatal(resultText(res))
					}
				})
			})
		}
	})
	b.Run("client=raw", func(b *testing.B) {
		home := b.TempDir()
		// The index is built first, so every call finds the same hits.
		index := exec.Command(binary, "index", "--no-default-roots", "--root", examples, "--root", mcpFixtures)
		index.Env = daemonEnv(home)
		if out, err := index.CombinedOutput(); err != nil {
			b.Fatalf("index: %v\n%s", err, out)
		}
		cmd := exec.Command(binary, "mcp", "--no-default-roots", "--root", examples, "--root", mcpFixtures)
		cmd.Env = daemonEnv(home)
		stdin, _ := cmd.StdinPipe()
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		defer func() { stdin.Close(); cmd.Wait() }()
		r := bufio.NewReaderSize(stdout, 1<<20)
		id := 0
		send := func(method string, params any) []byte {
			id++
			msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
			stdin.Write(append(msg, '\n'))
			line, err := r.ReadBytes('\n')
			if err != nil {
				b.Fatal(err)
			}
			return line
		}
		send("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "raw", "version": "0"}})
		stdin.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
		for _, q := range queries {
			b.Run("query="+q.name, func(b *testing.B) {
				params := map[string]any{"name": "search_conversations", "arguments": map[string]any{"query": q.query}}
				if line := send("tools/call", params); !bytes.Contains(line, []byte(`"hits":[{`)) {
					b.Fatalf("no hits: %s", line)
				}
				calltime.Measure(b, func() { send("tools/call", params) })
			})
		}
		// The floor: a request that does nothing.
		b.Run("method=ping", func(b *testing.B) {
			calltime.Measure(b, func() { send("ping", map[string]any{}) })
		})
	})
}
