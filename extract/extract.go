// Package extract derives topics and decisions from a conversation's text, for
// conversations whose format does not state them. It is pure: no I/O at run
// time, only the embedded background model.
//
// Topics are the conversation's distinctive 1–3 word phrases, scored by how
// much more often they occur in the conversation than in a background body of
// technical English. Decisions are the sentences in which a participant
// settles something ("we'll use X because Y", "Decision: …", a user accepting
// the assistant's recommendation).
package extract

import (
	"sync"

	"github.com/convsearch/convsearch/conversation"
)

// Options tune an Extractor. The zero value is usable: SetDefaults fills it.
type Options struct {
	// MaxTopics is the most topics returned per conversation (default 5).
	MaxTopics int
	// MinTopicScore drops weaker topics, so that a conversation with little
	// text gets few or none (default 2.5; negative keeps every candidate).
	MinTopicScore float64
	// MaxDecisions is the most decisions returned per conversation (default
	// 50).
	MaxDecisions int
	// MaxDecisionLen is the longest decision or rationale text, in runes
	// (default 200); longer text is cut at a word and marked with "…".
	MaxDecisionLen int
}

// SetDefaults fills the unset fields of o.
func (o *Options) SetDefaults() {
	if o.MaxTopics <= 0 {
		o.MaxTopics = 5
	}
	if o.MinTopicScore == 0 {
		o.MinTopicScore = 2.5
	}
	if o.MaxDecisions <= 0 {
		o.MaxDecisions = 50
	}
	if o.MaxDecisionLen <= 0 {
		o.MaxDecisionLen = 200
	}
}

// Extractor derives topics and decisions. It is safe for concurrent use.
type Extractor struct {
	// The background is made when topics are first extracted: parsing the
	// built-in one takes milliseconds that a process which opens the index
	// only to search (every command builds its store's Extractor) would
	// pay for nothing.
	bgOnce sync.Once
	bgNew  func() Background
	bg     Background
	table  *table // bg when it is the built-in kind, for allocation-free lookups
	opts   Options
	pool   sync.Pool // *topicState, reused between calls
	dpool  sync.Pool // *decisionState
}

// New returns an Extractor scoring topics against bg (DefaultBackground when
// nil).
func New(bg Background, opts Options) *Extractor {
	opts.SetDefaults()
	e := &Extractor{opts: opts, bgNew: DefaultBackground}
	if bg != nil {
		e.bgNew = func() Background { return bg }
	}
	e.pool.New = func() any { return newTopicState() }
	e.dpool.New = func() any { return new(decisionState) }
	return e
}

// Apply fills c.Topics and c.Decisions with extracted ones, each only when the
// conversation has no explicit ones of that kind. Extracted entries left by an
// earlier Apply are replaced.
func (e *Extractor) Apply(c *conversation.Conversation) {
	if !hasExplicitTopics(c.Topics) {
		c.Topics = e.Topics(c)
	}
	if !hasExplicitDecisions(c.Decisions) {
		c.Decisions = e.Decisions(c)
	}
}

func hasExplicitTopics(ts []conversation.Topic) bool {
	for _, t := range ts {
		if t.Origin != conversation.OriginExtracted {
			return true
		}
	}
	return false
}

func hasExplicitDecisions(ds []conversation.Decision) bool {
	for _, d := range ds {
		if d.Origin != conversation.OriginExtracted {
			return true
		}
	}
	return false
}

// usable reports whether a message's content is something a participant said
// in the conversation: not hidden context, not a tool's output, not deleted.
func usable(m *conversation.Message) bool {
	if m.Hidden || m.Deleted {
		return false
	}
	return m.Role == conversation.RoleUser || m.Role == conversation.RoleAssistant
}

// background makes e's background if it is not made yet.
func (e *Extractor) background() {
	e.bgOnce.Do(func() {
		e.bg = e.bgNew()
		e.table, _ = e.bg.(*table)
	})
}
