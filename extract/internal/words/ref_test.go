package words

// The scanner as it was before its fast paths (ASCII without decoding, the
// stopwords and plurals in a Set instead of a map, cutsets as loops), kept
// to check that the fast one emits exactly the same words and breaks.

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// refStopwords is built once and only read afterwards.
var refStopwords = func() map[string]struct{} {
	m := make(map[string]struct{}, 1024)
	for line := range strings.SplitSeq(stopwordText, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		for _, w := range strings.Fields(line) {
			m[w] = struct{}{}
		}
	}
	return m
}()

// Scanner turns text into words and breaks. Its buffers are reused between
// calls; a Scanner is not safe for concurrent use.
type refScanner struct {
	surface []byte
	norm    []byte
}

// Scan feeds the words of text to sink. Fenced code blocks, indented code,
// inline code, URLs, paths, identifiers with dots or underscores, numbers and
// hashes are skipped, and each leaves a break. A break also ends every line
// and every sentence.
func (s *refScanner) Scan(text string, sink Sink) {
	fence := ""
	text = Clean(text, true)
	for len(text) > 0 {
		var line string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			line, text = text, ""
		}
		trimmed := strings.TrimLeft(line, " \t")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") {
			fence = "```"
			continue
		}
		if strings.HasPrefix(trimmed, "~~~") {
			fence = "~~~"
			continue
		}
		if refIsCodeLine(line) {
			sink.Break()
			continue
		}
		s.scanLine(trimmed, sink)
		sink.Break()
	}
}

// IsCodeLine reports whether a line is a shell prompt ("$ go test") or an
// indented line that looks like code rather than an indented list item or
// quoted prose.
func refIsCodeLine(line string) bool {
	t := strings.TrimLeft(line, " \t")
	if strings.HasPrefix(t, "$ ") || strings.HasPrefix(t, ">>> ") || strings.HasPrefix(t, "PS> ") {
		return true
	}
	if !strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "\t") {
		return false
	}
	return strings.ContainsAny(line, "{}();=<>[]$") || strings.Contains(line, ":=")
}

func (s *refScanner) scanLine(line string, sink Sink) {
	inCode := false
	for len(line) > 0 {
		// Next chunk: up to whitespace or a backtick.
		i := 0
		for i < len(line) {
			c := line[i]
			if c == ' ' || c == '\t' || c == '\r' || c == '`' {
				break
			}
			if c >= utf8.RuneSelf {
				r, n := utf8.DecodeRuneInString(line[i:])
				if unicode.IsSpace(r) {
					break
				}
				i += n
				continue
			}
			i++
		}
		chunk := line[:i]
		if i < len(line) && line[i] == '`' {
			inCode = !inCode
			sink.Break()
			i++
		} else if i < len(line) {
			_, n := utf8.DecodeRuneInString(line[i:])
			i += n
		}
		line = line[i:]
		if inCode || chunk == "" {
			continue
		}
		s.chunk(chunk, sink)
	}
}

// chunk handles one whitespace-delimited piece of text.
func (s *refScanner) chunk(c string, sink Sink) {
	if strings.Contains(c, "://") || strings.HasPrefix(c, "www.") || strings.HasPrefix(c, "mailto:") {
		sink.Break()
		return
	}
	core := strings.TrimLeft(c, "\"'*_([{<“‘")
	if strings.HasPrefix(core, "/") || strings.HasPrefix(core, "~/") || strings.HasPrefix(core, "./") ||
		strings.HasPrefix(core, "../") || strings.ContainsRune(core, '\\') || strings.Count(core, "/") >= 2 {
		sink.Break()
		return
	}
	if j := strings.IndexByte(c, '/'); j >= 0 {
		// "read/write", "client/server": two words, not a path.
		s.part(c[:j], sink)
		sink.Break()
		s.part(c[j+1:], sink)
		return
	}
	s.part(c, sink)
}

func (s *refScanner) part(p string, sink Sink) {
	start := 0
	for start < len(p) {
		r, n := utf8.DecodeRuneInString(p[start:])
		if isWordRune(r) {
			break
		}
		if !strings.ContainsRune(softEdge, r) {
			sink.Break()
		}
		start += n
	}
	end := len(p)
	brkAfter := false
	for end > start {
		r, n := utf8.DecodeLastRuneInString(p[start:end])
		if isWordRune(r) || (r == '+' && strings.HasSuffix(p[start:end], "++")) || (r == '#' && end-start == 2) {
			break
		}
		if !strings.ContainsRune(softEdge, r) {
			brkAfter = true
		}
		end -= n
	}
	core := p[start:end]
	if core != "" {
		s.word(core, sink)
	}
	if brkAfter {
		sink.Break()
	}
}

