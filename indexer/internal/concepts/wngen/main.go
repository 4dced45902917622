// Command wngen writes the concept table of package concepts and, with
// -irregular, the table of irregular forms of package irregular, from
// WordNet 3.0 (Princeton University; permissive licence, reproduced in the
// header it writes), which Debian's wordnet-base package installs under
// /usr/share/wordnet:
//
//	apt-get install wordnet-base && go generate ./indexer/internal/concepts/
//
// For every one-word noun it lists the words of what that noun is a kind
// or an instance of, from its most frequent senses: its synonyms and
// its hypernyms up a few levels ("goulash": stew, dish; "lisbon": capital,
// city; "physiotherapy": therapy). A question asks with those broader
// words ("which dish", "what therapy") where a conversation names the
// thing itself. A multi-word lemma gives its head word ("wheeled vehicle":
// vehicle). The most general synsets (near WordNet's root) say nothing and
// are left out. Concept words are written stemmed as the index's analyzer
// stems (Porter), so a question's analysed words match them as they are;
// nouns are written as they appear in text, with WordNet's irregular
// plurals ("children") listed too. A word that WordNet's tagged texts use
// more often as a verb, adjective or adverb than as a noun ("use", "run",
// "change") is left out: in a text it is seldom the noun.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
)

const (
	// maxUp is how many hypernym levels are followed from a noun's sense.
	maxUp = 4
	// minDepth leaves out synsets this close to WordNet's root (entity 0,
	// physical entity and abstraction 1, object 2 …): too general to tell
	// one conversation from another.
	minDepth = 4
	// maxBelow leaves out synsets with more kinds below them than this
	// (counted along every hypernym path): "artifact", "person" and
	// "activity" are broader than anything a question asks about, and
	// every text would file them.
	maxBelow = 1500
	// maxWords caps one noun's concept words, nearest first.
	maxWords = 6
	// maxSenses is how many of a noun's senses count when WordNet counted
	// how often each occurs (tagged senses come first); maxUntagged when
	// it did not, and the order of senses says little.
	maxSenses   = 1
	maxUntagged = 2
)

type synset struct {
	words  []string // lemmas, lower case, words separated by spaces
	hypers []int    // offsets of hypernyms and instance hypernyms
	depth  int      // shortest hypernym path to a root; -1 until known
	below  int      // synsets under it, counted along every path
}

func main() {
	dir := flag.String("wordnet", "/usr/share/wordnet", "WordNet 3.0 database files")
	out := flag.String("o", "concepts.txt", "output file")
	irr := flag.String("irregular", "", "also write the table of package irregular to this file")
	flag.Parse()
	if err := run(*dir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "wngen:", err)
		os.Exit(1)
	}
	if *irr != "" {
		if err := writeIrregular(*dir, *irr); err != nil {
			fmt.Fprintln(os.Stderr, "wngen:", err)
			os.Exit(1)
		}
	}
}

