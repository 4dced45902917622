// Package words splits prose into the candidate words of topic phrases. It is
// shared by the extractor and by the generator of its background model, so
// that both see the same words: lower case, simple plurals folded, code,
// paths, URLs, numbers, hashes and stopwords turned into phrase breaks.
package words

import (
	"bytes"
	_ "embed"
	"strings"
	"unicode"
	"unicode/utf8"
)

//go:embed stopwords.txt
var stopwordText string

// stopwords is built once and only read afterwards.
var stopwords = func() *Set {
	var ws []string
	for line := range strings.SplitSeq(stopwordText, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		ws = append(ws, strings.Fields(line)...)
	}
	return newSet(ws)
}()

// IsStopword reports whether the lower-case word w is a stopword.
func IsStopword(w string) bool { return stopwords.HasString(w) }

// Sink receives a Scanner's output: Word for each candidate word (norm is the
// folded form, surface the lower-case text as written; both are only valid
// during the call), Break where a phrase cannot continue.
type Sink interface {
	Word(norm, surface []byte)
	Break()
}

// Scanner turns text into words and breaks. Its buffers are reused between
// calls; a Scanner is not safe for concurrent use.
type Scanner struct {
	surface []byte
	norm    []byte
}

// Scan feeds the words of text to sink. Fenced code blocks, indented code,
// inline code, URLs, paths, identifiers with dots or underscores, numbers and
// hashes are skipped, and each leaves a break. A break also ends every line
// and every sentence.
func (s *Scanner) Scan(text string, sink Sink) {
	fence := ""
	text = Clean(text, true)
	for len(text) > 0 {
		var line string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			line, text = text, ""
		}
		trimmed := trimBlank(line)
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
		if IsCodeLine(line) {
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
func IsCodeLine(line string) bool {
	t := trimBlank(line)
	if strings.HasPrefix(t, "$ ") || strings.HasPrefix(t, ">>> ") || strings.HasPrefix(t, "PS> ") {
		return true
	}
	if !strings.HasPrefix(line, "    ") && !strings.HasPrefix(line, "\t") {
		return false
	}
	return strings.ContainsAny(line, "{}();=<>[]$") || strings.Contains(line, ":=")
}

// trimBlank is strings.TrimLeft(line, " \t") without building a cutset per
// call.
func trimBlank(line string) string {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return line[i:]
}

func (s *Scanner) scanLine(line string, sink Sink) {
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
func (s *Scanner) chunk(c string, sink Sink) {
	// Most chunks are plain words: without '/', '\\' or ':' none of the
	// URL and path checks below can hold.
	plain := true
	for i := 0; i < len(c); i++ {
		if b := c[i]; b == '/' || b == '\\' || b == ':' {
			plain = false
			break
		}
	}
	if plain {
		if strings.HasPrefix(c, "www.") {
			sink.Break()
			return
		}
		s.part(c, sink)
		return
	}
	if strings.Contains(c, "://") || strings.HasPrefix(c, "www.") || strings.HasPrefix(c, "mailto:") {
		sink.Break()
		return
	}
	core := trimOpeners(c)
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

// trimOpeners is strings.TrimLeft(c, "\"'*_([{<“‘") without its per-call
// cutset: the scanner calls it for every word.
func trimOpeners(c string) string {
	for len(c) > 0 {
		switch c[0] {
		case '"', '\'', '*', '_', '(', '[', '{', '<':
			c = c[1:]
			continue
		case 0xe2: // “ and ‘ are e2 80 9c and e2 80 98
			if len(c) >= 3 && c[1] == 0x80 && (c[2] == 0x9c || c[2] == 0x98) {
				c = c[3:]
				continue
			}
		}
		return c
	}
	return c
}

// Quotes and emphasis around a word do not end a phrase; other punctuation
// does.
const softEdge = "\"'*_“”‘’"

func (s *Scanner) part(p string, sink Sink) {
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

func isWordRune(r rune) bool {
	return r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') ||
		r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// word classifies a trimmed word and emits it or a break.
func (s *Scanner) word(w string, sink Sink) {
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
	for i := 0; i < len(w); {
		runes++
		if c := w[i]; c < utf8.RuneSelf {
			// ASCII, the common case: no decoding, no encoding.
			i++
			switch {
			case c >= 'a' && c <= 'z':
				letters++
				if c > 'f' {
					hex = false
				}
			case c >= 'A' && c <= 'Z':
				letters++
				upper++
				hex = false
				c += 'a' - 'A'
			case c >= '0' && c <= '9':
				digits++
			case c == '-' || c == '+' || c == '#':
				hex = false
			case c == '\'':
				// A contraction: a stopword if known, else a break.
				hex = false
			default:
				// Dots, underscores, '@', '=', ':' …: code, versions, file names.
				sink.Break()
				return
			}
			s.surface = append(s.surface, c)
			continue
		}
		r, n := utf8.DecodeRuneInString(w[i:])
		i += n
		switch {
		case r == '’':
			hex = false
			r = '\''
		case unicode.IsLetter(r):
			letters++
			hex = false
			r = unicode.ToLower(r)
		default:
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
	case s.surface[0] == '-' || bytes.Contains(s.surface, doubleDash):
		sink.Break()
		return
	}
	if stopwords.Has(s.surface) {
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
	s.norm = Singular(append(s.norm[:0], s.surface...))
	sink.Word(s.norm, s.surface)
}

var doubleDash = []byte("--")

func isVersion(w []byte) bool {
	if len(w) < 2 || w[0] != 'v' {
		return false
	}
	for _, b := range w[1:] {
		if b < '0' || b > '9' {
			return false
		}
	}
	return true
}

// isAdverb reports an "-ly" adverb, which cannot be part of a noun phrase.
func isAdverb(w []byte) bool {
	if len(w) < 6 || w[len(w)-2] != 'l' || w[len(w)-1] != 'y' {
		return false
	}
	switch string(w) {
	case "assembly", "anomaly", "family", "supply", "monopoly", "butterfly", "italy", "reply":
		return false
	}
	return true
}

// Singular folds a simple English plural in place and returns it: "locks" →
// "lock", "queries" → "query", "indexes" → "index". Words that only look
// plural ("status", "analysis", "class") are left alone where it matters;
// over-folding a word that is not plural ("redis" → "redi") is harmless because
// every side folds the same way and topics are shown as written.
func Singular(w []byte) []byte {
	n := len(w)
	if n < 4 || w[n-1] != 's' {
		return w
	}
	if i := irregular.indexBytes(w); i >= 0 {
		return append(w[:0], irregularTo[i]...)
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

func hasSuffix(w []byte, s string) bool {
	return len(w) >= len(s) && string(w[len(w)-len(s):]) == s
}

// irregular holds plurals the rules above get wrong, and words ending in "s"
// that are not plurals; irregularTo their folded forms, in the same order.
var irregular, irregularTo = func() (*Set, []string) {
	var from, to []string
	for _, p := range strings.Fields(`aliases:alias biases:bias statuses:status indices:index
		matrices:matrix vertices:vertex analyses:analysis caches:cache niches:niche
		cookies:cookie movies:movie zombies:zombie cpus:cpu gpus:gpu tpus:tpu menus:menu
		hypotheses:hypothesis theses:thesis axes:axis diagnoses:diagnosis`) {
		k, v, _ := strings.Cut(p, ":")
		from, to = append(from, k), append(to, v)
	}
	for _, w := range strings.Fields(`series species alias bias canvas atlas chaos lens gas
		news status corpus bonus virus campus focus consensus nexus census analysis basis
		axis thesis hypothesis diagnosis synopsis emphasis redis postgres kubernetes windows
		pandas jenkins express rails https always perhaps thus plus minus`) {
		from, to = append(from, w), append(to, w)
	}
	set := newSet(from)
	if set.Len() != len(to) {
		// A word listed twice: the set keeps it once and the folded forms
		// would no longer line up with it.
		panic("words: a word is listed twice among the irregular plurals")
	}
	return set, to
}()

// Clean returns text without what a tool injected into a message: blocks
// such as "<system-reminder>…</system-reminder>" or "<environment_details>…"
// that open a line and are closed later in the text. With markers, the
// redaction markers that stand for removed secrets ("[redacted: github-pat]")
// become line breaks too. Text without either is returned as is, without
// allocating.
func Clean(text string, markers bool) string {
	hasTag := strings.Contains(text, "</")
	hasMarker := markers && strings.Contains(text, redactedOpen)
	if !hasTag && !hasMarker {
		return text
	}
	var b strings.Builder
	for pos := 0; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos + 1
		}
		line := text[pos:end]
		if hasTag {
			if name := openTag(strings.TrimLeft(line, " \t")); name != "" {
				if c := strings.Index(text[pos:], "</"+name+">"); c >= 0 {
					skip := pos + c + len(name) + 3
					if nl := strings.IndexByte(text[skip:], '\n'); nl >= 0 {
						skip += nl + 1
					} else {
						skip = len(text)
					}
					b.WriteByte('\n')
					pos = skip
					continue
				}
			}
		}
		if hasMarker {
			line = stripMarkers(line)
		}
		b.WriteString(line)
		pos = end
	}
	return b.String()
}

const redactedOpen = "[redacted"

// stripMarkers turns each redaction marker of line into a line break.
func stripMarkers(line string) string {
	for {
		i := strings.Index(line, redactedOpen)
		if i < 0 {
			return line
		}
		j := strings.IndexByte(line[i:], ']')
		if j < 0 {
			return line[:i] + "\n"
		}
		line = line[:i] + "\n" + line[i+j+1:]
	}
}

// openTag returns the name of the tag that opens line ("<system-reminder>"
// → "system-reminder"), or "".
func openTag(line string) string {
	if len(line) < 3 || line[0] != '<' {
		return ""
	}
	for i := 1; i < len(line) && i < 64; i++ {
		c := line[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_', c == '-', i > 1 && c >= '0' && c <= '9':
		case (c == '>' || c == ' ') && i > 1:
			return line[1:i]
		default:
			return ""
		}
	}
	return ""
}
