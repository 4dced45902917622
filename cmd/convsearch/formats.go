package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/all"
)

type formatInfo struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Detection   string   `json:"detection"`
	Locations   []string `json:"locations,omitempty"`
	// Found lists the default locations that exist on this machine.
	Found   []string `json:"found,omitempty"`
	Version int      `json:"version"`
}

func runFormats(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "formats")
	asJSON := fs.Bool("json", false, "print the formats as JSON")
	if err := parseFlags(env, fs, "formats", args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("formats takes no arguments")
	}
	reg := all.Registry()
	home, _ := env.home()
	var infos []formatInfo
	for _, p := range reg.Parsers() {
		in := p.Info()
		fi := formatInfo{Name: in.Name, Description: in.Description, Detection: in.Detection, Locations: in.Locations, Version: in.Version}
		if l, ok := p.(parsers.Locator); ok {
			for _, root := range l.DefaultRoots(home, env.Getenv) {
				if _, err := os.Stat(root); err == nil {
					fi.Found = append(fi.Found, root)
				}
			}
		}
		infos = append(infos, fi)
	}
	if *asJSON {
		return writeJSON(env.Stdout, infos)
	}
	for _, fi := range infos {
		fmt.Fprintf(env.Stdout, "%s (v%d)\n", fi.Name, fi.Version)
		tw := tabwriter.NewWriter(env.Stdout, 0, 4, 1, ' ', 0)
		fmt.Fprintf(tw, "  reads:\t%s\n", fi.Description)
		fmt.Fprintf(tw, "  detected by:\t%s\n", fi.Detection)
		if len(fi.Locations) > 0 {
			fmt.Fprintf(tw, "  locations:\t%s\n", strings.Join(fi.Locations, ", "))
		}
		for _, f := range fi.Found {
			fmt.Fprintf(tw, "  found here:\t%s\n", f)
		}
		tw.Flush()
		fmt.Fprintln(env.Stdout)
	}
	return nil
}

// defaultRoots returns the default locations of every format that exist on
// this machine.
func defaultRoots(env *Env, reg *parsers.Registry) []string {
	home, _ := env.home()
	return reg.DefaultRoots(home, env.Getenv)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
