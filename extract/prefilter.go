package extract

import (
	"regexp/syntax"
	"unicode/utf8"

	"github.com/convsearch/convsearch/extract/internal/words"
)

// prefixLen is how many bytes of a match a prefilter knows.
const prefixLen = 10

// maxPrefixes bounds a prefilter's expansion; a pattern with more prefixes
// gets none (every position may match).
const maxPrefixes = 4096

// prefilter says cheaply where an anchored pattern cannot match: every match
// starts with one of the pattern's possible first prefixLen bytes (full),
// or, where the pattern ends or turns unbounded sooner, with one of short.
// It is derived from the pattern's syntax, so it never rejects a position
// the pattern matches at; zero-width assertions are ignored, which only
// makes it accept more.
type prefilter struct {
	full  *words.Set
	short []string
	first [4]uint64 // the first bytes of full and short
	any   bool      // no prefilter: the pattern is not anchored, or too large
}

// path is one way through a pattern so far: its bytes, and whether it
// stopped growing (it reached prefixLen, or met something too broad to
// expand).
type path struct {
	b      string
	frozen bool
}

func newPrefilter(pattern string) *prefilter {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return &prefilter{any: true}
	}
	re = re.Simplify()
	if re.Op != syntax.OpConcat || re.Sub[0].Op != syntax.OpBeginText {
		return &prefilter{any: true} // it may match anywhere, not only at the start
	}
	paths, ok := expand(re, []path{{}})
	if !ok {
		return &prefilter{any: true}
	}
	p := &prefilter{}
	var full []string
	seen := map[string]bool{}
	for _, q := range paths {
		if len(q.b) >= prefixLen {
			full = append(full, q.b[:prefixLen])
		} else if !seen[q.b] {
			seen[q.b] = true
			if q.b == "" {
				return &prefilter{any: true}
			}
			p.short = append(p.short, q.b)
		}
	}
	p.full = words.NewSetOf(full)
	for _, s := range append(full, p.short...) {
		p.first[s[0]/64] |= 1 << (s[0] % 64)
	}
	return p
}

// mayMatch reports whether the pattern can match at the start of b.
func (p *prefilter) mayMatch(b []byte) bool {
	if p.any {
		return true
	}
	if len(b) == 0 || p.first[b[0]/64]&(1<<(b[0]%64)) == 0 {
		return false
	}
	if len(b) >= prefixLen && p.full.Has(b[:prefixLen]) {
		return true
	}
	for _, s := range p.short {
		if len(b) >= len(s) && string(b[:len(s)]) == s {
			return true
		}
	}
	return false
}

// expand extends each path by what re can match next. It reports false when
// the expansion grows past maxPrefixes.
func expand(re *syntax.Regexp, in []path) ([]path, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return in, true
	case syntax.OpCapture:
		return expand(re.Sub[0], in)
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return freeze(in), true
		}
		out := in
		for _, r := range re.Rune {
			out = extend(out, []rune{r})
		}
		return out, true
	case syntax.OpCharClass:
		var rs []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				rs = append(rs, r)
				if len(rs) > 8 {
					return freeze(in), true
				}
			}
		}
		out := extend(in, rs)
		return out, len(out) <= maxPrefixes
	case syntax.OpConcat:
		out := in
		for _, sub := range re.Sub {
			var ok bool
			if out, ok = expand(sub, out); !ok {
				return nil, false
			}
		}
		return out, true
	case syntax.OpAlternate:
		var out []path
		for _, sub := range re.Sub {
			o, ok := expand(sub, in)
			if !ok {
				return nil, false
			}
			out = append(out, o...)
		}
		return out, len(out) <= maxPrefixes
	case syntax.OpQuest:
		o, ok := expand(re.Sub[0], in)
		if !ok {
			return nil, false
		}
		out := append(append([]path(nil), in...), o...)
		return out, len(out) <= maxPrefixes
	case syntax.OpPlus:
		// x+ is x then x*: the paths stop after one x.
		o, ok := expand(re.Sub[0], in)
		if !ok {
			return nil, false
		}
		return freeze(o), true
	}
	// x*, any character, and what else is too broad: the paths stop here,
	// which accepts whatever follows.
	return freeze(in), true
}

// extend appends each of rs to every growing path.
func extend(in []path, rs []rune) []path {
	out := make([]path, 0, len(in)*len(rs))
	for _, p := range in {
		if p.frozen {
			out = append(out, p)
			continue
		}
		for _, r := range rs {
			b := p.b + string(utf8.AppendRune(nil, r))
			out = append(out, path{b, len(b) >= prefixLen})
		}
	}
	return out
}

func freeze(in []path) []path {
	out := make([]path, len(in))
	for i, p := range in {
		out[i] = path{p.b, true}
	}
	return out
}
