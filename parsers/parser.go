// Package parsers defines how a conversation format is read: the Parser
// interface, a Registry that detects which parser reads a file, and the errors
// parsers report. Each format family lives in a sub-package; parsers/all lists
// them in one place.
package parsers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"

	"github.com/convsearch/convsearch/conversation"
)

// HeadSize is how many bytes of a file Detect is shown.
const HeadSize = 4096

// Info describes a format family for people (`convsearch formats`) and for the
// indexer (Version).
type Info struct {
	// Name is the family's short name, used as Conversation.Source.
	Name string
	// Description says what the family reads.
	Description string
	// Detection says how a file is recognised.
	Detection string
	// Locations lists where the writing tool keeps its files, for people
	// ("~/.claude/projects", "$CODEX_HOME/sessions"). See Locator for the
	// machine-readable form.
	Locations []string
	// Version changes whenever the parser's output for the same input changes,
	// or the files it detects do: the indexer re-parses files read by an older
	// version, and sniffs again files no family claimed (Registry.Generation).
	Version int
}

// Parser reads one conversation format.
//
// The unit a parser reads is one file, its primary file, plus any companion
// files beside it that it reads by path (see Companioned): a rao conversation
// is its conversation_log.json with the side files of its folder; a
// personalagent conversation is its .jsonl with its .meta.json.
type Parser interface {
	Info() Info
	// Detect reports whether path, whose first bytes are head (at most
	// HeadSize, fewer for short files), is a primary file of this format. It
	// must be cheap and must not rely on the extension alone.
	Detect(path string, head []byte) bool
	// Parse reads the primary file at path from r. It returns every
	// conversation in it, with messages in reading order and Index set, and
	// warnings for what it skipped. It returns an error (naming path) when the
	// file cannot be read as this format at all.
	Parse(ctx context.Context, path string, r io.Reader) (*Result, error)
}

// Result is what a parse yields.
type Result struct {
	Conversations []*conversation.Conversation
	// Warnings are problems that did not stop the parse (a malformed line
	// skipped), each naming the file and, where there is one, the line.
	Warnings []error

	ids map[string]int // ids given so far, for AddUnique
}

// Warn records a problem that did not stop the parse.
func (r *Result) Warn(err error) { r.Warnings = append(r.Warnings, err) }

// AddUnique adds c to an export file's conversations. The same id twice in
// one file (exports concatenated by hand) keeps both: the later one is read
// as <id>~<n>, with a warning naming path and line.
func (r *Result) AddUnique(c *conversation.Conversation, path string, line int) {
	if r.ids == nil {
		r.ids = map[string]int{}
	}
	if n := r.ids[c.ID]; n > 0 {
		r.Warn(Errorf(path, line, ErrShape, "conversation %s appears %d times: this one is read as %s~%d", c.ID, n+1, c.ID, n+1))
		r.ids[c.ID]++
		c.ID = c.ID + "~" + strconv.Itoa(n+1)
	}
	r.ids[c.ID]++
	r.Conversations = append(r.Conversations, c)
}

// Companioned is implemented by parsers whose unit spans more than one file.
// Companions lists the other files that Parse(path) reads, whether or not they
// exist now; a change to any of them means path must be parsed again.
type Companioned interface {
	Companions(path string) []string
}

// Locator is implemented by parsers that know where their tool keeps its files
// on this machine. getenv is os.Getenv or a test's stand-in; home is the user's
// home folder. The paths returned need not exist.
type Locator interface {
	DefaultRoots(home string, getenv func(string) string) []string
}

// Sentinel causes, for errors.Is.
var (
	// ErrFormat means no parser recognises the file.
	ErrFormat = errors.New("not a known conversation format")
	// ErrSyntax means the file is not well-formed (bad JSON, cut short).
	ErrSyntax = errors.New("syntax error")
	// ErrShape means the file is well-formed but not of the shape its format
	// requires.
	ErrShape = errors.New("unexpected shape")
	// ErrTooLarge means the file exceeds what a parser will hold in memory.
	ErrTooLarge = errors.New("file too large")
)

// Error is a parse error with its position.
type Error struct {
	Path string
	Line int // 1-based; 0 when unknown
	Err  error
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error for path (and line, if > 0) whose cause wraps
// kind (ErrSyntax, ErrShape, …) with a formatted reason.
func Errorf(path string, line int, kind error, format string, args ...any) error {
	return &Error{Path: path, Line: line, Err: fmt.Errorf("%w: %s", kind, fmt.Sprintf(format, args...))}
}

// ReadError is err, met reading path, as "read PATH: err", or err itself
// when it is an *fs.PathError that names path already (what reading an
// *os.File gives), which would say the path twice.
func ReadError(path string, err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok && pe.Path == path {
		return err
	}
	return fmt.Errorf("read %s: %w", path, err)
}

// Wrap returns err as an *Error for path and line, keeping it for errors.Is.
// It returns nil for a nil err and err itself when it already names path.
func Wrap(path string, line int, err error) error {
	if err == nil {
		return nil
	}
	var pe *Error
	if errors.As(err, &pe) && pe.Path == path {
		return err
	}
	return &Error{Path: path, Line: line, Err: err}
}
