package loose

import (
	"io"

	"github.com/convsearch/convsearch/parsers"
)

// MaxStringBytes is the most of one JSON string a parser is given: longer
// strings are cut as they are read, before any decoder holds them. A 500 MB
// message otherwise sat in memory several times over (the line, the raw
// value, the decoded string) and took the machine with it. 8 MiB keeps any
// text a person wrote, and JSON carried inside strings (tool arguments)
// whole; the indexer keeps less still (indexer.DefaultMaxTextBytes).
const MaxStringBytes = 8 << 20

// capStrings passes JSON through, cutting every string literal after max
// bytes (at a rune boundary, never inside an escape), so that what follows
// stays valid JSON. A string cut ends with a parsers.CutNote saying how many
// bytes were left out, so the cut does not pass for the whole text (and
// parsers.ParseFile warns of it). No newline is ever dropped, and a raw
// newline ends a string (it cannot be inside one in valid JSON), so line
// numbers hold and a broken line does not spill into the next.
type capStrings struct {
	r   io.Reader
	max int

	buf  []byte // read from r
	obuf []byte // what passed of buf, with any notes
	out  []byte // the part of obuf not yet returned
	err  error  // r's error, returned once out is drained

	inStr bool
	esc   int // -1 just after a backslash; then the hex digits of a \uXXXX still to come
	n     int // bytes of the current string passed
	cut   bool
	left  int64 // bytes of the current string left out
}

func newCapStrings(r io.Reader, max int) *capStrings { return &capStrings{r: r, max: max} }

func (c *capStrings) Read(p []byte) (int, error) {
	for len(c.out) == 0 {
		if c.err != nil {
			return 0, c.err
		}
		if c.buf == nil {
			c.buf = make([]byte, 32<<10)
		}
		n, err := c.r.Read(c.buf)
		c.obuf = c.filter(c.obuf[:0], c.buf[:n])
		c.out, c.err = c.obuf, err
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}

// filter appends to dst what of p passes, and the note at the end of each
// string cut.
func (c *capStrings) filter(dst, p []byte) []byte {
	for _, b := range p {
		keep := true
		switch {
		case !c.inStr:
			if b == '"' {
				c.inStr, c.n, c.cut, c.esc, c.left = true, -1, false, 0, 0 // the quote is not counted
			}
		case b == '\n':
			c.inStr = false
		case c.esc < 0:
			c.esc = 0
			if b == 'u' {
				c.esc = 4
			}
			keep = !c.cut
		case c.esc > 0:
			c.esc--
			keep = !c.cut
		case b == '"':
			c.inStr = false
			if c.cut {
				dst = append(dst, parsers.CutNote(c.left)...)
			}
		default:
			if !c.cut && c.n >= c.max && b&0xC0 != 0x80 {
				c.cut = true
			}
			if b == '\\' {
				c.esc = -1
			}
			keep = !c.cut
		}
		if keep {
			dst = append(dst, b)
			if c.inStr {
				c.n++
			}
		} else {
			c.left++
		}
	}
	return dst
}
