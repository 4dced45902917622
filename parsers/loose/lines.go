package loose

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/convsearch/convsearch/parsers"
)

// EachLine calls fn with every line of a JSON Lines file, numbered from 1,
// newline included and a byte-order mark stripped from the first. Lines may
// be of any length (bufio.Scanner's 64 KB cap would cut a pasted PDF or a
// long tool output), but a JSON string in a line is cut after
// MaxStringBytes. It checks ctx before the first line and every 256 after;
// errors name path and the line.
//
// A line that starts like a JSON record but is not one object is looked
// into for complete records (see splitRecords): a record a crash tore, with
// the next record appended to it on the same line, or records glued
// together (`}{`). Then fn is called with each record found, and with each
// piece between them that is not one (a torn record, to be reported bad),
// all with the same n; the pieces have no newline.
func EachLine(ctx context.Context, path string, r io.Reader, fn func(n int, line []byte)) error {
	return eachLine(ctx, path, r, true, fn)
}

// EachTextLine is EachLine for a file of text lines, not of JSON records:
// every line is given whole.
func EachTextLine(ctx context.Context, path string, r io.Reader, fn func(n int, line []byte)) error {
	return eachLine(ctx, path, r, false, fn)
}

func eachLine(ctx context.Context, path string, r io.Reader, split bool, fn func(n int, line []byte)) error {
	br := bufio.NewReaderSize(newCapStrings(r, MaxStringBytes), 64<<10)
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
				line = bytes.TrimPrefix(line, bom)
			}
			var parts [][]byte
			if split {
				parts = splitRecords(line)
			}
			if parts == nil {
				fn(n, line)
			}
			for _, part := range parts {
				fn(n, part)
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return parsers.Wrap(path, n, fmt.Errorf("read: %w", err))
		}
	}
}

// Lines decodes the lines of a JSON Lines file, one value each, and keeps
// the count every such parser needs: a line that does not decode is a
// warning naming the file and the line (a syntax error, or a shape error
// for a value of the wrong type), and Unreadable tells a file with a few
// bad lines from one of which not a line could be read, which is not of the
// format at all.
type Lines struct {
	Path string
	Res  *parsers.Result // receives the warnings

	count, bad int
	firstBad   error
}

// Decode unmarshals line n into v and reports whether it could. A blank
// line is skipped (false, no warning); a bad one is a warning, and so are
// NUL bytes skipped before a record that is read.
func (l *Lines) Decode(n int, line []byte, v any) bool {
	return l.DecodeWith(n, line, func(rec []byte) error { return json.Unmarshal(rec, v) })
}

// DecodeWith is Decode for a parser that decodes a record its own way
// (numbers kept as written, or into two values): decode gets the record,
// trimmed and past any NUL bytes, and its error makes the line a bad one.
func (l *Lines) DecodeWith(n int, line []byte, decode func(rec []byte) error) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return false
	}
	l.count++
	// A crash or a preallocated file can leave NUL bytes glued to the start
	// of a record: read the record after them, and warn. A line of NUL
	// bytes alone stays a bad line, so a file of nothing else is unreadable.
	nuls := 0
	if rest := bytes.TrimSpace(bytes.TrimLeft(line, "\x00")); len(rest) > 0 {
		nuls = len(line) - len(bytes.TrimLeft(line, "\x00"))
		line = rest
	}
	if err := decode(line); err != nil {
		l.Bad(n, err)
		return false
	}
	if nuls > 0 {
		l.Res.Warn(parsers.Errorf(l.Path, n, parsers.ErrSyntax, "skipped %d NUL bytes before the record", nuls))
	}
	return true
}

// Bad records line n as unreadable because of err, a decoding error of the
// line or of a value inside it.
func (l *Lines) Bad(n int, err error) {
	kind := parsers.ErrSyntax
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		kind = parsers.ErrShape
	}
	werr := parsers.Errorf(l.Path, n, kind, "%v", err)
	l.Res.Warn(werr)
	if l.firstBad == nil {
		l.firstBad = werr
	}
	l.bad++
}

// Count is how many lines were not blank.
func (l *Lines) Count() int { return l.count }

// Unreadable returns the first bad line's error when there were lines and
// not one of them could be read; nil otherwise.
func (l *Lines) Unreadable() error {
	if l.count > 0 && l.bad == l.count {
		return l.firstBad
	}
	return nil
}
