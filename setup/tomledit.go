package setup

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// TOML is edited as text: only the lines of one table (and its subtables)
// change, so the rest of the file stays byte for byte what it was, comments
// included. The result is parsed before it is written.

// tomlTable is the header's dotted key, e.g. ["mcp_servers", "convsearch"].
type tomlTable []string

func (t tomlTable) header() string { return "[" + strings.Join(t, ".") + "]" }

// headerKey is the key of a [table] header line, quotes and spaces taken
// out; nil when the line is not a table header (an [[array]] is not ours).
func headerKey(line string) []string {
	s := strings.TrimSpace(line)
	if !strings.HasPrefix(s, "[") || strings.HasPrefix(s, "[[") {
		return nil
	}
	end := strings.Index(s, "]")
	if end < 0 {
		return nil
	}
	if rest := strings.TrimSpace(s[end+1:]); rest != "" && !strings.HasPrefix(rest, "#") {
		return nil
	}
	parts := strings.Split(s[1:end], ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return parts
}

func isTableLine(line string) bool {
	s := strings.TrimSpace(line)
	return strings.HasPrefix(s, "[")
}

func isBlankOrComment(line string) bool {
	s := strings.TrimSpace(line)
	return s == "" || strings.HasPrefix(s, "#")
}

// tomlBlock finds the table's lines: from its header to the last key line
// before the next table that is not one of its subtables (start < 0: no
// such table).
func tomlBlock(lines []string, t tomlTable) (start, end int) {
	start = -1
	for i, l := range lines {
		if k := headerKey(l); k != nil && slices.Equal(k, t) {
			start = i
			break
		}
	}
	if start < 0 {
		return -1, -1
	}
	end = len(lines)
	for i := start + 1; i < len(lines); i++ {
		if !isTableLine(lines[i]) {
			continue
		}
		if k := headerKey(lines[i]); k != nil && len(k) > len(t) && slices.Equal(k[:len(t)], t) {
			continue
		}
		if k := strings.TrimSpace(lines[i]); strings.HasPrefix(k, "[["+strings.Join(t, ".")+".") {
			continue
		}
		end = i
		break
	}
	// Comments just above the next table belong to it.
	for end > start+1 && isBlankOrComment(lines[end-1]) {
		end--
	}
	return start, end
}

// splitLines splits data after each newline; the last element has no
// newline (and is empty when data ends with one).
func splitLines(data string) []string { return strings.SplitAfter(data, "\n") }

// tomlValue is the value the parsed file gives the table t, and whether
// it defines t at all.
func tomlValue(data []byte, t tomlTable) (any, bool, error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, false, err
	}
	var cur any = doc
	for _, k := range t {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false, nil
		}
		if cur, ok = m[k]; !ok {
			return nil, false, nil
		}
	}
	return cur, true, nil
}

// setTOML makes table t run command with "mcp" as its first argument,
// appending the table at the end of the file when it is not there. Only
// what setup owns changes in a table that is there: the command line, and
// "mcp" put first in args; the user's other keys and subtables stay.
func setTOML(data []byte, t tomlTable, command string) ([]byte, error) {
	tbl, defined, err := tomlValue(data, t)
	if err != nil {
		return nil, err
	}
	lines := splitLines(string(data))
	start, end := tomlBlock(lines, t)
	var out string
	if start < 0 {
		if defined {
			return nil, fmt.Errorf("%s is defined in a form setup does not edit (dotted keys or an inline table): change it by hand", strings.Join(t, "."))
		}
		out = string(data)
		if out != "" {
			if !strings.HasSuffix(out, "\n") {
				out += "\n"
			}
			out += "\n"
		}
		out += t.header() + "\n" + "command = " + tomlString(command) + "\nargs = [\"mcp\"]\n"
	} else {
		m, _ := tbl.(map[string]any)
		curCommand := m["command"]
		curArgs, _ := m["args"].([]any)
		_, hasArgs := m["args"]
		if curCommand == command && len(curArgs) > 0 && curArgs[0] == "mcp" {
			return data, nil
		}
		// The table's own lines: up to its first subtable.
		own := end
		for i := start + 1; i < end; i++ {
			if isTableLine(lines[i]) {
				own = i
				break
			}
		}
		nl := "\n"
		if strings.HasSuffix(lines[start], "\r\n") {
			nl = "\r\n"
		}
		cmdLine := "command = " + tomlString(command) + nl
		ci := tomlKeyLine(lines, start+1, own, "command")
		if ci >= 0 && curCommand != command {
			lines[ci] = cmdLine
		}
		ai := tomlKeyLine(lines, start+1, own, "args")
		switch {
		case !hasArgs:
			at := start + 1
			if ci >= 0 {
				at = ci + 1
			}
			lines = slices.Insert(lines, at, "args = [\"mcp\"]"+nl)
		case ai >= 0 && (len(curArgs) == 0 || curArgs[0] != "mcp"):
			l := lines[ai]
			eq := strings.Index(l, "=")
			br := strings.Index(l[eq+1:], "[")
			if eq < 0 || br < 0 {
				return nil, fmt.Errorf("%s.args is in a form setup does not edit: put \"mcp\" first by hand", strings.Join(t, "."))
			}
			p := eq + 1 + br + 1
			ins := `"mcp", `
			if len(curArgs) == 0 {
				ins = `"mcp"`
			}
			lines[ai] = l[:p] + ins + l[p:]
		}
		if ci < 0 {
			lines = slices.Insert(lines, start+1, cmdLine)
		}
		out = strings.Join(lines, "")
	}
	if err := toml.Unmarshal([]byte(out), new(map[string]any)); err != nil {
		return nil, fmt.Errorf("the edited file would not parse: %w", err)
	}
	return []byte(out), nil
}

// tomlKeyLine is the index of the line among lines[from:to] that sets key,
// -1 when none does.
func tomlKeyLine(lines []string, from, to int, key string) int {
	for i := from; i < to; i++ {
		s := strings.TrimSpace(lines[i])
		for _, k := range []string{key, `"` + key + `"`, "'" + key + "'"} {
			if rest, ok := strings.CutPrefix(s, k); ok && strings.HasPrefix(strings.TrimSpace(rest), "=") {
				return i
			}
		}
	}
	return -1
}

// removeTOML takes table t (and its subtables) out, with the blank line
// setTOML put before it at the end of the file.
func removeTOML(data []byte, t tomlTable) ([]byte, error) {
	_, defined, err := tomlValue(data, t)
	if err != nil {
		return nil, err
	}
	lines := splitLines(string(data))
	start, end := tomlBlock(lines, t)
	if start < 0 {
		if defined {
			return nil, errors.New(strings.Join(t, ".") + " is defined in a form setup does not edit (dotted keys or an inline table): remove it by hand")
		}
		return data, nil
	}
	// Blank lines after the table go with it.
	for end < len(lines) && strings.TrimSpace(lines[end]) == "" && lines[end] != "" {
		end++
	}
	atEOF := end == len(lines) || (end == len(lines)-1 && lines[end] == "")
	if atEOF && start > 0 && strings.TrimSpace(lines[start-1]) == "" {
		start--
	}
	out := strings.Join(lines[:start], "") + strings.Join(lines[end:], "")
	if err := toml.Unmarshal([]byte(out), new(map[string]any)); err != nil {
		return nil, fmt.Errorf("the edited file would not parse: %w", err)
	}
	return []byte(out), nil
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	b, _ := toml.Marshal(map[string]string{"s": s})
	v := strings.TrimSpace(string(b))
	return strings.TrimSpace(strings.TrimPrefix(v, "s ="))
}
