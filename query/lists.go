package query

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/indexer"
)

// ErrNotFound means no conversation has the id asked for.
var ErrNotFound = errors.New("no such conversation")

// TopicCount is a topic and the number of conversations about it.
type TopicCount struct {
	Name          string `json:"name"`
	Conversations int    `json:"conversations"`
}

// TopicsRequest asks for the most frequent topics.
type TopicsRequest struct {
	Projects []string `json:"project,omitempty"`
	Sources  []string `json:"source,omitempty"`
	Limit    int      `json:"limit,omitempty"`  // default 50, at most 1000
	Offset   int      `json:"offset,omitempty"` // skip this many, 0 to MaxOffset
}

// Topics returns topics by the number of conversations that have them, most
// frequent first (ties by name).
func (e *Engine) Topics(ctx context.Context, r TopicsRequest) ([]TopicCount, error) {
	if r.Limit == 0 {
		r.Limit = 50
	}
	if r.Limit < 1 || r.Limit > MaxLimit {
		return nil, fmt.Errorf("limit %d out of range: 1 to %d", r.Limit, MaxLimit)
	}
	if r.Offset < 0 || r.Offset > MaxOffset {
		return nil, fmt.Errorf("offset %d out of range: 0 to %d", r.Offset, MaxOffset)
	}
	req := Request{Types: []string{indexer.KindTopic}, Projects: r.Projects, Sources: r.Sources}
	q := combine(req.filters(), nil, nil)
	sr := bleve.NewSearchRequestOptions(q, 0, 0, false)
	// Ask for more than needed: facet counts of the tail are exact only when
	// the facet holds every term, and ties must be broken by name.
	// A page deep down needs the terms before it: offset and limit are
	// both bounded, so this is too.
	sr.AddFacet("t", bleve.NewFacetRequest(indexer.FieldTopicKey, (r.Offset+r.Limit)*4))
	res, err := e.search(ctx, sr)
	if err != nil {
		return nil, fmt.Errorf("topics: %w", err)
	}
	out := []TopicCount{}
	if f := res.Facets["t"]; f != nil {
		for _, t := range f.Terms.Terms() {
			out = append(out, TopicCount{Name: t.Term, Conversations: t.Count})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Conversations != out[j].Conversations {
			return out[i].Conversations > out[j].Conversations
		}
		return out[i].Name < out[j].Name
	})
	out = out[min(r.Offset, len(out)):]
	if len(out) > r.Limit {
		out = out[:r.Limit]
	}
	return out, nil
}

// DecisionsRequest asks for decisions.
type DecisionsRequest struct {
	Query    string    `json:"query,omitempty"`
	Projects []string  `json:"project,omitempty"`
	Sources  []string  `json:"source,omitempty"`
	Since    time.Time `json:"since,omitzero"`
	Until    time.Time `json:"until,omitzero"`
	Limit    int       `json:"limit,omitempty"`
	Offset   int       `json:"offset,omitempty"` // skip this many, 0 to MaxOffset
}

// Decisions returns decisions, newest first, or by relevance when there is
// a query. Each hit's Text is the decision, Rationale its reason.
func (e *Engine) Decisions(ctx context.Context, r DecisionsRequest) (*Result, error) {
	req := Request{
		Query: r.Query, Types: []string{indexer.KindDecision}, Projects: r.Projects, Sources: r.Sources,
		Since: r.Since, Until: r.Until, Limit: r.Limit, Offset: r.Offset, Sort: SortNewest, kindOfList: true,
	}
	if strings.TrimSpace(r.Query) != "" {
		req.Sort = SortRelevance
	}
	return e.Search(ctx, req)
}

