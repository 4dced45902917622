package server

import (
	"embed"
	"io/fs"
	"strings"
	"sync"

	. "github.com/alecthomas/chroma/v2" //nolint:revive // the lexer rules below read as chroma's own
)

// The lexers that code blocks are highlighted with: the common languages of
// chroma's own (lexers/*.xml, copied from chroma v2.27.0, MIT licence in
// lexers/COPYING), registered when a page first needs one. chroma's lexers
// package registers all 279 in its init, which cost every command, even a
// search, 10 ms at start (docs/PERFORMANCE.md).
//
//go:embed lexers/*.xml
var lexerFiles embed.FS

var lexerRegistry = sync.OnceValue(func() *LexerRegistry {
	reg := NewLexerRegistry()
	paths, err := fs.Glob(lexerFiles, "lexers/*.xml")
	if err != nil {
		panic(err) // the embedded files are fixed at build time
	}
	for _, p := range paths {
		reg.Register(MustNewXMLLexer(lexerFiles, p))
	}
	reg.Register(goLexer())
	return reg
})

// goLexer is chroma's Go lexer (lexers/go.go, v2.27.0, MIT), which chroma
// writes in Go rather than XML; raw strings are plain strings here, as
// their template lexer is left out.
func goLexer() Lexer {
	return MustNewLexer(
		&Config{
			Name:      "Go",
			Aliases:   []string{"go", "golang"},
			Filenames: []string{"*.go"},
			MimeTypes: []string{"text/x-gosrc"},
		},
		goRules,
	).SetAnalyser(func(text string) float32 {
		if strings.Contains(text, "fmt.") && strings.Contains(text, "package ") {
			return 0.5
		}
		if strings.Contains(text, "package ") {
			return 0.1
		}
		return 0.0
	})
}

// rule is a rule that moves to no other state.
func rule(pattern string, emit Emitter) Rule { return Rule{Pattern: pattern, Type: emit} }

func goRules() Rules {
	return Rules{
		"root": {
			rule(`\n`, TextWhitespace),
			rule(`\s+`, TextWhitespace),
			rule(`//[^\s\n\r][^\n\r]*`, CommentPreproc),
			rule(`//[^\n\r]*`, CommentSingle),
			rule(`/(\\\n)?[*](.|\n)*?[*](\\\n)?/`, CommentMultiline),
			rule(`(import|package)\b`, KeywordNamespace),
			rule(`(var|func|struct|map|chan|type|interface|const)\b`, KeywordDeclaration),
			rule(Words(``, `\b`, `break`, `default`, `select`, `case`, `defer`, `go`, `else`, `goto`, `switch`, `fallthrough`, `if`, `range`, `continue`, `for`, `return`), Keyword),
			rule(`(true|false|iota|nil)\b`, KeywordConstant),
			rule(Words(``, `\b(\()`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `print`, `println`, `panic`, `recover`, `close`, `complex`, `real`, `imag`, `len`, `cap`, `append`, `copy`, `delete`, `new`, `make`, `clear`, `min`, `max`), ByGroups(NameBuiltin, Punctuation)),
			rule(Words(``, `\b`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `any`), KeywordType),
			rule(`\d+i`, LiteralNumber),
			rule(`\d+\.\d*([Ee][-+]\d+)?i`, LiteralNumber),
			rule(`\.\d+([Ee][-+]\d+)?i`, LiteralNumber),
			rule(`\d+[Ee][-+]\d+i`, LiteralNumber),
			rule(`\d+(\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+)`, LiteralNumberFloat),
			rule(`\.\d+([eE][+\-]?\d+)?`, LiteralNumberFloat),
			rule(`0[0-7]+`, LiteralNumberOct),
			rule(`0[xX][0-9a-fA-F_]+`, LiteralNumberHex),
			rule(`0b[01_]+`, LiteralNumberBin),
			rule(`(0|[1-9][0-9_]*)`, LiteralNumberInteger),
			rule(`'(\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'`, LiteralStringChar),
			rule("`[^`]*`", LiteralString),
			rule(`"(\\\\|\\"|[^"])*"`, LiteralString),
			rule(`(<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*/%&])`, Operator),
			rule(`([a-zA-Z_]\w*)(\s*)(\()`, ByGroups(NameFunction, UsingSelf("root"), Punctuation)),
			rule(`[|^<>=!()\[\]{}.,;:~]`, Punctuation),
			rule(`[^\W\d]\w*`, NameOther),
		},
	}
}
