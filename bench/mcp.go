package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// MCPFigures are round trips of search_conversations over stdio to
// `convsearch mcp`, next to the same query run in process.
type MCPFigures struct {
	Query  string  `json:"query"`
	Calls  int     `json:"calls"`
	P50MS  float64 `json:"p50_ms"`
	P95MS  float64 `json:"p95_ms"`
	PingMS float64 `json:"ping_p50_ms"` // a request that does nothing: the pipe's floor
}

// timeMCP starts `exe mcp` on the index in dataDir and times n calls of
// search_conversations with a raw JSON-RPC client, so the figure is the
// server's work and the pipe, not a client library's.
func timeMCP(ctx context.Context, exe, dataDir, query string, n int) (*MCPFigures, error) {
	cmd := exec.CommandContext(ctx, exe, "mcp", "--data-dir", dataDir, "--no-default-roots")
	cmd.Stderr = io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	r := bufio.NewReaderSize(stdout, 1<<20)
	id := 0
	send := func(method string, params any) ([]byte, error) {
		id++
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		if _, err := stdin.Write(append(msg, '\n')); err != nil {
			return nil, err
		}
		return r.ReadBytes('\n')
	}
	if _, err := send("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "bench", "version": "0"}}); err != nil {
		return nil, fmt.Errorf("mcp initialize: %w", err)
	}
	stdin.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	params := map[string]any{"name": "search_conversations", "arguments": map[string]any{"query": query}}
	// The server may still be opening the index: wait for a real answer.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		line, err := send("tools/call", params)
		if err != nil {
			return nil, fmt.Errorf("mcp call: %w", err)
		}
		if bytes.Contains(line, []byte(`"hits":[{`)) {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("mcp: no hits for %q: %.300s", query, line)
		}
		time.Sleep(500 * time.Millisecond)
	}
	timeN := func(method string, p any) ([]time.Duration, error) {
		var ds []time.Duration
		for range n + 5 {
			start := time.Now()
			if _, err := send(method, p); err != nil {
				return nil, err
			}
			ds = append(ds, time.Since(start))
		}
		return ds[5:], nil
	}
	calls, err := timeN("tools/call", params)
	if err != nil {
		return nil, err
	}
	pings, err := timeN("ping", map[string]any{})
	if err != nil {
		return nil, err
	}
	p50, p95, _ := percentiles(calls)
	ping, _, _ := percentiles(pings)
	return &MCPFigures{Query: query, Calls: n, P50MS: p50, P95MS: p95, PingMS: ping}, nil
}