// Conversation returns what the index holds of conversation id. id may
// also be a hit's id (m/ID/N, c/ID, t/…, d/…): the hit's conversation, when
// it has that message, topic or decision (else a *NoHitError).
func (e *Engine) Conversation(ctx context.Context, id string) (*ConversationInfo, error) {
	ids := []string{indexer.ConversationDocID(id)}
	conv, _, isHit := indexer.ParseDocID(id)
	if isHit {
		ids = append(ids, indexer.ConversationDocID(conv))
	}
	infos, err := e.conversationDocs(ctx, ids)
	if err != nil {
		return nil, err
	}
	// A conversation whose own id looks like a hit's comes first.
	if info, ok := infos[id]; ok {
		return &info, nil
	}
	info, ok := infos[conv]
	if !isHit || !ok {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err := e.checkHit(ctx, &info, id); err != nil {
		return nil, err
	}
	return &info, nil
}

// NoHitError is a hit's id that names a message, decision or topic its
// conversation does not have: "m/ID/999" of a conversation of 16 messages.
// It is an ErrNotFound.
type NoHitError struct {
	ID             string // the hit's id as given
	ConversationID string
	Kind           string // indexer.KindMessage, KindDecision or KindTopic
	N              int    // the message or decision asked for
	Count          int    // the conversation's messages or decisions
	// File is set when the index holds the hit but the conversation's
	// file, read again, does not (GoneHit): Count is the file's.
	File string
}

func (e *NoHitError) Error() string {
	if e.Kind == indexer.KindTopic {
		return fmt.Sprintf("conversation %s has no topic %q (%s)", e.ConversationID, e.ID[strings.LastIndexByte(e.ID, '/')+1:], e.ID)
	}
	has := fmt.Sprintf("%d %ss (0 to %d)", e.Count, e.Kind, e.Count-1)
	switch e.Count {
	case 0:
		has = "no " + e.Kind + "s"
	case 1:
		has = "1 " + e.Kind + " (0)"
	}
	if e.File != "" {
		return fmt.Sprintf("no %s %d in %s: it is no longer in %s, which has %s now (the index is older than the file; it is updated when the file is indexed again)", e.Kind, e.N, e.ConversationID, e.File, has)
	}
	return fmt.Sprintf("conversation %s has %s; no %s %d (%s)", e.ConversationID, has, e.Kind, e.N, e.ID)
}

// Is makes a NoHitError an ErrNotFound: the thing asked for does not exist.
func (e *NoHitError) Is(target error) bool { return target == ErrNotFound }

// checkHit returns a *NoHitError unless conversation info has the message,
// decision or topic that hit id names: a number out of range would
// otherwise open the conversation as if it had been asked for.
func (e *Engine) checkHit(ctx context.Context, info *ConversationInfo, id string) error {
	kind, _, _ := strings.Cut(id, "/")
	if kind == "c" {
		return nil
	}
	if _, n, _ := indexer.ParseDocID(id); kind == "m" {
		if n < info.Messages {
			return nil
		}
		return &NoHitError{ID: id, ConversationID: info.ID, Kind: indexer.KindMessage, N: n, Count: info.Messages}
	}
	// Topics and decisions: their own documents say whether they exist.
	sr, err := e.search(ctx, bleve.NewSearchRequestOptions(bleve.NewDocIDQuery([]string{id}), 0, 0, false))
	if err != nil {
		return fmt.Errorf("look up %s: %w", id, err)
	}
	if sr.Total > 0 {
		return nil
	}
	if kind == "t" {
		return &NoHitError{ID: id, ConversationID: info.ID, Kind: indexer.KindTopic}
	}
	conv := bleve.NewTermQuery(info.ID)
	conv.SetField(indexer.FieldConversationID)
	dq := bleve.NewTermQuery(indexer.KindDecision)
	dq.SetField(indexer.FieldType)
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(conv, dq), 0, 0, false)
	req.Score = "none"
	if sr, err = e.search(ctx, req); err != nil {
		return fmt.Errorf("decisions of %s: %w", info.ID, err)
	}
	return &NoHitError{ID: id, ConversationID: info.ID, Kind: indexer.KindDecision, N: indexer.DecisionNumber(id), Count: int(sr.Total)}
}

// resolveHits returns ids (conversation filters) with each read one way,
// as Conversation reads it: a conversation whose own id it is (even
// "m/x/1"), else the one a hit's id names. It returns the *NoHitError of
// the first that is a hit's id naming what its conversation does not have;
// an id naming no conversation is no error: a filter that keeps nothing.
func (e *Engine) resolveHits(ctx context.Context, ids []string) ([]string, error) {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		c, _ := ConversationID(id)
		if c == id {
			out = append(out, id)
			continue
		}
		var nh *NoHitError
		conv, err := e.Conversation(ctx, id)
		if errors.As(err, &nh) || (err != nil && !errors.Is(err, ErrNotFound)) {
			return nil, err
		}
		if err == nil && conv.ID == id {
			out = append(out, id) // the literal conversation wins
		} else {
			out = append(out, c)
		}
	}
	return out, nil
}

// ConversationID returns the conversation id a hit's id names (m/ID/N →
// ID, and the message index N; -1 for other kinds), or id itself when it is
// not a hit's id.
func ConversationID(id string) (conv string, message int) {
	if c, m, ok := indexer.ParseDocID(id); ok {
		return c, m
	}
	return id, -1
}

// HitMessage returns the message of conversation c that a hit's id points
// at: a message hit's index, or the message a decision hit was taken in
// (d/ID/N is c's N-th decision); -1 for c's own id and other hits.
func HitMessage(c *conversation.Conversation, id string) int {
	conv, msg := ConversationID(id)
	if conv != c.ID || id == c.ID {
		return -1
	}
	if strings.HasPrefix(id, "d/") {
		n := indexer.DecisionNumber(id)
		if n < 0 || n >= len(c.Decisions) {
			return -1
		}
		msg = c.Decisions[n].MessageIndex
	}
	if msg >= len(c.Messages) {
		return -1
	}
	return msg
}

// GoneHit returns a *NoHitError when a hit's id names a message or
// decision that conversation c, read again from its file, no longer holds:
// the file was rewritten shorter since it was indexed, and opening the
// whole conversation as if nothing was asked would pass for an answer. nil
// for c's own id, other conversations' ids and hits c holds.
func GoneHit(c *conversation.Conversation, id string) error {
	conv, msg := ConversationID(id)
	if conv != c.ID || id == c.ID {
		return nil
	}
	kind, have := indexer.KindMessage, len(c.Messages)
	if strings.HasPrefix(id, "d/") {
		kind, msg, have = indexer.KindDecision, indexer.DecisionNumber(id), len(c.Decisions)
	}
	if msg < have {
		return nil
	}
	return &NoHitError{ID: id, ConversationID: c.ID, Kind: kind, N: msg, Count: have, File: c.File}
}

