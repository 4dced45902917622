// Package all lists every parser family convsearch ships, in detection order.
// It is the one place a new family is added.
package all

import (
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/aider"
	"github.com/convsearch/convsearch/parsers/browserexport"
	"github.com/convsearch/convsearch/parsers/chatgpt"
	"github.com/convsearch/convsearch/parsers/claudeai"
	"github.com/convsearch/convsearch/parsers/claudecode"
	"github.com/convsearch/convsearch/parsers/cline"
	"github.com/convsearch/convsearch/parsers/codex"
	"github.com/convsearch/convsearch/parsers/copilot"
	"github.com/convsearch/convsearch/parsers/cursor"
	"github.com/convsearch/convsearch/parsers/fnord"
	"github.com/convsearch/convsearch/parsers/gemini"
	"github.com/convsearch/convsearch/parsers/goose"
	"github.com/convsearch/convsearch/parsers/kirosession"
	"github.com/convsearch/convsearch/parsers/opencode"
	"github.com/convsearch/convsearch/parsers/personalagent"
	"github.com/convsearch/convsearch/parsers/portable"
	"github.com/convsearch/convsearch/parsers/qcli"
	"github.com/convsearch/convsearch/parsers/qclistore"
	"github.com/convsearch/convsearch/parsers/rao"
	"github.com/convsearch/convsearch/parsers/studio"
	"github.com/convsearch/convsearch/parsers/zed"
)

// Registry returns a registry of every family. The most specific detectors
// come first: formats recognised by their file name or a marker line before
// generic JSON shapes, and the portable format, the most generic, last.
func Registry() *parsers.Registry {
	return parsers.NewRegistry(
		qclistore.New(),
		goose.New(), zed.New(), // sessions.db, goose .jsonl metadata, threads.db: by name and head
		personalagent.New(),             // YYYYMMDDHHMMSS###.jsonl: by name, wherever it sits
		cursor.New(), cursor.NewAgent(), // state.vscdb, store.db and agent-transcripts/: by place and name
		fnord.New(),
		rao.New(),
		cline.New(), opencode.New(), aider.New(), // by file name and place
		gemini.New(), gemini.NewQwen(), // before claudecode: Qwen's records share its uuid keys
		kirosession.New(),
		claudecode.New(),
		codex.New(),
		copilot.NewCLI(),
		copilot.NewVSCode(),
		qcli.New(),
		studio.New(),
		claudeai.New(),
		chatgpt.New(),
		browserexport.New(),
		portable.New(),
	)
}
