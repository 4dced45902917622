package query

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The query language, as people type it:
//
//	bootstrap confidence      every word should match (ranked fallback when none matches all)
//	"exact phrase"            the words in this order
//	-word  -"a phrase"        must not match (also NOT word); see exclusion and settle
//	                          for the dashes and NOTs of pasted text
//	a OR b                    either (also a | b); binds looser than the implicit AND
//	(a OR b) c                grouping
//	boot*                     prefix (any other '*' is text: prefixable)
//	bootstrp~  bootstrp~2     fuzzy: one (or N ≤ 2) typo(s) (any other '~' is text: fuzzy)
//	field:value  field:"a b"  role: project: source: type: topic: title: decision: tool: model: id:
//
// A name people take for a field ("since:2025-01-01", "conversation:ID",
// "projects:ledger") is an error that says what does the job, not text that
// would silently match something else; quoted it is text. Other words with
// a colon are ordinary words: "localhost:8080", "postgres:16", "http://x",
// "12:30", "C:\dir", "std::vector", "file.go:12", "Note:".

// Node is a parsed query.
type Node interface{ node() }

// And matches what all of its clauses match; Not clauses must not match.
type And struct{ Clauses []Node }

// Or matches what any of its clauses match.
type Or struct{ Clauses []Node }

// Not negates its clause; it only appears inside And.
type Not struct{ Clause Node }

// Term is a word, possibly a prefix or fuzzy, possibly bound to a field.
type Term struct {
	Field     string // "" for the text fields
	Text      string
	Prefix    bool
	Fuzziness int
	Pos       int // byte offset in the query, for errors
}

// Phrase is quoted text, possibly bound to a field.
type Phrase struct {
	Field string
	Text  string
	Pos   int
}

func (*And) node()    {}
func (*Or) node()     {}
func (*Not) node()    {}
func (*Term) node()   {}
func (*Phrase) node() {}

// Fields that may be named with field:value.
var knownFields = map[string]bool{
	"role": true, "project": true, "source": true, "type": true, "topic": true,
	"title": true, "decision": true, "tool": true, "model": true, "id": true,
}

// KnownFields lists the field names the language accepts, for help texts.
func KnownFields() []string {
	return []string{"role", "project", "source", "type", "topic", "title", "decision", "tool", "model", "id"}
}

// SyntaxError is a query that cannot be parsed: what is wrong and where.
type SyntaxError struct {
	Query string
	Pos   int // byte offset
	Msg   string
}

func (e *SyntaxError) Error() string {
	col := utf8.RuneCountInString(e.Query[:min(e.Pos, len(e.Query))]) + 1
	return fmt.Sprintf("query syntax error at column %d: %s", col, e.Msg)
}

// Caret returns the query with a caret under the error's position, for
// showing on a terminal.
func (e *SyntaxError) Caret() string {
	col := utf8.RuneCountInString(e.Query[:min(e.Pos, len(e.Query))])
	return "  " + e.Query + "\n  " + strings.Repeat(" ", col) + "^"
}

type tokKind int

const (
	tWord tokKind = iota
	tPhrase
	tLParen
	tRParen
	tOr
	tNot // leading '-' or NOT
	tEOF
)

type token struct {
	kind  tokKind
	text  string
	field string // for words and phrases with field:
	pos   int
}

