package parsers

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/convsearch/convsearch/conversation"
)

// Registry holds the parsers convsearch knows, in the order Detect tries
// them. It is built in one place (parsers/all), never by init side effects.
type Registry struct {
	parsers []Parser
}

// NewRegistry returns a registry of ps, tried in the given order: put the
// parsers whose detection is most specific first.
func NewRegistry(ps ...Parser) *Registry {
	return &Registry{parsers: append([]Parser(nil), ps...)}
}

// Parsers returns the registered parsers in detection order.
func (r *Registry) Parsers() []Parser { return append([]Parser(nil), r.parsers...) }

// Generation fingerprints the registry's families, their versions and their
// order, never 0. A file no family claimed is recorded with it, and sniffed
// again when it changes: a family that now detects what it missed (a damaged
// head, a new format) finds the files it was blind to without their being
// touched. Sniffing reads only a head, so redoing it after an upgrade is cheap.
func (r *Registry) Generation() int {
	h := fnv.New32a()
	for _, p := range r.parsers {
		info := p.Info()
		fmt.Fprintf(h, "%s:%d;", info.Name, info.Version)
	}
	return int(h.Sum32()>>1) | 1
}

// Lookup returns the parser named name, or nil.
func (r *Registry) Lookup(name string) Parser {
	for _, p := range r.parsers {
		if p.Info().Name == name {
			return p
		}
	}
	return nil
}

// Detect returns the first parser that recognises path from its first bytes,
// or ErrFormat.
func (r *Registry) Detect(path string, head []byte) (Parser, error) {
	for _, p := range r.parsers {
		if p.Detect(path, head) {
			return p, nil
		}
	}
	return nil, ErrFormat
}

// MaxLeadingNULs is how many NUL bytes ReadHead reads past at the start of a
// file to find its head.
const MaxLeadingNULs = 1 << 20

// ReadHead returns the first HeadSize bytes of the file at path. A file that
// starts with NUL bytes (a crash can leave whole blocks of them before the
// first record) is shown from its first other byte, if one comes within
// MaxLeadingNULs: parsers skip the NULs when they read, so detection must
// see past them too.
func ReadHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head := make([]byte, HeadSize)
	// Each round drops the leading NULs and tops the head up from the file.
	n, skipped := 0, 0
	for {
		k, err := io.ReadFull(f, head[n:])
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return nil, ReadError(path, err)
		}
		n += k
		i := n - len(bytes.TrimLeft(head[:n], "\x00"))
		if i == 0 || skipped >= MaxLeadingNULs {
			return head[:n], nil
		}
		skipped += i
		n = copy(head, head[i:n])
	}
}

// DetectFile detects the parser of the file at path. It returns ErrFormat
// (wrapped, naming the path) when none recognises it.
func (r *Registry) DetectFile(path string) (Parser, error) {
	head, err := ReadHead(path)
	if err != nil {
		return nil, err
	}
	p, err := r.Detect(path, head)
	if err != nil {
		return nil, Wrap(path, 0, err)
	}
	return p, nil
}

// ParseFile detects and parses the file at path. When p is nil, the parser is
// detected; otherwise p reads it. Errors name the file.
func (r *Registry) ParseFile(ctx context.Context, path string, p Parser) (Parser, *Result, error) {
	return r.ParseFileFrom(ctx, path, p, nil)
}

// ParseFileFrom is ParseFile with every byte read from the file also written
// to tee (a hash, say), so a file is read once for both. tee may be nil.
func (r *Registry) ParseFileFrom(ctx context.Context, path string, p Parser, tee io.Writer) (Parser, *Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err // *fs.PathError names the file
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, nil, Errorf(path, 0, ErrFormat, "is a folder")
	}
	var src io.Reader = f
	if tee != nil {
		src = io.TeeReader(f, tee)
	}
	br := bufio.NewReaderSize(src, 64<<10)
	head, err := br.Peek(HeadSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, nil, ReadError(path, err)
	}
	if p == nil && len(head) > 0 && head[0] == 0 {
		// Leading NULs: ReadHead looks past them.
		if p, err = r.DetectFile(path); err != nil {
			return nil, nil, err
		}
	}
	if p == nil {
		if p, err = r.Detect(path, head); err != nil {
			return nil, nil, Wrap(path, 0, err)
		}
	}
	res, err := p.Parse(ctx, path, br)
	if err != nil {
		return p, nil, Wrap(path, 0, err)
	}
	if tee != nil {
		// Parsers may stop before EOF; the hash must cover the whole file.
		if _, err := io.Copy(io.Discard, br); err != nil {
			return p, nil, ReadError(path, err)
		}
	}
	cutWarnings(res, path)
	for _, c := range res.Conversations {
		if c.Source == "" {
			c.Source = p.Info().Name
		}
		if c.File == "" {
			c.File = path
		}
	}
	return p, res, nil
}

