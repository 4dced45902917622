// Package copilot reads the conversations of GitHub Copilot: the Copilot
// CLI's session logs (family copilot-cli, see CLI) and the chat sessions of
// Copilot Chat in VS Code and its forks (family copilot-vscode, see VSCode).
package copilot

import (
	"encoding/json"

	"github.com/convsearch/convsearch/parsers/loose"
)

// titleLen is the most runes a title derived from a prompt keeps.
const titleLen = 80

// argText returns tool arguments as text: an object as compact JSON, a
// string holding JSON reformatted, payloads stripped.
func argText(raw json.RawMessage) string {
	s := loose.String(raw)
	if loose.Lead(raw) == '"' {
		s = loose.JSONText(s)
	}
	return loose.Clean(s)
}
