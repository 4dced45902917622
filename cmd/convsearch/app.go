package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"strings"

	"github.com/spf13/pflag"

	"github.com/convsearch/convsearch/daemon"
)

// Env is what a command may touch of the outside world, so tests can run
// commands in-process with their own streams and environment.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// UserHomeDir finds the home folder when $HOME is unset (os.UserHomeDir
	// in main; nil: no home beyond $HOME).
	UserHomeDir func() (string, error)

	configWarned bool // the config file's unknown keys were warned of
}

// home returns the user's home folder: $HOME, else what UserHomeDir finds.
func (e *Env) home() (string, error) {
	if h := e.Getenv("HOME"); h != "" {
		return h, nil
	}
	if e.UserHomeDir == nil {
		return "", errors.New("$HOME is not set")
	}
	return e.UserHomeDir()
}

// usageError is a mistake in how the command was called: exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// errReported means the command has already told the user what went wrong
// (per-file errors on stderr) and must exit 1 without saying more.
var errReported = errors.New("errors reported")

// command is one subcommand.
type command struct {
	name    string
	summary string
	usage   string // arguments after the name, e.g. "[flags] PATH…"
	// run is called with the subcommand's arguments.
	run func(ctx context.Context, env *Env, args []string) error
}

func commands() []command {
	return []command{
		{"formats", "list the conversation formats convsearch reads", "[--json]", runFormats},
		{"parse", "detect and parse conversation files, print a summary or the canonical JSON", "[flags] PATH…", runParse},
		{"export", "write conversations as portable-format files plus an index.json manifest", "--to DIR [flags] PATH…", runExport},
		{"index", "bring the index in line with the conversation files under the roots", "[--root DIR]… [--rebuild] [flags] [DIR]…", runIndex},
		{"search", "search the index: words, \"phrases\", -not, OR, prefix*, typo~, field:value; with only filters, list what they keep", "[flags] [QUERY]", runSearch},
		{"show", "show a conversation, or the messages around one", "ID [--message N --context K] [--json]", runShow},
		{"topics", "list topics by the number of conversations about them", "[--project P] [--json]", runTopics},
		{"decisions", "list decisions with their rationale", "[QUERY] [--project P] [--since T] [--offset N] [--json]", runDecisions},
		{"stats", "show what the index holds", "[--json] [flags]", runStats},
		{"watch", "keep the index in line with the files, in the foreground", "[--root DIR]… [flags] [DIR]…", runWatch},
		{"serve", "run the daemon: the watcher, an HTTP API and a search page on localhost", "[--addr 127.0.0.1:PORT] [--root DIR]… [flags] [DIR]…", runServe},
		{"open", "print a link that logs a browser in to the running daemon's search page", "[--json]", runOpen},
		{"mcp", "serve the index to AI agents over MCP on stdio", "[--root DIR]… [flags]", runMcp},
		{"setup", "register convsearch with every AI agent installed here (MCP), and optionally its session-start hook and user service", "[--dry-run] [--hook] [--service] [--remove] [--json]", runSetup},
		{"recall", "print a short summary of this project's recent decisions and conversations (for session-start hooks)", "[--hook] [--project P] [--json]", runRecall},
		{"check", "check the index for damage: its metadata, and each segment's footer and CRC", "[--quick] [--json] [flags]", runCheck},
		{"bench", "measure indexing and query speed on a generated corpus, and search recall on question sets", "[index|query|recall|all] [flags]", runBench},
		{"version", "print convsearch's version (also convsearch --version)", "[--json]", runVersion},
	}
}

