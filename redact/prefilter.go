package redact

import "strings"

// maxRules bounds the number of regexp rules.
const maxRules = 128

// ruleSet is a set of rule indexes.
type ruleSet [maxRules / 64]uint64

func (s *ruleSet) add(i int)      { s[i/64] |= 1 << (i % 64) }
func (s *ruleSet) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }

// literal is a keyword and the rules it wakes. off is where its anchor
// sits in text.
type literal struct {
	text  string
	off   int
	rules ruleSet
}

// prefilter finds rules' keywords in a text. Each keyword has an anchor: its
// first two bytes of which one is rare in prose, that is not a lower-case
// letter or a blank (p_ of ghp_, k- of sk-, AK of AKIA). The text is scanned
// for rare bytes; only at one is a bitmap of anchors probed, and only on a
// hit are the keywords with that anchor compared. A keyword with no rare
// byte (dapi) is looked for with strings.Index, one pass for the keywords
// that start with the same four bytes (password and passcode share pass).
// Keywords are case-sensitive: tokens have fixed prefixes.
type prefilter struct {
	rare   [256]bool
	bitmap [65536 / 64]uint64
	index  [65536]uint8 // anchor → 1 + position in lists
	lists  [][]literal
	plain  []plainGroup // keywords without a rare byte
}

// plainGroup is the keywords without a rare byte that start with needle.
type plainGroup struct {
	needle string
	lits   []literal
}

func newPrefilter(rules []rule) *prefilter {
	p := &prefilter{}
	if len(rules) > maxRules {
		panic("redact: too many rules")
	}
	for c := range 256 {
		p.rare[c] = !isLower(byte(c)) && c != ' ' && c != '\t' && c != '\n'
	}
	for i, r := range rules {
		for _, kw := range r.keywords {
			p.add(kw, i)
		}
	}
	return p
}

func (p *prefilter) add(kw string, rule int) {
	if len(kw) < 2 {
		panic("redact: keyword shorter than two bytes: " + kw)
	}
	off := -1
	for i := 0; i+1 < len(kw); i++ {
		if p.rare[kw[i]] || p.rare[kw[i+1]] {
			off = i
			break
		}
	}
	if off < 0 {
		needle := kw[:min(4, len(kw))]
		gi := -1
		for i := range p.plain {
			if p.plain[i].needle == needle {
				gi = i
			}
		}
		if gi < 0 {
			gi = len(p.plain)
			p.plain = append(p.plain, plainGroup{needle: needle})
		}
		g := &p.plain[gi]
		for i := range g.lits {
			if g.lits[i].text == kw {
				g.lits[i].rules.add(rule)
				return
			}
		}
		l := literal{text: kw}
		l.rules.add(rule)
		g.lits = append(g.lits, l)
		return
	}
	a := uint16(kw[off])<<8 | uint16(kw[off+1])
	p.bitmap[a/64] |= 1 << (a % 64)
	if p.index[a] == 0 {
		if len(p.lists) == 255 {
			panic("redact: too many keyword anchors")
		}
		p.lists = append(p.lists, nil)
		p.index[a] = uint8(len(p.lists))
	}
	list := &p.lists[p.index[a]-1]
	for i := range *list {
		if (*list)[i].text == kw {
			(*list)[i].rules.add(rule)
			return
		}
	}
	l := literal{text: kw, off: off}
	l.rules.add(rule)
	*list = append(*list, l)
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// each calls fn with the position of every keyword occurrence in s.
func (p *prefilter) each(s string, fn func(at int, l *literal)) {
	for i := 0; i < len(s); i++ {
		if !p.rare[s[i]] {
			continue
		}
		// Each pair holding a rare byte is probed once: the pair it starts,
		// and the pair it ends unless that starts with a rare byte too.
		if i > 0 && !p.rare[s[i-1]] {
			p.probe(s, i-1, fn)
		}
		if i+1 < len(s) {
			p.probe(s, i, fn)
		}
	}
	for j := range p.plain {
		g := &p.plain[j]
		for from := 0; ; {
			k := strings.Index(s[from:], g.needle)
			if k < 0 {
				break
			}
			at := from + k
			for i := range g.lits {
				if l := &g.lits[i]; strings.HasPrefix(s[at:], l.text) {
					fn(at, l)
				}
			}
			from = at + 1
		}
	}
}

// probe looks for the keywords anchored at the pair s[i], s[i+1].
func (p *prefilter) probe(s string, i int, fn func(at int, l *literal)) {
	a := uint16(s[i])<<8 | uint16(s[i+1])
	if p.bitmap[a/64]&(1<<(a%64)) == 0 {
		return
	}
	list := p.lists[p.index[a]-1]
	for j := range list {
		l := &list[j]
		if at := i - l.off; at >= 0 && strings.HasPrefix(s[at:], l.text) {
			fn(at, l)
		}
	}
}
