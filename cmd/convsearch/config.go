package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/convsearch/convsearch/daemon"
	rootset "github.com/convsearch/convsearch/internal/roots"
	"github.com/convsearch/convsearch/internal/term"
	"github.com/convsearch/convsearch/parsers"
)

// storeFlags are the flags every command that reads or writes the index
// shares.
type storeFlags struct {
	DataDir string
	Roots   []string
	// NoDefaults leaves out the default locations and the config file's
	// roots: only --root counts.
	NoDefaults bool
	Verbose    bool
}

func (s *storeFlags) register(fs *pflag.FlagSet, withRoots bool) {
	fs.StringVar(&s.DataDir, "data-dir", "", "where the index lives (default $CONVSEARCH_DATA, else $XDG_DATA_HOME/convsearch)")
	if withRoots {
		fs.StringArrayVar(&s.Roots, "root", nil, "a folder or file to index (repeatable); adds to the default locations and the config file's roots")
		fs.BoolVar(&s.NoDefaults, "no-default-roots", false, "index only the --root folders, not the default locations nor the config file's roots")
	}
	fs.BoolVarP(&s.Verbose, "verbose", "v", false, "log more on stderr")
}

// positionalRoots adds the arguments after the flags to the roots of
// index, serve or watch (`convsearch index DIR` means --root DIR). Each
// must exist: a word that is not a file or folder here is more likely a
// flag without its dashes (`index rebuild`) than a root, so it is a usage
// error, not a walk that fails or a daemon that waits for it.
func (s *storeFlags) positionalRoots(env *Env, flags *pflag.FlagSet, name string) error {
	for _, a := range flags.Args() {
		p, err := expandHome(env, a)
		if err != nil {
			return usagef("%s: %v", name, err)
		}
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			s.Roots = append(s.Roots, a)
			continue
		}
		flag := strings.TrimLeft(a, "-")
		if f := flags.Lookup(flag); f != nil && flag != "" {
			return usagef("%s: no file or folder %q here: did you mean --%s?", name, a, f.Name)
		}
		if name == "index" {
			return usagef("%s: no file or folder %q here: give the folders or files to index, as arguments or with --root DIR", name, a)
		}
		return usagef("%s: no file or folder %q here: a root that does not exist yet is given with --root %s, and waited for", name, a, a)
	}
	return nil
}

// dataDir resolves the data folder: --data-dir, $CONVSEARCH_DATA,
// $XDG_DATA_HOME/convsearch, ~/.local/share/convsearch.
func (s *storeFlags) dataDir(env *Env) (string, error) {
	if s.DataDir != "" {
		return filepath.Abs(s.DataDir)
	}
	if d := env.Getenv("CONVSEARCH_DATA"); d != "" {
		return filepath.Abs(d)
	}
	if d := env.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "convsearch"), nil
	}
	home, err := env.home()
	if err != nil {
		return "", fmt.Errorf("no data folder: set --data-dir or $CONVSEARCH_DATA: %w", err)
	}
	return filepath.Join(home, ".local", "share", "convsearch"), nil
}

// configPath is $XDG_CONFIG_HOME/convsearch/config.json (default
// ~/.config/convsearch/config.json).
func configPath(env *Env) string {
	if d := env.Getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "convsearch", "config.json")
	}
	home, _ := env.home()
	return filepath.Join(home, ".config", "convsearch", "config.json")
}

// config is the user's config file.
type config struct {
	// Roots are folders (or files) to index besides the default locations.
	Roots []string `json:"roots"`
	// Redact, when false, keeps secrets in the index and in answers. Unset
	// means true: turning it off is an explicit choice, and changing it
	// rebuilds the index.
	Redact *bool `json:"redact,omitempty"`
}

// redacts reports whether secrets are taken out (the default).
func (c *config) redacts() bool { return c.Redact == nil || *c.Redact }

func loadConfig(env *Env) (*config, error) {
	path := configPath(env)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &config{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config: %w", err) // an *fs.PathError: it names the file
	}
	var c config
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("read config %s: %w", path, err)
	}
	if !env.configWarned {
		// Once per command, though the config is read more than once.
		env.configWarned = true
		warnUnknownKeys(env, path, data)
	}
	// A root starts with ~ or is absolute; a relative one is under the
	// config file's folder, not under whatever folder a command (or a
	// service, in $HOME or /) runs in.
	for i, r := range c.Roots {
		if r, err = expandHome(env, r); err != nil {
			return nil, fmt.Errorf("config %s: root %w", path, err)
		}
		if !filepath.IsAbs(r) {
			r = filepath.Join(filepath.Dir(path), r)
		}
		c.Roots[i] = r
	}
	return &c, nil
}

// warnUnknownKeys says on stderr which keys of the config file (data, at
// path) convsearch does not know, a typo such as "root" for "roots" that
// would quietly change nothing. Only a warning: a config written for a
// newer convsearch still works with this one.
func warnUnknownKeys(env *Env, path string, data []byte) {
	var keys map[string]json.RawMessage
	if json.Unmarshal(data, &keys) != nil {
		return
	}
	known := configKeys()
	var unknown []string
	for k := range keys {
		if !slices.ContainsFunc(known, func(n string) bool { return strings.EqualFold(n, k) }) {
			unknown = append(unknown, strconv.Quote(k))
		}
	}
	if len(unknown) == 0 {
		return
	}
	sort.Strings(unknown)
	what := "key"
	if len(unknown) > 1 {
		what = "keys"
	}
	fmt.Fprintf(env.Stderr, "convsearch: warning: config %s: unknown %s %s ignored (known keys: %s)\n",
		term.Safe(path), what, term.Safe(strings.Join(unknown, ", ")), strings.Join(known, ", "))
}

// configKeys are the keys of the config file, as config's JSON tags name
// them.
func configKeys() []string {
	var keys []string
	t := reflect.TypeFor[config]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
}

// roots resolves what to index: --root, plus (unless --no-default-roots or
// only --root was meant) the config file's roots and the default locations
// of every format that exist here.
func (s *storeFlags) roots(env *Env, reg *parsers.Registry) ([]string, error) {
	var roots []string
	seen := map[string]bool{}
	add := func(r string) {
		abs, err := filepath.Abs(r)
		if err != nil || seen[abs] {
			return
		}
		seen[abs] = true
		roots = append(roots, abs)
	}
	for _, r := range s.Roots {
		// `convsearch index '~/x'` too: --root was expanded with the flags.
		r, err := expandHome(env, r)
		if err != nil {
			return nil, err
		}
		add(r)
	}
	if s.NoDefaults {
		return rootset.Normalize(roots, parsers.SkipDir), nil
	}
	cfg, err := loadConfig(env)
	if err != nil {
		return nil, err
	}
	for _, r := range cfg.Roots {
		add(r)
	}
	for _, r := range defaultRoots(env, reg) {
		add(r)
	}
	// A root inside another (a default location under a --root) is
	// walked and watched with it, not once more.
	return rootset.Normalize(roots, parsers.SkipDir), nil
}

// store says how to open the index: its folder, and the command's logger
// for the components.
func (s *storeFlags) store(env *Env) (daemon.StoreOptions, error) {
	dir, err := s.dataDir(env)
	if err != nil {
		return daemon.StoreOptions{}, err
	}
	cfg, err := loadConfig(env)
	if err != nil {
		return daemon.StoreOptions{}, err
	}
	return daemon.StoreOptions{Dir: dir, Logger: newLogger(env, s.Verbose), NoRedaction: !cfg.redacts()}, nil
}
