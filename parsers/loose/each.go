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

// DecodeEach reads an export that is a JSON array of conversations, or one
// conversation given alone as an object, decoding one element at a time into
// a new T so the whole file is never held in memory, and cutting each string
// after MaxStringBytes. fn gets each element with its index and the line it
// starts on.
//
// An element of the wrong shape is skipped with a warning (a field of the
// wrong type is warned about and the element still given to fn). A syntax
// error stops the read: it is returned when no element was read yet, and
// recorded as a warning after the elements read so far otherwise, so a cut
// export still yields what it holds. Errors and warnings name path and the
// line.
func DecodeEach[T any](ctx context.Context, path string, r io.Reader, res *parsers.Result, fn func(i, line int, v *T)) error {
	return decodeEach(ctx, path, r, res, fn, nil)
}

// Mended says how DecodeEachMended reads the element a tear went through.
type Mended[T any] struct {
	// Unit is the unit Mend cuts the torn element back in: the array of
	// its messages, so that the message the tear cut is dropped.
	Unit func(path []string) bool
	// Keep is given the mended element, with its index and line; it reads
	// it and says what it kept ("its 3 complete messages"), or "" when it
	// kept nothing.
	Keep func(i, line int, v *T) string
}

// DecodeEachMended is DecodeEach for an export cut short inside an element
// (a partial copy or download): that element is mended (see Mend) and given
// to m.Keep, so the complete messages of the conversation the tear went
// through are kept too, with a warning that says so.
func DecodeEachMended[T any](ctx context.Context, path string, r io.Reader, res *parsers.Result, fn func(i, line int, v *T), m Mended[T]) error {
	return decodeEach(ctx, path, r, res, fn, &m)
}

func decodeEach[T any](ctx context.Context, path string, r io.Reader, res *parsers.Result, fn func(i, line int, v *T), m *Mended[T]) error {
	br := bufio.NewReaderSize(newCapStrings(r, MaxStringBytes), maxRead)
	first, lines, err := firstByte(br)
	if errors.Is(err, io.EOF) {
		return parsers.Errorf(path, 0, parsers.ErrSyntax, "empty file")
	}
	if err != nil {
		return parsers.ReadError(path, err)
	}
	lc := &lineCounter{r: br, lines: lines}
	dec := json.NewDecoder(lc)
	switch first {
	case '{':
		var v T
		if err := dec.Decode(&v); err != nil {
			if _, ok := errors.AsType[*json.UnmarshalTypeError](err); !ok {
				if mendTorn(path, dec, lc, err, 0, lines+1, res, m) {
					return nil
				}
				return syntaxError(path, dec, lc, err)
			}
			res.Warn(parsers.Errorf(path, lines+1, parsers.ErrShape, "%v", err))
		}
		fn(0, lines+1, &v)
		return nil
	case '[':
	default:
		return parsers.Errorf(path, lines+1, parsers.ErrShape, "not an export: want a JSON array or object, found %q", first)
	}
	if _, err := dec.Token(); err != nil {
		return syntaxError(path, dec, lc, err)
	}
	n := 0
	for ; dec.More(); n++ {
		if err := ctx.Err(); err != nil {
			return parsers.Wrap(path, 0, err)
		}
		line := valueLine(dec, lc)
		var v T
		if err := dec.Decode(&v); err != nil {
			te, ok := errors.AsType[*json.UnmarshalTypeError](err)
			if !ok {
				if mendTorn(path, dec, lc, err, n, line, res, m) {
					return nil
				}
				return stopAt(path, dec, lc, err, n, res)
			}
			if te.Field == "" {
				res.Warn(parsers.Errorf(path, line, parsers.ErrShape, "element %d is a JSON %s, not an object: skipped", n, te.Value))
				continue
			}
			res.Warn(parsers.Errorf(path, line, parsers.ErrShape, "element %d: %v", n, err))
		}
		fn(n, line, &v)
	}
	if _, err := dec.Token(); err != nil {
		return stopAt(path, dec, lc, err, n, res)
	}
	return nil
}

// maxRead caps each read the JSON decoder makes. The decoder keeps what it
// read past the current value; a small cap keeps that remainder small, so
// counting its lines (to place errors and warnings) stays cheap even after
// the decoder's buffer has grown to hold a huge conversation.
const maxRead = 64 << 10

// lineCounter counts the newlines of everything handed to the decoder.
type lineCounter struct {
	r     io.Reader
	lines int
}

