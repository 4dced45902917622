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

// Load returns the table of irregular forms and their bases, parsed on
// first use. Get gives a lower-case form's base, or "" for any other word.
var Load = sync.OnceValue(func() *wordtab.Table { return wordtab.New(table, 2000) })