// StoredMessage is a message as the index holds it: its searchable text,
// which is all of its text but not its structure.
type StoredMessage struct {
	Index     int       `json:"index"`
	Role      string    `json:"role"`
	Content   string    `json:"content"`
	Timestamp time.Time `json:"timestamp,omitzero"`
	Hidden    bool      `json:"hidden,omitempty"`
}

// Messages returns the stored messages from..to (inclusive) of
// conversation id, in order.
func (e *Engine) Messages(ctx context.Context, id string, from, to int) ([]StoredMessage, error) {
	from = max(from, 0)
	if to < from {
		return nil, nil
	}
	ids := make([]string, 0, to-from+1)
	for i := from; i <= to; i++ {
		ids = append(ids, indexer.MessageDocID(id, i))
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery(ids), len(ids), 0, false)
	req.Fields = []string{indexer.FieldMessageIndex, indexer.FieldRole, indexer.FieldContent, indexer.FieldDate, indexer.FieldHidden}
	sr, err := e.search(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("messages of %s: %w", id, err)
	}
	out := make([]StoredMessage, 0, len(sr.Hits))
	for _, dm := range sr.Hits {
		m := StoredMessage{Role: str(dm.Fields[indexer.FieldRole]), Content: str(dm.Fields[indexer.FieldContent]), Hidden: str(dm.Fields[indexer.FieldHidden]) == "true"}
		if f, ok := dm.Fields[indexer.FieldMessageIndex].(float64); ok {
			m.Index = int(f)
		}
		m.Timestamp, _ = timeOf(dm.Fields[indexer.FieldDate])
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out, nil
}

// Related returns the conversations most like conversation id: those that
// share its topics, and whose text matches its title and topics.
func (e *Engine) Related(ctx context.Context, id string, limit int) (*Result, error) {
	if limit == 0 {
		limit = 10
	}
	if limit < 1 || limit > 100 {
		return nil, fmt.Errorf("limit %d out of range: 1 to 100", limit)
	}
	info, err := e.Conversation(ctx, id)
	if err != nil {
		return nil, err
	}
	// No query text: relatedQuery is the query.
	r := Request{Limit: limit, Sort: SortRelevance, Group: true, NoHighlight: true}
	res, err := e.run(ctx, r, relatedQuery(info), nil, nil)
	if err != nil {
		return nil, err
	}
	res.Query = "related:" + info.ID
	return res, nil
}

// Bounds on what Related asks for: a conversation may carry thousands of
// topics or a title a page long, and each topic is three clauses, so
// without them one conversation's relatives cost minutes and gigabytes.
const (
	relatedTopics = 16 // the conversation's first topics, in its own order
	relatedWords  = 24 // words of the title, and of each topic
)

// relatedQuery is the query of Related: documents that share info's first
// topics or whose text matches them and its title, not info's own.
func relatedQuery(info *ConversationInfo) bq.Query {
	var should []bq.Query
	seen := map[string]bool{}
	for _, t := range info.Topics {
		t = firstWords(t, relatedWords)
		if t == "" || seen[strings.ToLower(t)] {
			continue
		}
		if len(seen) == relatedTopics {
			break
		}
		seen[strings.ToLower(t)] = true
		for _, f := range []string{indexer.FieldTopics, indexer.FieldName} {
			q := bleve.NewMatchPhraseQuery(t)
			q.SetField(f)
			q.SetBoost(3)
			should = append(should, q)
		}
		q := bleve.NewMatchQuery(t)
		q.SetField(indexer.FieldContent)
		should = append(should, q)
	}
	if title := firstWords(info.Title, relatedWords); title != "" {
		for _, f := range []string{indexer.FieldTitle, indexer.FieldContent} {
			q := bleve.NewMatchQuery(title)
			q.SetField(f)
			should = append(should, q)
		}
	}
	self := bleve.NewTermQuery(info.ID)
	self.SetField(indexer.FieldConversationID)
	return combine(nil, should, []bq.Query{self})
}

// firstWords is s cut to its first n words, joined by single spaces.
func firstWords(s string, n int) string {
	words := strings.Fields(s)
	return strings.Join(words[:min(n, len(words))], " ")
}

// AddContext fills the Context of every message hit with the n messages
// before and after it.
func (e *Engine) AddContext(ctx context.Context, hits []Hit, n int) error {
	if n <= 0 {
		return nil
	}
	for i := range hits {
		h := &hits[i]
		if h.Kind != indexer.KindMessage || h.MessageIndex == nil {
			continue
		}
		msgs, err := e.Messages(ctx, h.ConversationID, *h.MessageIndex-n, *h.MessageIndex+n)
		if err != nil {
			return err
		}
		h.Context = msgs
	}
	return nil
}
