package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// irregularHeader opens the table of package irregular; WordNet's licence
// follows it, as in the concept table.
const irregularHeader = `# Base forms of English irregular verbs and plurals, written by wngen from
# WordNet 3.0's verb.exc and noun.exc: "form<TAB>base", lower case, only where
# the Porter stemmer does not already bring both to one stem ("ran" run,
# "bought" buy, "children" child), and never for a form that is a word of its
# own WordNet found in tagged text ("left", "found", "thought", "data"). Do not
# edit; regenerate (see package concepts' wngen).
#
`

// writeIrregular writes the irregular forms table to out. A form is left out
// when the stemmer already joins it to its base, when it has two bases that
// stem apart ("axes": axe, axis), or when it is itself a noun or verb that
// tagged text uses (tagsense_cnt ≥ 1): turning "left" into "leave" or "rose"
// into "rise" would merge words that mean other things, and the plural
// "roses" would no longer meet the singular.
func writeIrregular(dir, out string) error {
	tagged := map[string]int{}
	for _, pos := range []string{"noun", "verb"} {
		if err := readTagged(filepath.Join(dir, "index."+pos), tagged); err != nil {
			return err
		}
	}
	bases := map[string]map[string]bool{} // form → stems of its bases
	base := map[string]string{}
	for _, pos := range []string{"verb", "noun"} {
		path := filepath.Join(dir, pos+".exc")
		b, err := os.ReadFile(path)
		if err != nil {
			return err // a PathError: it names the file
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			fs := strings.Fields(line)
			if len(fs) < 2 || !letters(fs[0]) || !letters(fs[1]) {
				continue
			}
			for _, bs := range fs[1:] {
				if !letters(bs) {
					continue
				}
				if bases[fs[0]] == nil {
					bases[fs[0]] = map[string]bool{}
					base[fs[0]] = bs
				}
				bases[fs[0]][stem(bs)] = true
			}
		}
	}
	var forms []string
	for f, bs := range bases {
		if len(bs) != 1 || tagged[f] > 0 || bs[stem(f)] {
			continue
		}
		forms = append(forms, f)
	}
	slices.Sort(forms)
	var w strings.Builder
	w.WriteString(irregularHeader)
	w.WriteString(licence())
	for _, f := range forms {
		fmt.Fprintf(&w, "%s\t%s\n", f, base[f])
	}
	if err := os.WriteFile(out, []byte(w.String()), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return nil
}

// licence is WordNet's licence as the concept table's header carries it.
func licence() string {
	_, rest, _ := strings.Cut(header, "#\n")
	return rest
}

// letters reports whether w is two or more plain lower-case letters.
func letters(w string) bool {
	if len(w) < 2 {
		return false
	}
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// readTagged adds to tagged how many of each one-word lemma's senses of
// the index file at path were found in tagged text (tagsense_cnt).
func readTagged(path string, tagged map[string]int) error {
	return eachIndexEntry(path, func(lemma string, t int, _ []string) error {
		tagged[lemma] += t
		return nil
	})
}
