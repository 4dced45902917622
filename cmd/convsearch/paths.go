package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"
)

// pathFlags are the flags, of any command, whose values are paths. An
// agent's MCP config runs convsearch without a shell, and a shell leaves
// --root=~/x as it is: convsearch expands ~ itself in all of them.
var pathFlags = map[string]bool{
	"root": true, "data-dir": true, "dir": true, "to": true, "cpuprofile": true,
	"repo": true, "questions": true, "locomo": true, "command": true,
}

// expandHome replaces a leading ~ or ~/ of path with the home folder, as a
// shell would; ~user and everything else are left as they are.
func expandHome(env *Env, path string) (string, error) {
	if path != "~" && !strings.HasPrefix(path, "~/") && !(filepath.Separator != '/' && strings.HasPrefix(path, "~"+string(filepath.Separator))) {
		return path, nil
	}
	home, err := env.home()
	if err != nil {
		return "", fmt.Errorf("%s: cannot expand ~: %w", path, err)
	}
	return filepath.Join(home, path[1:]), nil
}

// expandPathFlags expands ~ in the values given to fs's path flags.
func expandPathFlags(env *Env, fs *pflag.FlagSet) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		if err != nil || !pathFlags[f.Name] {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			vals := sv.GetSlice()
			for i, v := range vals {
				if vals[i], err = expandHome(env, v); err != nil {
					return
				}
			}
			err = sv.Replace(vals)
			return
		}
		var v string
		if v, err = expandHome(env, f.Value.String()); err == nil && v != f.Value.String() {
			err = f.Value.Set(v)
		}
	})
	return err
}
