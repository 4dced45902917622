package extract

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHeadRanked checks the selection against a full sort: the same head,
// in the same order, with every tie of its last score.
func TestHeadRanked(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 500 {
		n := r.IntN(400)
		order := make([]ranked, n)
		for i := range order {
			order[i] = ranked{float64(r.IntN(1 + trial%40)), i} // many ties
		}
		r.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		want := slices.Clone(order)
		slices.SortFunc(want, cmpRanked)
		k := 1 + r.IntN(50)
		wantHead := min(k, n)
		for wantHead < n && want[wantHead].score == want[wantHead-1].score {
			wantHead++
		}
		got := slices.Clone(order)
		head := headRanked(got, k)
		if head != wantHead || !slices.Equal(got[:head], want[:head]) {
			t.Fatalf("trial %d (n %d, k %d): head %d %v, want %d %v", trial, n, k, head, got[:head], wantHead, want[:wantHead])
		}
		slices.SortFunc(got[head:], cmpRanked)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: the rest differs", trial)
		}
	}
}
