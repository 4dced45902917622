// Package irregular gives the base form of English irregular verbs and
// plurals, from WordNet's exception lists: "ran" is run, "bought" buy,
// "went" go, "children" child. The Porter stemmer folds regular endings
// only, so a question in the present ("when did she go to the support
// group", "what did he buy") would never meet a story told in the past
// ("I went to a support group", "I bought a scooter").
package irregular

import (
	_ "embed"
	"sync"

	"github.com/convsearch/convsearch/indexer/internal/wordtab"
)

// table is "form<TAB>base" lines written by package concepts' wngen, with
// the concept table: go generate ./indexer/internal/concepts/.
//
//go:embed irregular.txt
var table string

// Table maps irregular forms to their base forms. Its zero value is not
// usable: get one from Load.
type Table struct {
	m map[string]string
}

// Load returns the table, parsed on first use and only read afterwards, so
// it is safe for concurrent use.
var Load = sync.OnceValue(func() *Table {
	return &Table{m: wordtab.Parse(table, 2000)}
})

// Base returns the base form of a lower-case word, or "" when it is not an
// irregular form of the table. It allocates nothing: it runs for every word
// the index files.
func (t *Table) Base(word []byte) string {
	return t.m[string(word)]
}
