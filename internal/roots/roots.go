// Package roots normalises the roots convsearch walks and watches, in the
// one way the commands, the ingester and the watcher share.
package roots

import (
	"path/filepath"
	"slices"
	"strings"
)

// Normalize returns roots absolute and clean, each once, and without a root
// that another's walk already covers: one inside another would be walked,
// parsed, counted and watched twice. Symlinks are resolved to compare roots
// (a link and its target are one root), but each root is returned as given,
// made absolute; the first of equal roots stays, and the order is kept.
//
// A root inside another stays when the walk would not reach it: below a
// folder skip passes over (nil: none), as the walk does not go there. So
// does one that does not exist, which the walk would not report missing.
func Normalize(roots []string, skip func(name string) bool) []string {
	type entry struct {
		abs, real string
		exists    bool
	}
	var es []entry
	seen := map[string]bool{}
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			abs = filepath.Clean(r)
		}
		real, exists := abs, false
		if resolved, err := filepath.EvalSymlinks(abs); err == nil {
			real, exists = resolved, true
		}
		if seen[real] {
			continue
		}
		seen[real] = true
		es = append(es, entry{abs, real, exists})
	}
	out := make([]string, 0, len(es))
	for _, e := range es {
		// reaches is false for e itself: no two entries share a real path.
		covered := e.exists && slices.ContainsFunc(es, func(o entry) bool { return reaches(o.real, e.real, skip) })
		if !covered {
			out = append(out, e.abs)
		}
	}
	return out
}

// reaches reports whether a walk of outer reaches path, strictly inside it.
func reaches(outer, path string, skip func(string) bool) bool {
	rel, err := filepath.Rel(outer, path)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	if skip == nil {
		return true
	}
	dirs := strings.Split(rel, string(filepath.Separator))
	for _, d := range dirs[:len(dirs)-1] {
		if skip(d) {
			return false
		}
	}
	// The root itself, when a folder skip names, is passed over too.
	return !skip(dirs[len(dirs)-1])
}
