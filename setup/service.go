package setup

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/convsearch/convsearch/contrib"
)

// serviceMark is the first line of a service file setup wrote: --remove
// deletes a service file only when it carries it.
const serviceMark = "convsearch setup --service wrote this file"

// ServiceFile is where the user service goes on o.GOOS, and its content.
func ServiceFile(o Options) (path, content string) {
	if o.GOOS == "darwin" {
		path = filepath.Join(o.Home, "Library", "LaunchAgents", "io.github.convsearch.plist")
		content = strings.NewReplacer("__CONVSEARCH__", xmlEscape(o.Command), "__HOME__", xmlEscape(o.Home)).Replace(contrib.LaunchdPlist)
		content = strings.Replace(content, "<!--\n", "<!--\n  "+serviceMark+".\n\n", 1)
		return path, content
	}
	path = filepath.Join(o.ConfigHome, "systemd", "user", "convsearch.service")
	content = strings.Replace(contrib.SystemdUnit, "ExecStart=%h/.local/bin/convsearch serve",
		"ExecStart="+systemdQuote(o.Command)+" serve", 1)
	return path, "# " + serviceMark + ".\n" + content
}

// ServiceHelp is how to start and check the service, or stop it before
// its file is removed.
func ServiceHelp(o Options) string {
	path, _ := ServiceFile(o)
	if o.GOOS == "darwin" {
		if o.Remove {
			return "stop it first: launchctl bootout gui/$(id -u)/io.github.convsearch"
		}
		return "start it: launchctl bootstrap gui/$(id -u) " + path + "\ncheck it:  launchctl print gui/$(id -u)/io.github.convsearch; tail ~/Library/Logs/convsearch.log"
	}
	if o.Remove {
		return "stop it: systemctl --user disable --now convsearch.service && systemctl --user daemon-reload"
	}
	return "start it: systemctl --user daemon-reload && systemctl --user enable --now convsearch.service\ncheck it:  systemctl --user status convsearch; journalctl --user -u convsearch"
}

// service writes (or removes) the user service file. It never starts or
// stops the service: ServiceHelp says how.
func (o Options) service() Result {
	path, content := ServiceFile(o)
	r := Result{Agent: "convsearch", Kind: "service", File: path}
	old, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return failed(r, err) // names the file
	}
	if o.Remove {
		if !exists {
			r.Action = Unchanged
			return r
		}
		if !strings.Contains(string(old), serviceMark) {
			r.Action, r.Error = Skipped, "not written by convsearch setup: left alone"
			return r
		}
		r.Action = Removed
		if o.DryRun {
			r.Diff = unifiedDiff(path, old, nil)
			return r
		}
		if err := os.Remove(path); err != nil {
			return failed(r, err)
		}
		return r
	}
	switch {
	case exists && string(old) == content:
		r.Action = Unchanged
		return r
	case exists:
		r.Action = Updated
	default:
		r.Action = Added
	}
	if o.DryRun {
		r.Diff = unifiedDiff(path, old, []byte(content))
		return r
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return failed(r, err)
	}
	backup, err := write(path, old, exists, []byte(content))
	if err != nil {
		return failed(r, err)
	}
	r.Backup = backup
	return r
}

// systemdQuote writes a path for ExecStart: % and $ doubled (systemd
// expands %-specifiers and $VARIABLES there), quoted when it holds spaces.
func systemdQuote(s string) string {
	s = strings.NewReplacer("%", "%%", "$", "$$").Replace(s)
	if strings.ContainsAny(s, " \t\"'\\") {
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
	}
	return s
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
