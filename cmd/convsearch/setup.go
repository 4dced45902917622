package main

import (
	"context"
	"errors"
	"fmt"
	"os"
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
	asJSON := fs.Bool("json", false, "print the results as JSON: a list of {agent, kind, file, action, error}")
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
	bin := *command
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return fmt.Errorf("setup: find this binary: %w (give --command PATH)", err)
		}
	}
	if bin, err = filepath.Abs(bin); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(bin); err == nil {
		bin = resolved
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

func printSetup(env *Env, o setup.Options, results []setup.Result) {
	w := env.Stdout
	changed := 0
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
			fmt.Fprintf(env.Stderr, "convsearch: setup %s: %s\n", r.Agent, r.Error)
		}
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
	case changed == 0:
		fmt.Fprintln(w, "nothing to change: already set up this way")
	case !o.Remove:
		fmt.Fprintf(w, "backups of changed files are beside them, named FILE%s; restart the agents to pick the changes up\n", setup.BackupSuffix)
	}
}

func indentLines(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
