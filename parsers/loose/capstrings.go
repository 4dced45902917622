package loose

import "io"

// MaxStringBytes is the most of one JSON string a parser is given: longer
// strings are cut as they are read, before any decoder holds them. A 500 MB
// message otherwise sat in memory several times over (the line, the raw
// value, the decoded string) and took the machine with it. 8 MiB keeps any
// text a person wrote, and JSON carried inside strings (tool arguments)
// whole; the indexer keeps less still (indexer.DefaultMaxTextBytes).
const MaxStringBytes = 8 << 20

// capStrings passes JSON through, cutting every string literal after max
// bytes (at a rune boundary, never inside an escape), so that what follows
// stays valid JSON. No newline is ever dropped, and a raw newline ends a
// string (it cannot be inside one in valid JSON), so line numbers hold and a
// broken line does not spill into the next.
type capStrings struct {
	r   io.Reader
	max int

	inStr bool
	esc   int // -1 just after a backslash; then the hex digits of a \uXXXX still to come
	n     int // bytes of the current string passed
	cut   bool
}

func newCapStrings(r io.Reader, max int) *capStrings { return &capStrings{r: r, max: max} }

func (c *capStrings) Read(p []byte) (int, error) {
	for {
		n, err := c.r.Read(p)
		k := c.filter(p[:n])
		if k > 0 || err != nil {
			return k, err
		}
	}
}

// filter compacts p in place to what passes and returns its length.
func (c *capStrings) filter(p []byte) int {
	k := 0
	for _, b := range p {
		keep := true
		switch {
		case !c.inStr:
			if b == '"' {
				c.inStr, c.n, c.cut, c.esc = true, -1, false, 0 // the quote is not counted
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
			p[k] = b
			k++
			if c.inStr {
				c.n++
			}
		}
	}
	return k
}
