package query

import index "github.com/blevesearch/bleve_index_api"

// The index holds stems, and a typo stems otherwise than its word: the
// stem of "activty" is activti, two edits from activ (activity's), and
// "dependncies" stems three from depend. A fuzzy query on the typo's stem
// then misses the word one typo away, as `word~` promises to find. So a
// one-typo search also takes the words one edit from the typed word,
// stemmed, that the index holds: the word meant is among them.

// maxTypoWord bounds the words whose edits are tried: a longer word has
// more than 54 edits a letter, and no typo search needs them.
const maxTypoWord = 24

// oneEdit returns the lower-case ASCII words one edit from w (a letter
// deleted, inserted, replaced, or two swapped), w being lower-case ASCII
// letters; nil for any other w.
func oneEdit(w string) []string {
	if len(w) == 0 || len(w) > maxTypoWord {
		return nil
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return nil
		}
	}
	seen := map[string]bool{w: true}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for i := 0; i <= len(w); i++ {
		if i < len(w) {
			add(w[:i] + w[i+1:])
			if i+1 < len(w) {
				add(w[:i] + string(w[i+1]) + string(w[i]) + w[i+2:])
			}
		}
		for c := byte('a'); c <= 'z'; c++ {
			add(w[:i] + string(c) + w[i:])
			if i < len(w) {
				add(w[:i] + string(c) + w[i+1:])
			}
		}
	}
	return out
}

// typoStems returns the stems of the words one edit from word, other
// than skip (the typo's own stem, fuzzy-matched already): ~1,300 words
// analysed, once for every field they are looked up in (see heldTerms),
// and once a query (the builder builds a clause again to relax a query).
func (b *builder) typoStems(word, skip string) []string {
	key := word + "\x00" + skip
	if stems, ok := b.typos[key]; ok {
		return stems
	}
	var stems []string
	seen := map[string]bool{skip: true}
	for _, v := range oneEdit(word) {
		toks := analyze(b.e.analyzer, v)
		if len(toks) != 1 || seen[toks[0]] {
			continue
		}
		seen[toks[0]] = true
		stems = append(stems, toks[0])
	}
	if b.typos == nil {
		b.typos = map[string][]string{}
	}
	b.typos[key] = stems
	return stems
}

// heldTerms returns those of terms that field's dictionary holds.
func (b *builder) heldTerms(field string, terms []string) ([]string, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	var found []string
	err := b.e.readDict(b.ctx, func(r index.IndexReader) (err error) {
		found, err = dictHas(r, field, terms)
		return err
	})
	return found, err
}

// dictHas returns the terms that field's dictionary holds.
func dictHas(r index.IndexReader, field string, terms []string) ([]string, error) {
	rc, ok := r.(index.IndexReaderContains)
	if !ok {
		// A reader that cannot tell: each term then counts as held, and
		// a term query on one it lacks matches nothing.
		return terms, nil
	}
	d, err := rc.FieldDictContains(field)
	if err != nil {
		return nil, err
	}
	var found []string
	for _, t := range terms {
		ok, err := d.Contains([]byte(t))
		if err != nil {
			return nil, err
		}
		if ok {
			found = append(found, t)
		}
	}
	return found, nil
}
