package query

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The query language, as people type it:
//
//	bootstrap confidence      every word should match (ranked fallback when none matches all)
//	"exact phrase"            the words in this order
//	-word  -"a phrase"        must not match (also NOT word)
//	a OR b                    either (also a | b); binds looser than the implicit AND
//	(a OR b) c                grouping
//	boot*                     prefix
//	bootstrp~  bootstrp~2     fuzzy: one (or N ≤ 2) typo(s)
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
			toks = append(toks, token{kind: tLParen, pos: i})
			i++
		case r == ')':
			toks = append(toks, token{kind: tRParen, pos: i})
			i++
		case r == '|':
			toks = append(toks, token{kind: tOr, pos: i})
			i++
		case r == '-' && (i+1 < len(q) && !unicode.IsSpace(rune(q[i+1])) && q[i+1] != ')') && (len(toks) == 0 || i == 0 || unicode.IsSpace(rune(q[i-1])) || q[i-1] == '('):
			toks = append(toks, token{kind: tNot, pos: i})
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
			for i < len(q) {
				r, size := utf8.DecodeRuneInString(q[i:])
				if unicode.IsSpace(r) || r == '(' || r == ')' || r == '"' || r == '|' {
					break
				}
				i += size
			}
			word := q[start:i]
			if f, v, ok := strings.Cut(word, ":"); ok && knownFields[strings.ToLower(f)] {
				field := strings.ToLower(f)
				if v == "" {
					if i < len(q) && q[i] == '"' {
						text, end, err := readQuoted(q, i)
						if err != nil {
							return nil, err
						}
						toks = append(toks, token{kind: tPhrase, text: text, field: field, pos: start})
						i = end
						continue
					}
					return nil, &SyntaxError{Query: q, Pos: start, Msg: fmt.Sprintf("%s: needs a value, like %s:something", field, field)}
				}
				toks = append(toks, token{kind: tWord, text: v, field: field, pos: start})
				continue
			}
			if f, v, ok := strings.Cut(word, ":"); ok && fieldLike(f, v, i < len(q) && q[i] == '"') && mistakenField(f) {
				return nil, &SyntaxError{Query: q, Pos: start, Msg: unknownField(f, word)}
			}
			switch word {
			case "OR":
				toks = append(toks, token{kind: tOr, pos: start})
			case "AND":
				// The implicit operator; accepted and ignored.
			case "NOT":
				toks = append(toks, token{kind: tNot, pos: start})
			default:
				toks = append(toks, token{kind: tWord, text: word, pos: start})
			}
		}
	}
	return append(toks, token{kind: tEOF, pos: len(q)}), nil
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
		return "", 0, &SyntaxError{Query: q, Pos: i, Msg: "unclosed quote: a phrase needs its closing \""}
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
		return nil, &SyntaxError{Query: q, Pos: toks[MaxQueryParts].pos, Msg: fmt.Sprintf("too many words: at most %d words, phrases and operators", MaxQueryParts)}
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
			return nil, &SyntaxError{Query: q, Pos: t.pos, Msg: "unmatched ')'"}
		}
		return nil, &SyntaxError{Query: q, Pos: t.pos, Msg: "unexpected text"}
	}
	return n, nil
}

type parser struct {
	q         string
	toks      []token
	i         int
	expanding int // prefix and fuzzy words so far
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
			return nil, &SyntaxError{Query: p.q, Pos: or.pos, Msg: "OR needs something on both sides"}
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
				return nil, &SyntaxError{Query: p.q, Pos: t.pos, Msg: "expected a word, a phrase or a group"}
			}
			return andOf(clauses), nil
		case tOr:
			if len(clauses) == 0 {
				return nil, &SyntaxError{Query: p.q, Pos: t.pos, Msg: "OR needs something on both sides"}
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
			return nil, &SyntaxError{Query: p.q, Pos: t.pos, Msg: "'-' (NOT) needs a word, a phrase or a group after it"}
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
			return nil, &SyntaxError{Query: p.q, Pos: t.pos, Msg: "empty group '()'"}
		}
		n, err := p.parseOr()
		if err != nil {
			return nil, err
		}
		if p.peek().kind != tRParen {
			return nil, &SyntaxError{Query: p.q, Pos: t.pos, Msg: "unclosed '(': it needs a matching ')'"}
		}
		p.next()
		return n, nil
	case tPhrase:
		return &Phrase{Field: t.field, Text: t.text, Pos: t.pos}, nil
	case tWord:
		return p.term(t)
	case tRParen:
		return nil, &SyntaxError{Query: p.q, Pos: t.pos, Msg: "unmatched ')'"}
	}
	return nil, &SyntaxError{Query: p.q, Pos: t.pos, Msg: "expected a word, a phrase or a group"}
}

func (p *parser) term(t token) (Node, error) {
	term := &Term{Field: t.field, Text: t.text, Pos: t.pos}
	text := t.text
	if i := strings.LastIndexByte(text, '~'); i > 0 {
		n := 1
		if rest := text[i+1:]; rest != "" {
			v, err := strconv.Atoi(rest)
			if err != nil || v < 1 || v > 2 {
				return nil, &SyntaxError{Query: p.q, Pos: t.pos + i, Msg: "fuzziness after '~' must be 1 or 2"}
			}
			n = v
		}
		term.Fuzziness = n
		text = text[:i]
	}
	if strings.HasSuffix(text, "*") {
		stem := strings.TrimRight(text, "*")
		if stem == "" {
			return nil, &SyntaxError{Query: p.q, Pos: t.pos, Msg: "a prefix needs at least one letter before '*'"}
		}
		if term.Fuzziness > 0 {
			return nil, &SyntaxError{Query: p.q, Pos: t.pos, Msg: "a word cannot be both a prefix (*) and fuzzy (~)"}
		}
		term.Prefix = true
		text = stem
	}
	if strings.Contains(text, "*") && !term.Prefix {
		return nil, &SyntaxError{Query: p.q, Pos: t.pos, Msg: "'*' is allowed only at the end of a word (prefix search)"}
	}
	if term.Fuzziness > 0 && utf8.RuneCountInString(text) > MaxFuzzyRunes {
		// Bleve's Levenshtein automaton refuses long words (over 10000
		// states), which would surface as a failure of the index.
		return nil, &SyntaxError{Query: p.q, Pos: t.pos, Msg: fmt.Sprintf("a fuzzy (~) word is at most %d characters", MaxFuzzyRunes)}
	}
	if term.Prefix || term.Fuzziness > 0 {
		if p.expanding++; p.expanding > MaxExpanding {
			return nil, &SyntaxError{Query: p.q, Pos: t.pos, Msg: fmt.Sprintf("too many prefix (*) and fuzzy (~) words: at most %d, each matches many terms", MaxExpanding)}
		}
	}
	term.Text = text
	return term, nil
}