func lex(q string) ([]token, error) {
	var toks []token
	i := 0
	for i < len(q) {
		r, size := utf8.DecodeRuneInString(q[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case r == '(':
			toks = append(toks, token{kind: tLParen, text: "(", pos: i})
			i++
		case r == ')':
			toks = append(toks, token{kind: tRParen, text: ")", pos: i})
			i++
		case r == '|':
			j := i + 1
			for j < len(q) && q[j] == '|' {
				j++
			}
			if j-i > 1 { // "items || []": code, not an OR
				toks = append(toks, token{kind: tWord, text: q[i:j], pos: i})
			} else {
				toks = append(toks, token{kind: tOr, text: "|", pos: i})
			}
			i = j
		case r == '-' && exclusion(q, i, toks):
			toks = append(toks, token{kind: tNot, text: "-", pos: i})
			i++
		case r == '"':
			text, end, err := readQuoted(q, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{kind: tPhrase, text: text, pos: i})
			i = end
		default:
			start := i
			i = wordEnd(q, i)
			word := q[start:i]
			if f, v, ok := strings.Cut(word, ":"); ok && knownFields[strings.ToLower(f)] && (v != "" || i < len(q) && q[i] == '"') {
				field := strings.ToLower(f)
				if v == "" {
					text, end, err := readQuoted(q, i)
					if err != nil {
						return nil, err
					}
					toks = append(toks, token{kind: tPhrase, text: text, field: field, pos: start})
					i = end
					continue
				}
				toks = append(toks, token{kind: tWord, text: v, field: field, pos: start})
				continue
			}
			// A field name and a colon with nothing after it ("type: module",
			// "Tool:") is a word, as "Note:" is.
			if f, v, ok := strings.Cut(word, ":"); ok && fieldLike(f, v, i < len(q) && q[i] == '"') && mistakenField(f) {
				return nil, &SyntaxError{Query: q, Pos: start, Msg: unknownField(f, word)}
			}
			switch word {
			case "OR":
				toks = append(toks, token{kind: tOr, text: word, pos: start})
			case "AND":
				// The implicit operator; accepted and ignored.
			case "NOT":
				toks = append(toks, token{kind: tNot, text: word, pos: start})
			default:
				toks = append(toks, token{kind: tWord, text: word, pos: start})
			}
		}
	}
	toks = append(toks, token{kind: tEOF, pos: len(q)})
	settle(toks)
	return toks, nil
}

// wordEnd returns where the word starting at i ends: at a space, a
// parenthesis, a quote or a '|'.
func wordEnd(q string, i int) int {
	for i < len(q) {
		r, size := utf8.DecodeRuneInString(q[i:])
		if unicode.IsSpace(r) || r == '(' || r == ')' || r == '"' || r == '|' {
			break
		}
		i += size
	}
	return i
}

// exclusion reports whether the '-' at q[i] starts an exclusion: a single
// '-' at the start of a word, directly before a letter, a digit, a quote or
// a '(' ("-jitter", -"a phrase", "-(a OR b)"). What a pasted command has is
// text: a "--flag", a flag with a value ("-Dkey=v", "--watch=false"), and,
// after another word, a short flag of one to three letters or digits
// ("rm -rf", "ls -la", "grep -v", "gcc -O2"); "redis -cluster" excludes.
func exclusion(q string, i int, toks []token) bool {
	if i > 0 {
		if before, _ := utf8.DecodeLastRuneInString(q[:i]); !unicode.IsSpace(before) && before != '(' {
			return false // "e-mail", "x-y"
		}
	}
	if i+1 >= len(q) {
		return false
	}
	next, _ := utf8.DecodeRuneInString(q[i+1:])
	if next == '"' || next == '(' {
		return true
	}
	if !unicode.IsLetter(next) && !unicode.IsDigit(next) {
		return false // "--flag", "- apple", "->", "-*"
	}
	w := q[i+1 : wordEnd(q, i+1)]
	if strings.Contains(w, "=") {
		return false
	}
	if n := len(toks); n > 0 && len(w) <= 3 && isFlagLetters(w) {
		switch toks[n-1].kind {
		case tWord, tPhrase, tRParen:
			return false
		}
	}
	return true
}

func isFlagLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; !isASCIILetter(c) && !(c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// settle makes text of the operators and parentheses that cannot be
// syntax where they stand: a ')' that closes nothing ("1) install", ":)"),
// an empty pair ("console.log()", "fn main() {}"), and a NOT written in
// text in capitals: "NOT NULL constraint failed", "IS NOT NULL", "DO NOT
// MERGE" (the word after it in capitals, and the word before it too, or
// none). toks ends with tEOF.
func settle(toks []token) {
	asText := func(i int) { toks[i].kind = tWord }
	var open []int
	for i, t := range toks {
		switch t.kind {
		case tLParen:
			open = append(open, i)
		case tRParen:
			if len(open) == 0 {
				asText(i)
				continue
			}
			o := open[len(open)-1]
			open = open[:len(open)-1]
			if o == i-1 {
				asText(o)
				asText(i)
			}
		}
	}
	capsWord := func(t token) bool { return t.kind == tWord && t.field == "" && capitals(t.text) }
	for i, t := range toks {
		if t.kind != tNot || t.text != "NOT" {
			continue
		}
		next := toks[i+1]
		if i == 0 && next.kind == tEOF {
			continue // "NOT" alone: an operator with nothing after it
		}
		if (i == 0 || capsWord(toks[i-1])) && (next.kind == tEOF || capsWord(next)) {
			asText(i)
		}
	}
}

// capitals reports whether s is written in capitals: an upper-case letter
// and no lower-case one ("NULL", "MERGE", "HEAD").
func capitals(s string) bool {
	upper := false
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
		upper = upper || unicode.IsUpper(r)
	}
	return upper
}

// fuzzy reports whether word~n is a fuzzy word: n is nothing, 1 or 2,
// word has a letter or digit, and word~n is no git revision ("HEAD~1",
// a word in capitals with a number). Any other '~' is text: "HEAD~3",
// "user@host:~/repo".
func fuzzy(word, n string) bool {
	if n != "" && n != "1" && n != "2" || !prefixable(word) {
		return false
	}
	return n == "" || !capitals(word)
}

// prefixable reports whether stem* is a prefix: stem has a letter or
// digit and no '*' of its own. Any other '*' is text: "SELECT * FROM",
// "**kwargs", "a*b".
func prefixable(stem string) bool {
	return !strings.Contains(stem, "*") && strings.IndexFunc(stem, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// fieldLike reports whether name:value (the word cut at its first colon)
// reads as a field someone meant: a name of two or more ASCII letters,
// digits or underscores, starting with a letter, and a value (or a quoted
// one, quoted) that does not go on as a URL, a path or a C++ name does.
func fieldLike(name, value string, quoted bool) bool {
	if len(name) < 2 || !isASCIILetter(name[0]) {
		return false // "C:\dir", "10:30", ":smile:"
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !isASCIILetter(c) && !(c >= '0' && c <= '9') && c != '_' {
			return false // "file.go:12", "user@host:path"
		}
	}
	if value == "" {
		return quoted // "Note:" is a word; foo:"a b" a field
	}
	return !strings.ContainsAny(value[:1], `/\:`) // "http://x", "std::vector"
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// fieldHints point the names people try to what does the job.
var fieldHints = map[string]string{
	"conversation": convHint, "conversation_id": convHint, "conv": convHint,
	"since": timeHint, "until": timeHint, "after": timeHint, "before": timeHint, "date": timeHint,
	"kind":   "the kind of hit is type: (conversation, message, topic, decision)",
	"format": "the format is source:",
	"text":   "words without a field search the text", "content": "words without a field search the text",
}

const (
	convHint = "a conversation is named by id:ID (its conversation id), or by the conversation filter (conversation= in the API, conversation_id in MCP)"
	timeHint = "times are filters, not fields: --since and --until, since= and until= in the API and MCP"
)

// mistakenField reports a name that someone typing name:value meant as a
// field: one of fieldHints' or a plural of a field ("projects:").
// Any other ("localhost:8080", "postgres:16", "mailto:x") is text.
func mistakenField(name string) bool {
	lower := strings.ToLower(name)
	return fieldHints[lower] != "" || knownFields[strings.TrimSuffix(lower, "s")] && strings.HasSuffix(lower, "s")
}

// unknownField is the message for word, name:value with a name that is no
// field.
func unknownField(name, word string) string {
	lower := strings.ToLower(name)
	hint := fieldHints[lower]
	if hint == "" && knownFields[strings.TrimSuffix(lower, "s")] {
		hint = "did you mean " + strings.TrimSuffix(lower, "s") + ":?"
	}
	if hint != "" {
		hint += "; "
	}
	return fmt.Sprintf("%s: is not a field: %sthe fields are %s:; to search for the text, quote it: \"%s\"",
		name, hint, strings.Join(KnownFields(), ":, "), word)
}

func readQuoted(q string, i int) (string, int, error) {
	end := strings.IndexByte(q[i+1:], '"')
	if end < 0 {
		return "", 0, &SyntaxError{Query: q, Pos: i, Msg: "unclosed quote: a phrase needs its closing \"" + QuoteHint(q)}
	}
	return q[i+1 : i+1+end], i + 2 + end, nil
}

// Limits on a query, so that no request can make a search cost without
// bound: a prefix or fuzzy word expands into every term it matches, and
// each term is a posting list to read.
const (
	MaxQueryBytes = 4096
	MaxQueryParts = 100 // words, phrases, operators and parentheses
	MaxExpanding  = 8   // prefix* and fuzzy~ words
	MaxFuzzyRunes = 64  // the length of a fuzzy~ word
)

// Parse parses a query. An empty query (only spaces) gives a nil Node.
func Parse(q string) (Node, error) {
	if len(q) > MaxQueryBytes {
		return nil, &SyntaxError{Query: q[:MaxQueryBytes], Pos: MaxQueryBytes - 1, Msg: fmt.Sprintf("query too long: at most %d bytes", MaxQueryBytes)}
	}
	toks, err := lex(q)
	if err != nil {
		return nil, err
	}
	if len(toks)-1 > MaxQueryParts { // the last token is the end
		return nil, &SyntaxError{Query: q, Pos: toks[MaxQueryParts].pos, Msg: fmt.Sprintf("too many words: at most %d words, phrases and operators", MaxQueryParts) + QuoteHint(q)}
	}
	p := &parser{q: q, toks: toks}
	if p.peek().kind == tEOF {
		return nil, nil
	}
	n, err := p.parseOr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		if t.kind == tRParen {
			return nil, p.fail(t.pos, "unmatched ')'")
		}
		return nil, p.fail(t.pos, "unexpected text")
	}
	return n, nil
}

type parser struct {
	q         string
	toks      []token
	i         int
	expanding int // prefix and fuzzy words so far
}

// fail is a syntax error at pos that says how to search for the text as
// written.
func (p *parser) fail(pos int, msg string) *SyntaxError {
	return &SyntaxError{Query: p.q, Pos: pos, Msg: msg + QuoteHint(p.q)}
}

// QuoteHint ends a syntax error's message: how to search for the query's
// text as written, quoted (a phrase is text, whatever it holds); the
// quotes the text has are left out, as a phrase cannot hold one.
func QuoteHint(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	if strings.Contains(q, `"`) {
		return fmt.Sprintf("; to search for the text as written, put it in double quotes, without its own: \"%s\"", strings.ReplaceAll(q, `"`, ""))
	}
	return fmt.Sprintf("; to search for the text as written, put it in double quotes: \"%s\"", q)
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token { t := p.toks[p.i]; p.i++; return t }

func (p *parser) parseOr() (Node, error) {
	first, err := p.parseAnd()
	if err != nil {
		return nil, err
	}
	clauses := []Node{first}
	for p.peek().kind == tOr {
		or := p.next()
		if k := p.peek().kind; k == tEOF || k == tRParen || k == tOr {
			return nil, p.fail(or.pos, "OR needs something on both sides")
		}
		n, err := p.parseAnd()
		if err != nil {
			return nil, err
		}
		clauses = append(clauses, n)
	}
	if len(clauses) == 1 {
		return first, nil
	}
	return &Or{Clauses: clauses}, nil
}

func (p *parser) parseAnd() (Node, error) {
	var clauses []Node
	for {
		t := p.peek()
		switch t.kind {
		case tEOF, tRParen:
			if len(clauses) == 0 {
				return nil, p.fail(t.pos, "expected a word, a phrase or a group")
			}
			return andOf(clauses), nil
		case tOr:
			if len(clauses) == 0 {
				return nil, p.fail(t.pos, "OR needs something on both sides")
			}
			return andOf(clauses), nil
		}
		n, err := p.parseUnary()
		if err != nil {
			return nil, err
		}
		clauses = append(clauses, n)
	}
}

func andOf(clauses []Node) Node {
	if len(clauses) == 1 {
		if _, neg := clauses[0].(*Not); !neg {
			return clauses[0]
		}
	}
	return &And{Clauses: clauses}
}

func (p *parser) parseUnary() (Node, error) {
	if t := p.peek(); t.kind == tNot {
		p.next()
		if k := p.peek().kind; k == tEOF || k == tRParen || k == tOr || k == tNot {
			return nil, p.fail(t.pos, "'-' (NOT) needs a word, a phrase or a group after it")
		}
		n, err := p.parsePrimary()
		if err != nil {
			return nil, err
		}
		return &Not{Clause: n}, nil
	}
	return p.parsePrimary()
}

func (p *parser) parsePrimary() (Node, error) {
	t := p.next()
	switch t.kind {
	case tLParen:
		if p.peek().kind == tRParen {
			return nil, p.fail(t.pos, "empty group '()'")
		}
		n, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		if p.peek().kind != tRParen {
			return nil, p.fail(t.pos, "unclosed '(': it needs a matching ')'")
		}
		p.next()
		return n, nil
	case tPhrase:
		return &Phrase{Field: t.field, Text: t.text, Pos: t.pos}, nil
	case tWord:
		return p.term(t)
	case tRParen:
		return nil, p.fail(t.pos, "unmatched ')'")
	}
	return nil, p.fail(t.pos, "expected a word, a phrase or a group")
}

func (p *parser) term(t token) (Node, error) {
	term := &Term{Field: t.field, Text: t.text, Pos: t.pos}
	text := t.text
	if i := strings.LastIndexByte(text, '~'); i > 0 && fuzzy(text[:i], text[i+1:]) {
		term.Fuzziness = 1
		if text[i+1:] == "2" {
			term.Fuzziness = 2
		}
		text = text[:i]
	}
	if stem := strings.TrimRight(text, "*"); stem != text && prefixable(stem) {
		if term.Fuzziness > 0 {
			return nil, p.fail(t.pos, "a word cannot be both a prefix (*) and fuzzy (~)")
		}
		term.Prefix = true
		text = stem
	}
	if term.Fuzziness > 0 && utf8.RuneCountInString(text) > MaxFuzzyRunes {
		// Bleve's Levenshtein automaton refuses long words (over 10000
		// states), which would surface as a failure of the index.
		return nil, p.fail(t.pos, fmt.Sprintf("a fuzzy (~) word is at most %d characters", MaxFuzzyRunes))
	}
	if term.Prefix || term.Fuzziness > 0 {
		if p.expanding++; p.expanding > MaxExpanding {
			return nil, p.fail(t.pos, fmt.Sprintf("too many prefix (*) and fuzzy (~) words: at most %d, each matches many terms", MaxExpanding))
		}
	}
	term.Text = text
	return term, nil
}
