package extract

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"
)

//go:generate go run ./internal/engen -o english.txt

// englishText lists everyday English words by SCOWL level (see
// internal/engen): a single word among them is seldom a topic by itself.
//
//go:embed english.txt
var englishText string

// englishLevel maps a folded word to its SCOWL level (10 the most common);
// absent words are rarer than every level kept. Parsed on first use and only
// read afterwards.
var englishLevel = sync.OnceValue(func() map[string]uint8 {
	m := make(map[string]uint8, 32768)
	for line := range strings.SplitSeq(englishText, "\n") {
		lv, list, ok := strings.Cut(line, "\t")
		if !ok || strings.HasPrefix(lv, "#") {
			continue
		}
		n, err := strconv.Atoi(lv)
		if err != nil || n <= 0 || n > 255 {
			continue
		}
		for w := range strings.FieldsSeq(list) {
			m[w] = uint8(n)
		}
	}
	return m
})

// everyday reports whether the folded word w is everyday English (any
// level kept).
func everyday(w string) bool {
	_, ok := englishLevel()[w]
	return ok
}

// commonest reports whether the folded word w is of SCOWL's level 10, the
// most common English words. Topics weigh only these down: level 20 holds
// "index" and "abstraction" too.
func commonest(w string) bool {
	lv, ok := englishLevel()[w]
	return ok && lv <= 10
}
