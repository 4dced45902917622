package query

import "time"

// A question may say more than its words: when ("what did Mel paint in
// July?"). That weighs a grouped question's hits before the conversations
// are ranked.

// datedBoost: a hit from a time the question names counts 1+datedBoost
// times. Chosen on the tune half of the recall set's dated questions
// (docs/RECALL.md): R@1 rose with it to 3 and no further.
const datedBoost = 3.0

// weights is what a question says beside its words.
type weights struct {
	dated []period // the times it names, resolved
}

// questionWeights reads q's times, resolved against now.
func questionWeights(q string, now time.Time) *weights {
	w := &weights{dated: periods(q)}
	for i := range w.dated {
		w.dated[i].resolve(now)
	}
	return w
}

// weigh scales h's score by what the question says of it.
func (w *weights) weigh(h *Hit) {
	if w == nil {
		return
	}
	for i := range w.dated {
		if w.dated[i].contains(h.Date) {
			h.Score *= 1 + datedBoost
			return
		}
	}
}
