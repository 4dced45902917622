package opencode

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// parseFiles reads a session file and the message and part files beside
// it. A message or part file that cannot be read is a warning; the rest is
// kept.
func parseFiles(ctx context.Context, path string, r io.Reader) (*parsers.Result, error) {
	data, err := loose.ReadAll(path, r)
	if err != nil {
		return nil, err
	}
	var s sessionInfo
	if err := loose.Unmarshal(path, data, &s); err != nil {
		return nil, err
	}
	res := &parsers.Result{}
	var msgs []rawMessage
	for _, mf := range messageFiles(path) {
		if err := ctx.Err(); err != nil {
			return nil, parsers.Wrap(path, 0, err)
		}
		var in messageInfo
		if !readSide(path, mf, &in, res) {
			continue
		}
		rm := rawMessage{id: strings.TrimSuffix(filepath.Base(mf), ".json"), info: in, created: loose.Time(in.Time.Created)}
		if id := loose.String(in.ID); id != "" {
			rm.id = id
		}
		for _, raw := range in.Parts {
			var p part
			if json.Unmarshal(raw, &p) == nil {
				rm.parts = append(rm.parts, p)
			}
		}
		for _, pf := range partFiles(path, rm.id) {
			var p part
			if readSide(path, pf, &p, res) {
				rm.parts = append(rm.parts, p)
			}
		}
		msgs = append(msgs, rm)
	}
	// The session id is the file's name when the file says none.
	fallback := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	res.Conversations = append(res.Conversations, build(path, s, fallback, msgs))
	return res, nil
}

// readSide reads a message or part file into v. A file gone since it was
// listed is skipped quietly (OpenCode removes messages on revert); one that
// cannot be decoded is a warning on the session file naming it.
func readSide(primary, path string, v any, res *parsers.Result) bool {
	found, err := loose.ReadSideFile(path, 0, v)
	if err != nil {
		res.Warn(&parsers.Error{Path: primary, Err: fmt.Errorf("side file %w", err)})
		return false
	}
	return found
}