func run(dir, out string) error {
	syn, err := readData(filepath.Join(dir, "data.noun"))
	if err != nil {
		return err
	}
	senses, err := readIndex(filepath.Join(dir, "index.noun"))
	if err != nil {
		return err
	}
	noun, other, err := readCounts(filepath.Join(dir, "cntlist.rev"))
	if err != nil {
		return err
	}
	for l := range senses {
		if other[l] > noun[l] {
			delete(senses, l)
		}
	}
	exc, err := readExceptions(filepath.Join(dir, "noun.exc"))
	if err != nil {
		return err
	}
	// Forms take the senses of bases that are lemmas, never of another
	// form: a chain ("mediae" media, "media" medium) would make the table
	// depend on the map's order.
	plurals := map[string][]int{}
	for form, base := range exc {
		if _, ok := senses[form]; !ok && senses[base] != nil {
			plurals[form] = senses[base]
		}
	}
	maps.Copy(senses, plurals)
	lemmas := make([]string, 0, len(senses))
	for l := range senses {
		lemmas = append(lemmas, l)
	}
	slices.Sort(lemmas)

	f, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("create %s: %w", out, err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprint(w, header)
	for _, l := range lemmas {
		ws := concepts(syn, l, senses[l])
		if len(ws) == 0 {
			continue
		}
		fmt.Fprintf(w, "%s\t%s\n", l, strings.Join(ws, " "))
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", out, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	return nil
}

// concepts returns the concept words of lemma l of the given senses
// (synset offsets): their synonyms' head words, then their hypernyms' level
// by level.
func concepts(syn map[int]*synset, l string, senses []int) []string {
	var out []string
	seen := map[string]bool{stem(l): true}
	add := func(s *synset) {
		for _, w := range s.words {
			h := head(w)
			if h == "" {
				continue
			}
			h = stem(h)
			if seen[h] {
				continue
			}
			seen[h] = true
			out = append(out, h)
		}
	}
	var level []int
	visited := map[int]bool{}
	for _, off := range senses {
		if s := syn[off]; s != nil && !visited[off] {
			visited[off] = true
			add(s)
			level = append(level, off)
		}
	}
	for up := 0; up < maxUp && len(level) > 0; up++ {
		var next []int
		for _, o := range level {
			for _, h := range syn[o].hypers {
				if visited[h] {
					continue
				}
				visited[h] = true
				hs := syn[h]
				if hs == nil || depth(syn, h) < minDepth || hs.below > maxBelow {
					continue
				}
				add(hs)
				next = append(next, h)
			}
		}
		level = next
	}
	if len(out) > maxWords {
		out = out[:maxWords]
	}
	return out
}

// head is the word of a lemma that names what it is: the only word, the
// last word ("wheeled vehicle"), or the word before "of" ("line of
// work"). Words that are not plain lower-case letters give "".
func head(lemma string) string {
	ws := strings.Fields(lemma)
	h := ws[len(ws)-1]
	if i := slices.Index(ws, "of"); i > 0 {
		h = ws[i-1]
	}
	for _, r := range h {
		if r < 'a' || r > 'z' {
			return ""
		}
	}
	if len(h) < 3 {
		return ""
	}
	return h
}

// stem stems w with the index analyzer's stemmer (indexer.AnalyzerName).
func stem(w string) string {
	ts := porter.NewPorterStemmer().Filter(analysis.TokenStream{{Term: []byte(w)}})
	return string(ts[0].Term)
}

// readCounts reads cntlist.rev, "lemma%ss_type:… sense_number tag_cnt",
// for how often each one-word lemma was tagged as a noun and as anything
// else.
func readCounts(path string) (noun, other map[string]int, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err // a PathError: it names the file
	}
	noun, other = map[string]int{}, map[string]int{}
	for line := range strings.SplitSeq(string(b), "\n") {
		fs := strings.Fields(line)
		if len(fs) != 3 {
			continue
		}
		lemma, key, ok := strings.Cut(fs[0], "%")
		if !ok || key == "" || head(lemma) != lemma {
			continue
		}
		n, err := strconv.Atoi(fs[2])
		if err != nil {
			return nil, nil, fmt.Errorf("read %s: %q: %w", path, line, err)
		}
		if key[0] == '1' {
			noun[lemma] += n
		} else {
			other[lemma] += n
		}
	}
	return noun, other, nil
}

// readExceptions reads noun.exc: "inflected base…", one-word forms only.
func readExceptions(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err // a PathError: it names the file
	}
	exc := map[string]string{}
	for line := range strings.SplitSeq(string(b), "\n") {
		fs := strings.Fields(line)
		if len(fs) >= 2 && head(fs[0]) == fs[0] {
			exc[fs[0]] = fs[1]
		}
	}
	return exc, nil
}

// countBelow sets every synset's below: each synset adds one to every
// ancestor along every path.
func countBelow(syn map[int]*synset) {
	var up func(off int, seen map[int]bool)
	up = func(off int, seen map[int]bool) {
		for _, h := range syn[off].hypers {
			if hs := syn[h]; hs != nil && !seen[h] {
				seen[h] = true
				hs.below++
				up(h, seen)
			}
		}
	}
	for off := range syn {
		up(off, map[int]bool{})
	}
}

func depth(syn map[int]*synset, off int) int {
	s := syn[off]
	if s.depth >= 0 {
		return s.depth
	}
	s.depth = 0 // a root, and a guard against cycles while this one is open
	d := -1
	for _, h := range s.hypers {
		if syn[h] == nil {
			continue
		}
		if hd := depth(syn, h) + 1; d < 0 || hd < d {
			d = hd
		}
	}
	if d > 0 {
		s.depth = d
	}
	return s.depth
}

