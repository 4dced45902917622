package loose

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/convsearch/convsearch/parsers"
)

// EachLine calls fn with every line of a JSON Lines file, numbered from 1,
// newline included and a byte-order mark stripped from the first. Lines may
// be of any length (bufio.Scanner's 64 KB cap would cut a pasted PDF or a
// long tool output). It checks ctx before the first line and every 256
// after; errors name path and the line.
func EachLine(ctx context.Context, path string, r io.Reader, fn func(n int, line []byte)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 0; ; {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return parsers.Wrap(path, n, err)
			}
		}
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			n++
			if n == 1 {
				line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
			}
			fn(n, line)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return parsers.Wrap(path, n, fmt.Errorf("read: %w", err))
		}
	}
}