func (c *lineCounter) Read(p []byte) (int, error) {
	if len(p) > maxRead {
		p = p[:maxRead]
	}
	n, err := c.r.Read(p)
	c.lines += bytes.Count(p[:n], []byte{'\n'})
	return n, err
}

// newlineWriter counts newlines written to it without keeping the bytes.
type newlineWriter int

func (w *newlineWriter) Write(p []byte) (int, error) {
	*w += newlineWriter(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}

// valueLine is the 1-based line where the decoder's next value begins: its
// unread data, past the comma and white space before the value.
func valueLine(dec *json.Decoder, lc *lineCounter) int {
	rest := dec.Buffered()
	if bs, ok := rest.(io.ByteScanner); ok {
		for {
			c, err := bs.ReadByte()
			if err != nil {
				break
			}
			if c != ',' && c != ' ' && c != '\t' && c != '\r' && c != '\n' {
				_ = bs.UnreadByte()
				break
			}
		}
	}
	var after newlineWriter
	_, _ = io.Copy(&after, rest)
	return lc.lines - int(after) + 1
}

// errorLine places a decoder error on a line: the unread data begins where the
// failing value began, so scanning it again alone finds the bad byte.
func errorLine(dec *json.Decoder, lc *lineCounter) int {
	rest, _ := io.ReadAll(dec.Buffered())
	start := lc.lines - bytes.Count(rest, []byte{'\n'}) + 1
	var raw json.RawMessage
	err := json.NewDecoder(bytes.NewReader(rest)).Decode(&raw)
	off := int64(0)
	switch se, ok := errors.AsType[*json.SyntaxError](err); {
	case ok:
		off = se.Offset
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		off = int64(len(rest))
	}
	off = min(max(off, 0), int64(len(rest)))
	return start + bytes.Count(rest[:off], []byte{'\n'})
}

// mendTorn reads element n, which the end of the file cut (err is the
// decoder's), by mending it and giving it to m.Keep. It reports whether
// anything of it was kept, with a warning after the n elements before it.
func mendTorn[T any](path string, dec *json.Decoder, lc *lineCounter, err error, n, line int, res *parsers.Result, m *Mended[T]) bool {
	if m == nil || !errors.Is(err, io.ErrUnexpectedEOF) {
		return false
	}
	rest, rerr := io.ReadAll(dec.Buffered())
	if rerr != nil {
		return false
	}
	mended, ok := Mend(rest, m.Unit)
	if !ok {
		return false
	}
	var v T
	if uerr := json.Unmarshal(mended, &v); uerr != nil {
		if _, ok := errors.AsType[*json.UnmarshalTypeError](uerr); !ok {
			return false
		}
	}
	kept := m.Keep(n, line, &v)
	if kept == "" {
		return false
	}
	serr := syntaxError(path, dec, lc, err)
	if n > 0 {
		kept = fmt.Sprintf("the %s before the tear and %s", countOf(n, "conversation"), kept)
	}
	res.Warn(fmt.Errorf("%w (the file was cut short: kept %s; the part the tear went through was dropped)", serr, kept))
	return true
}

// stopAt ends a read at a syntax error: an error if nothing was read, a
// warning after the n elements read.
func stopAt(path string, dec *json.Decoder, lc *lineCounter, err error, n int, res *parsers.Result) error {
	serr := syntaxError(path, dec, lc, err)
	if n == 0 {
		return serr
	}
	res.Warn(fmt.Errorf("%w (kept the %s before it)", serr, countOf(n, "conversation")))
	return nil
}

// countOf is "1 conversation", "2 conversations".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func syntaxError(path string, dec *json.Decoder, lc *lineCounter, err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = errors.New("unexpected end of file")
	} else if _, ok := errors.AsType[*json.SyntaxError](err); !ok {
		return parsers.ReadError(path, err)
	}
	return parsers.Errorf(path, errorLine(dec, lc), parsers.ErrSyntax, "%v", err)
}

// firstByte returns the first byte of r that is not white space (after any
// UTF-8 byte order mark), left unread, and the number of lines skipped.
func firstByte(br *bufio.Reader) (byte, int, error) {
	if head, _ := br.Peek(len(bom)); bytes.Equal(head, bom) {
		_, _ = br.Discard(len(bom))
	}
	lines := 0
	for {
		c, err := br.ReadByte()
		if err != nil {
			return 0, lines, err
		}
		switch c {
		case '\n':
			lines++
		case ' ', '\t', '\r':
		default:
			return c, lines, br.UnreadByte()
		}
	}
}
