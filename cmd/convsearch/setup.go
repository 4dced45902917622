package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/convsearch/convsearch/setup"
)

func runSetup(_ context.Context, env *Env, args []string) error {
	fs := newFlags(env, "setup")
	dryRun := fs.Bool("dry-run", false, "print what would change, as a diff per file, and change nothing")
	remove := fs.Bool("remove", false, "take out everything setup added: MCP entries, hooks and the service file")
	hook := fs.Bool("hook", false, "also install recall at session start (Claude Code's and Gemini CLI's SessionStart hook)")
	service := fs.Bool("service", false, "also install the daemon as a user service (systemd user unit, launchd agent); prints how to start it, never starts it")
	command := fs.String("command", "", "the convsearch binary to register (default: this one)")
	asJSON := fs.Bool("json", false, "print the results as JSON: a list of {agent, kind, file, action, error, backup}")
	if err := parseFlags(env, fs, "setup", args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("setup: no arguments expected, got %q", fs.Args())
	}
	home, err := env.home()
	if err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	var bin string
	if !*remove { // --remove needs no binary (an old --command may be gone)
		if bin, err = setupCommand(*command, os.Executable, exec.LookPath, os.TempDir()); err != nil {
			return err
		}
	}
	o := setup.Options{
		Home: home, ConfigHome: env.Getenv("XDG_CONFIG_HOME"), GOOS: runtime.GOOS, Getenv: env.Getenv,
		Command: bin, Hook: *hook, Service: *service, Remove: *remove, DryRun: *dryRun,
	}
	results, err := setup.Run(o)
	if err != nil && !errors.Is(err, setup.ErrFailed) {
		return err
	}
	if *asJSON {
		if jerr := writeJSON(env.Stdout, results); jerr != nil {
			return jerr
		}
	} else {
		printSetup(env, o, results)
	}
	if err != nil {
		return errReported
	}
	return nil
}

// setupCommand is the binary setup registers. An explicit --command is
// taken as given (made absolute, links not resolved: a versioned path a
// package manager links to would break at its next upgrade), and must be an
// executable file. Without it, this binary: the path $PATH finds it by when
// that is the same file, a stable name, else its own path; never a
// temporary one of `go run`, which Go deletes.
func setupCommand(explicit string, executable func() (string, error), lookPath func(string) (string, error), tmp string) (string, error) {
	if explicit != "" {
		bin, err := filepath.Abs(explicit)
		if err != nil {
			return "", usagef("setup: --command %s: %v", explicit, err)
		}
		st, err := os.Stat(bin)
		switch {
		case err != nil:
			return "", usagef("setup: --command %s: no such file", explicit)
		case st.IsDir() || (runtime.GOOS != "windows" && st.Mode().Perm()&0o111 == 0):
			return "", usagef("setup: --command %s is not an executable file", explicit)
		}
		return bin, nil
	}
	exe, err := executable()
	if err != nil {
		return "", fmt.Errorf("setup: find this binary: %w (give --command PATH)", err)
	}
	if exe, err = filepath.Abs(exe); err != nil {
		return "", fmt.Errorf("setup: %w", err)
	}
	resolved := evalOr(exe)
	if goBuildTemp(resolved, tmp) || goBuildTemp(exe, tmp) {
		return "", usagef("setup: %s is a temporary binary of `go run`, which Go deletes when it ends: install it (go install ./cmd/convsearch, then convsearch setup), or give the binary to register with --command PATH", exe)
	}
	if p, err := lookPath("convsearch"); err == nil {
		// sameFile follows the links on the way.
		if p, err = filepath.Abs(p); err == nil && sameFile(p, resolved) {
			return p, nil
		}
	}
	return resolved, nil
}

// goBuildTemp reports whether bin is under a go-build folder of tmp, where
// go run builds.
func goBuildTemp(bin, tmp string) bool {
	for _, t := range []string{tmp, evalOr(tmp)} {
		rel, err := filepath.Rel(t, bin)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if strings.HasPrefix(rel, "go-build") {
			return true
		}
	}
	return false
}

// evalOr is p with its links resolved, p itself when that fails.
func evalOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

func printSetup(env *Env, o setup.Options, results []setup.Result) {
	w := env.Stdout
	changed, failures := 0, 0
	backups := false
	var skipped []string
	for _, r := range results {
		if r.Diff != "" {
			fmt.Fprint(w, r.Diff)
		}
	}
	for _, r := range results {
		switch r.Action {
		case setup.Skipped:
			if r.Kind == "mcp" {
				skipped = append(skipped, r.Agent)
				continue
			}
		case setup.Added, setup.Updated, setup.Removed:
			changed++
		case setup.Failed:
			failures++
			fmt.Fprintf(env.Stderr, "convsearch: setup %s: %s\n", r.Agent, r.Error)
		}
		backups = backups || r.Backup != ""
		verb := string(r.Action)
		if o.DryRun && r.Action != setup.Unchanged && r.Action != setup.Skipped && r.Action != setup.Failed {
			verb = "would be " + verb
		}
		label := r.Agent
		if r.Kind != "mcp" {
			label += " (" + r.Kind + ")"
		}
		line := fmt.Sprintf("%-18s %-24s %s", verb, label, r.File)
		if r.Action == setup.Skipped {
			line += "  (" + r.Error + ")"
		}
		fmt.Fprintln(w, strings.TrimRight(line, " "))
		if r.Kind == "service" && (r.Action != setup.Unchanged || !o.Remove) && r.Action != setup.Skipped && r.Action != setup.Failed {
			fmt.Fprintln(w, indentLines(setup.ServiceHelp(o), "  "))
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(w, "not installed here: %s\n", strings.Join(skipped, ", "))
	}
	switch {
	case o.DryRun:
		fmt.Fprintln(w, "dry run: nothing was changed")
	case changed == 0 && failures == 0:
		fmt.Fprintln(w, "nothing to change: already set up this way")
	case changed == 0:
	case backups:
		fmt.Fprintf(w, "backups of changed files are beside them, named FILE%s\n", setup.BackupSuffix)
	}
	if changed > 0 && !o.DryRun && !o.Remove {
		fmt.Fprintln(w, "restart the agents to pick the changes up")
	}
}

func indentLines(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