// Companions returns the companion files of path for parser p (nil when p
// reads path alone).
func Companions(p Parser, path string) []string {
	if c, ok := p.(Companioned); ok {
		return c.Companions(path)
	}
	return nil
}

// skipDirs are folders that never hold conversations and can be huge.
var skipDirs = map[string]bool{".git": true, "node_modules": true, ".hg": true, ".svn": true, "__pycache__": true}

// SkipDir reports whether a folder named name is passed over by Walk.
func SkipDir(name string) bool { return skipDirs[name] }

// Walk calls fn for every file under root that a parser recognises, in lexical
// order. A file that cannot be read is passed to fn with a nil parser and the
// error; fn's error stops the walk. Files no parser recognises are skipped.
// root may be a single file.
func (r *Registry) Walk(ctx context.Context, root string, fn func(path string, p Parser, err error) error) error {
	if resolved, err := filepath.EvalSymlinks(root); err == nil {
		root = resolved
	}
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			if path == root {
				return err
			}
			return fn(path, nil, err)
		}
		if d.IsDir() {
			if path != root && SkipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			// Symlinks are followed only when named as roots: a link inside a
			// tree may point back up it.
			return nil
		}
		head, err := ReadHead(path)
		if err != nil {
			return fn(path, nil, err)
		}
		p, err := r.Detect(path, head)
		if err != nil {
			return nil
		}
		return fn(path, p, nil)
	})
}

// HasExt reports whether path ends in one of exts (case-insensitive), a help
// for Detect methods that combine a name check with a content check.
func HasExt(path string, exts ...string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range exts {
		if ext == e {
			return true
		}
	}
	return false
}

// ReadConversations parses path again with the family named format (a
// Conversation's Source) and returns its conversations. It lets a reader of
// the index (query) show a conversation whole without knowing formats.
func (r *Registry) ReadConversations(ctx context.Context, format, path string) ([]*conversation.Conversation, error) {
	p := r.Lookup(format)
	if p == nil {
		return nil, fmt.Errorf("%s: no parser %q", path, format)
	}
	_, res, err := r.ParseFile(ctx, path, p)
	if err != nil {
		return nil, err
	}
	return res.Conversations, nil
}

// ParsePaths detects and parses every conversation file under paths (files
// or folders) and calls fn for each: with its result, or with the error
// that kept it from being read (naming the file). A bad file never stops
// the run: only an error fn returns, or ctx ending, does. A file named
// explicitly that no parser recognises is an error; one found while walking
// a folder is skipped.
func (r *Registry) ParsePaths(ctx context.Context, paths []string, fn func(path string, p Parser, res *Result, err error) error) error {
	handle := func(path string, p Parser) error {
		_, res, err := r.ParseFile(ctx, path, p)
		if err != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		return fn(path, p, res, err)
	}
	for _, root := range paths {
		st, err := os.Stat(root)
		if err != nil {
			if err := fn(root, nil, nil, err); err != nil {
				return err
			}
			continue
		}
		if !st.IsDir() {
			p, err := r.DetectFile(root)
			if err != nil {
				err = fn(root, nil, nil, err)
			} else {
				err = handle(root, p)
			}
			if err != nil {
				return err
			}
			continue
		}
		var stop error // fn's own error ends the walk and the run
		err = r.Walk(ctx, root, func(path string, p Parser, err error) error {
			if err != nil {
				stop = fn(path, nil, nil, err)
			} else {
				stop = handle(path, p)
			}
			return stop
		})
		switch {
		case stop != nil:
			return stop
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			if err := fn(root, nil, nil, fmt.Errorf("walk %s: %w", root, err)); err != nil {
				return err
			}
		}
	}
	return nil
}

// DefaultRoots returns the default locations of every family (see Locator)
// that exist on this machine, each once.
func (r *Registry) DefaultRoots(home string, getenv func(string) string) []string {
	seen := map[string]bool{}
	var roots []string
	for _, p := range r.parsers {
		l, ok := p.(Locator)
		if !ok {
			continue
		}
		for _, root := range l.DefaultRoots(home, getenv) {
			root = filepath.Clean(root)
			if seen[root] {
				continue
			}
			if _, err := os.Stat(root); err == nil {
				seen[root] = true
				roots = append(roots, root)
			}
		}
	}
	return roots
}
