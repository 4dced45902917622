package portable

import (
	"testing"

	"github.com/convsearch/convsearch/parsers/parsertest"
)

// Counts and roles below were read from the files with python's json module,
// not from this parser's output.
func TestSuite(t *testing.T) {
	parsertest.Run(t, New(), []parsertest.Case{
		// The spec's own example, byte for byte.
		{File: "testdata/conversations/20251127-abc123.json", Want: []parsertest.Want{{ID: "20251127-abc123", Title: "Project Discussion", Messages: 2, Roles: "ua"}}},
		// As sync_from_q.py writes a Kiro CLI conversation: naive
		// microsecond times, null timestamps, project_path and
		// q_conversation_id, \u escapes.
		{File: "testdata/conversations/20251127-b6247f39.json", Want: []parsertest.Want{{ID: "20251127-b6247f39", Title: "Q CLI: graph-tools", Messages: 6, Roles: "uauaua"}}},
		// As its browser importer writes a thread: Z times, thread_id.
		{File: "testdata/conversations/20251128-2ee84c84.json", Want: []parsertest.Want{{ID: "20251128-2ee84c84", Title: "Parquet file sizes for DuckDB", Messages: 4, Roles: "uaua"}}},
		// Curated: null project, no source, topics, decisions, artifacts.
		{File: "testdata/conversations/20251202-7c41d9ab.json", Want: []parsertest.Want{{ID: "20251202-7c41d9ab", Title: "API rate limiting: token bucket vs sliding window", Messages: 5, Roles: "uauau"}}},
		// Liberal reading: BOM, numeric id and date, no title, sender/text,
		// content blocks, odd roles, a null and a bare-string message.
		{File: "testdata/conversations/quirks.json", Want: []parsertest.Want{{ID: "20251203", Title: "Why does my Go test hang only under -race?", Messages: 8, Roles: "uaasstua"}}, Warnings: 2},
		// Written by Marshal (see TestMarshalGolden): every extra key.
		{File: "testdata/conversations/exported.json", Want: []parsertest.Want{{ID: "7f3e2a10-4b5c-4d6e-8f90-a1b2c3d4e5f6", Title: "Flaky integration test: retry policy for the payments client", Messages: 9, Roles: "suatatuas"}}},
		{File: "../../examples/portable/conversations/20251209-8e331780.json", Want: []parsertest.Want{{ID: "20251209-8e331780", Title: "Genome browser API: 1-based or 0-based coordinates", Messages: 8, Roles: "uauauaua"}}},
		{File: "../../examples/portable/conversations/20251211-93ffce75.json", Want: []parsertest.Want{{ID: "20251211-93ffce75", Title: "Postgres job queue: advisory locks vs lease table", Messages: 8, Roles: "uauauaua"}}},
	})
}

func FuzzParse(f *testing.F) {
	parsertest.Fuzz(f, New(), "20251127-abc123.json",
		"testdata/conversations/20251127-abc123.json",
		"testdata/conversations/20251127-b6247f39.json",
		"testdata/conversations/20251202-7c41d9ab.json",
		"testdata/conversations/quirks.json",
		"testdata/conversations/exported.json",
		"testdata/conversations/index.json",
	)
}