// readData reads data.noun: "offset lex_filenum ss_type w_cnt(hex) word
// lex_id … p_cnt(3 digits) [symbol offset pos source/target]… | gloss".
func readData(path string) (map[int]*synset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err // a PathError: it names the file
	}
	defer f.Close()
	syn := map[int]*synset{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") {
			continue // the licence at the top
		}
		data, _, _ := strings.Cut(line, " | ")
		fs := strings.Fields(data)
		if len(fs) < 5 {
			return nil, fmt.Errorf("%s:%d: too few fields", path, n)
		}
		off, err := strconv.Atoi(fs[0])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: offset: %w", path, n, err)
		}
		wc, err := strconv.ParseInt(fs[3], 16, 32)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: word count: %w", path, n, err)
		}
		s := &synset{depth: -1}
		i := 4
		for range wc {
			if i+1 >= len(fs) {
				return nil, fmt.Errorf("%s:%d: short word list", path, n)
			}
			w := strings.ToLower(fs[i])
			if p := strings.IndexByte(w, '('); p > 0 { // adjective markers such as (a)
				w = w[:p]
			}
			s.words = append(s.words, strings.ReplaceAll(w, "_", " "))
			i += 2
		}
		pc, err := strconv.Atoi(fs[i])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: pointer count: %w", path, n, err)
		}
		i++
		for range pc {
			if i+3 >= len(fs) {
				return nil, fmt.Errorf("%s:%d: short pointer list", path, n)
			}
			if (fs[i] == "@" || fs[i] == "@i") && fs[i+2] == "n" {
				h, err := strconv.Atoi(fs[i+1])
				if err != nil {
					return nil, fmt.Errorf("%s:%d: pointer: %w", path, n, err)
				}
				s.hypers = append(s.hypers, h)
			}
			i += 4
		}
		syn[off] = s
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	countBelow(syn)
	return syn, nil
}

// readIndex reads index.noun for the most frequent senses of every one-word
// lemma of letters.
func readIndex(path string) (map[string][]int, error) {
	senses := map[string][]int{}
	err := eachIndexEntry(path, func(lemma string, tagged int, offsets []string) error {
		if head(lemma) != lemma {
			return nil // several words, digits or punctuation
		}
		keep := min(tagged, maxSenses)
		if tagged == 0 {
			keep = maxUntagged
		}
		for _, o := range offsets[:min(keep, len(offsets))] {
			off, err := strconv.Atoi(o)
			if err != nil {
				return fmt.Errorf("offset: %w", err)
			}
			senses[lemma] = append(senses[lemma], off)
		}
		return nil
	})
	return senses, err
}

// eachIndexEntry calls fn with each entry of a WordNet index file, "lemma
// pos synset_cnt p_cnt [symbol]… sense_cnt tagsense_cnt offset…": its
// lemma, how many of its senses tagged text holds, and its synsets'
// offsets, senses by decreasing tagged frequency.
func eachIndexEntry(path string, fn func(lemma string, tagged int, offsets []string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err // a PathError: it names the file
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") {
			continue // the licence at the top
		}
		fs := strings.Fields(line)
		if len(fs) < 6 {
			return fmt.Errorf("%s:%d: too few fields", path, n)
		}
		pc, err := strconv.Atoi(fs[3])
		if err != nil || 4+pc+2 >= len(fs) {
			return fmt.Errorf("%s:%d: pointer count", path, n)
		}
		tagged, err := strconv.Atoi(fs[4+pc+1])
		if err != nil {
			return fmt.Errorf("%s:%d: tagged sense count: %w", path, n, err)
		}
		if err := fn(fs[0], tagged, fs[4+pc+2:]); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

const header = `# Concept words of one-word English nouns, written by wngen from WordNet 3.0:
# "noun<TAB>synonyms' and hypernyms' head words, nearest first, stemmed", of
# the noun's most frequent senses. Do not edit; regenerate (see wngen).
#
# WordNet Release 3.0. This software and database is being provided to you,
# the LICENSEE, by Princeton University under the following license. By
# obtaining, using and/or copying this software and database, you agree that
# you have read, understood, and will comply with these terms and conditions.:
# Permission to use, copy, modify and distribute this software and database
# and its documentation for any purpose and without fee or royalty is hereby
# granted, provided that you agree to comply with the following copyright
# notice and statements, including the disclaimer, and that the same appear on
# ALL copies of the software, database and documentation, including
# modifications that you make for internal use or for distribution.
# WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved.
# THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES
# NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT
# NOT LIMITATION, PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF
# MERCHANT- ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF
# THE LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD
# PARTY PATENTS, COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS.
# The name of Princeton University or Princeton may not be used in advertising
# or publicity pertaining to distribution of the software and/or database.
# Title to copyright in this software, database and any associated
# documentation shall at all times remain with Princeton University and
# LICENSEE agrees to preserve same.
`