func lookupCommand(name string) (command, bool) {
	for _, c := range append(commands(), subcommands()...) {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// subcommands are reached through another command ("bench recall" through
// bench): listed for their usage, not in the help's list.
func subcommands() []command {
	return []command{
		{name: "bench index", summary: "measure indexing on a generated corpus: bench --phases index", usage: "[flags]"},
		{name: "bench query", summary: "measure queries on a generated corpus, indexed first if it is not yet: bench --phases query", usage: "[flags]"},
		{name: "bench recall", summary: "measure how well plain questions find their conversation: R@1, R@5 and MRR over the project's question sets, or your own (docs/RECALL.md)", usage: "[flags]"},
	}
}

func run(ctx context.Context, args []string, env *Env) error {
	if len(args) == 0 {
		printHelp(env.Stderr)
		return usagef("no command given")
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "--help":
		if len(rest) > 0 && rest[0] != "-h" && rest[0] != "--help" {
			if c, ok := lookupCommand(rest[0]); ok {
				if err := c.run(ctx, env, []string{"--help"}); !errors.Is(err, errHelp) {
					return err
				}
				return nil
			}
			return usagef("unknown command %q", rest[0])
		}
		printHelp(env.Stdout)
		return nil
	case "--version":
		name = "version"
	}
	c, ok := lookupCommand(name)
	if !ok {
		fmt.Fprintf(env.Stderr, "convsearch: unknown command %q\n\n", name)
		printHelp(env.Stderr)
		return &usageError{msg: "unknown command " + name}
	}
	if err := c.run(ctx, env, rest); !errors.Is(err, errHelp) {
		return err
	}
	return nil
}

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// versionInfo is what `convsearch version --json` prints.
type versionInfo struct {
	Version string `json:"version"`
	// Build is the version with the VCS revision (and whether the checkout
	// was modified) when Go recorded it: what a command compares with the
	// daemon it goes through.
	Build string `json:"build"`
	Go    string `json:"go"`   // the Go release the binary was built with
	OS    string `json:"os"`   // GOOS
	Arch  string `json:"arch"` // GOARCH
}

func runVersion(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "version")
	asJSON := fs.Bool("json", false, "print the version as JSON")
	if err := parseFlags(env, fs, "version", args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("version takes no arguments")
	}
	if *asJSON {
		return writeJSON(env.Stdout, versionInfo{Version: version, Build: daemon.BuildID(version), Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH})
	}
	_, err := fmt.Fprintln(env.Stdout, "convsearch", version)
	return err
}

func printHelp(w io.Writer) {
	fmt.Fprintf(w, "convsearch makes the AI conversations kept by many tools searchable from one place.\n\n")
	fmt.Fprintf(w, "Usage: convsearch COMMAND [flags] [args]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "  %-10s %s\n", "help", "show help for convsearch or a command (convsearch help CMD)")
	fmt.Fprintf(w, "\nRun 'convsearch CMD --help' for a command's flags.\n")
}

// newFlags returns the flag set of subcommand name, printing its usage to
// env.Stderr on error and to env.Stdout for --help.
func newFlags(env *Env, name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet("convsearch "+name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	if flagSetMade != nil {
		flagSetMade(fs)
	}
	return fs
}

// flagSetMade, when set (by tests), is given every flag set newFlags makes.
var flagSetMade func(*pflag.FlagSet)

// parseFlags parses args into fs. --help prints the command's usage to
// stdout and returns errHelp; a bad flag is a usage error.
func parseFlags(env *Env, fs *pflag.FlagSet, name string, args []string) error {
	err := fs.Parse(args)
	if errors.Is(err, pflag.ErrHelp) {
		printUsage(env.Stdout, fs, name)
		return errHelp
	}
	if err != nil {
		printUsage(env.Stderr, fs, name)
		if strings.HasPrefix(err.Error(), "unknown") && (name == "search" || name == "decisions") {
			// A pasted command's flag ("--no-verify") taken for one of ours.
			return usagef("%s: %v (to search for text that starts with a dash, put it after --: convsearch %s -- %s)", name, err, name, queryArgs(fs, args))
		}
		return usagef("%s: %v", name, err)
	}
	if err := expandPathFlags(env, fs); err != nil {
		return usagef("%s: %v", name, err)
	}
	return nil
}

// queryArgs is what of args is not a flag of fs (nor a flag's value), and
// all after "--", as one quoted query: the text a search was given, for
// the hint of a flag fs does not know.
func queryArgs(fs *pflag.FlagSet, args []string) string {
	var words []string
args:
	for i := 0; i < len(args); i++ {
		a := args[i]
		var f *pflag.Flag
		switch {
		case a == "--":
			// The rest is the query's, whatever it is named like.
			words = append(words, args[i+1:]...)
			break args
		case strings.HasPrefix(a, "--"):
			f = fs.Lookup(strings.SplitN(a[2:], "=", 2)[0])
		case len(a) >= 2 && a[0] == '-':
			f = fs.ShorthandLookup(a[1:2])
			if f != nil && len(a) > 2 && f.NoOptDefVal == "" {
				continue // "-n5": the value given with it
			}
			if len(a) > 2 {
				f = nil // "-rf": no flag of ours
			}
		}
		if f == nil {
			words = append(words, a)
			continue
		}
		if f.NoOptDefVal == "" && !strings.Contains(a, "=") {
			i++ // its value
		}
	}
	// In double quotes: searched as written, a word after a dash too
	// ("-Xmx512m" alone would be a word not wanted).
	q := `"` + strings.ReplaceAll(strings.Join(words, " "), `"`, "") + `"`
	return "'" + strings.ReplaceAll(q, "'", `'\''`) + "'"
}

// errHelp stops a command after --help was printed; run treats it as success.
var errHelp = errors.New("help shown")

func printUsage(w io.Writer, fs *pflag.FlagSet, name string) {
	c, _ := lookupCommand(name)
	fmt.Fprintf(w, "Usage: convsearch %s %s\n\n%s.\n\nFlags:\n", name, c.usage, upperFirst(c.summary))
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// newLogger returns the process's logger: text on stderr, debug with
// --verbose.
func newLogger(env *Env, verbose bool) *slog.Logger {
	level := slog.LevelInfo
	if verbose {
		level = slog.LevelDebug
	}
	return slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: level}))
}