// word classifies a trimmed word and emits it or a break.
func (s *refScanner) word(w string, sink Sink) {
	// Possessives: "the user's" → "user".
	if strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s") {
		w = w[:strings.LastIndexAny(w, "'’")]
	}
	if len(w) > 30 {
		sink.Break()
		return
	}
	s.surface = s.surface[:0]
	letters, digits, runes, upper := 0, 0, 0, 0
	hex := true
	for _, r := range w {
		runes++
		switch {
		case r >= 'a' && r <= 'z':
			letters++
			if r > 'f' {
				hex = false
			}
		case r >= 'A' && r <= 'Z':
			letters++
			upper++
			hex = false
			r += 'a' - 'A'
		case r >= '0' && r <= '9':
			digits++
		case r == '-' || r == '+' || r == '#':
			hex = false
		case r == '\'' || r == '’':
			// A contraction: a stopword if known, else a break.
			hex = false
			r = '\''
		case r >= utf8.RuneSelf && unicode.IsLetter(r):
			letters++
			hex = false
			r = unicode.ToLower(r)
		default:
			// Dots, underscores, '@', '=', ':' …: code, versions, file names.
			sink.Break()
			return
		}
		s.surface = utf8.AppendRune(s.surface, r)
	}
	switch {
	case letters == 0, runes < 2:
		sink.Break()
		return
	case digits > 0 && (hex && runes >= 7 || w[0] >= '0' && w[0] <= '9' || isVersion(s.surface)):
		// Hashes, "10ms", "3x", "v2".
		sink.Break()
		return
	case digits >= 2 && runes >= 8, upper >= 8 && digits > 0:
		// Ids, keys and tickets: "PROJ-1234", "a1b2c3d4-e5f6", "AKIAIOSFODNN7EXAMPLE".
		sink.Break()
		return
	case s.surface[0] == '-' || strings.Contains(string(s.surface), "--"):
		sink.Break()
		return
	}
	if _, ok := refStopwords[string(s.surface)]; ok {
		sink.Break()
		return
	}
	for _, b := range s.surface {
		if b == '\'' {
			sink.Break()
			return
		}
	}
	if isAdverb(s.surface) {
		sink.Break()
		return
	}
	s.norm = refSingular(append(s.norm[:0], s.surface...))
	sink.Word(s.norm, s.surface)
}

// Singular folds a simple English plural in place and returns it: "locks" →
// "lock", "queries" → "query", "indexes" → "index". Words that only look
// plural ("status", "analysis", "class") are left alone where it matters;
// over-folding a word that is not plural ("redis" → "redi") is harmless because
// every side folds the same way and topics are shown as written.
func refSingular(w []byte) []byte {
	n := len(w)
	if n < 4 || w[n-1] != 's' {
		return w
	}
	if r, ok := refIrregular[string(w)]; ok {
		return append(w[:0], r...)
	}
	switch {
	case hasSuffix(w, "ss"):
		return w
	case hasSuffix(w, "ies") && n > 4:
		return append(w[:n-3], 'y')
	case hasSuffix(w, "sses"), hasSuffix(w, "xes"), hasSuffix(w, "ches"), hasSuffix(w, "shes"), hasSuffix(w, "zzes"):
		return w[:n-2]
	}
	return w[:n-1]
}

// refIrregular maps plurals the rules above get wrong, and words ending in "s"
// that are not plurals, to their folded form.
var refIrregular = func() map[string]string {
	m := map[string]string{}
	for _, p := range strings.Fields(`aliases:alias biases:bias statuses:status indices:index
		matrices:matrix vertices:vertex analyses:analysis caches:cache niches:niche
		cookies:cookie movies:movie zombies:zombie cpus:cpu gpus:gpu tpus:tpu menus:menu
		hypotheses:hypothesis theses:thesis axes:axis diagnoses:diagnosis`) {
		k, v, _ := strings.Cut(p, ":")
		m[k] = v
	}
	for _, w := range strings.Fields(`series species alias bias canvas atlas chaos lens gas
		news status corpus bonus virus campus focus consensus nexus census analysis basis
		axis thesis hypothesis diagnosis synopsis emphasis redis postgres kubernetes windows
		pandas jenkins express rails https always perhaps thus plus minus`) {
		m[w] = w
	}
	return m
}()
