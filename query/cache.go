package query

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/convsearch/convsearch/indexer"
)

// generationer is implemented by searchers that can say when the index
// changed (the indexer's Index): conversation details are cached until then.
type generationer interface{ Generation() uint64 }

// convCache keeps conversation details for hits, valid for one generation
// of the index.
type convCache struct {
	mu    sync.Mutex
	gen   uint64
	infos map[string]ConversationInfo
}

const convCacheSize = 20000

func (c *convCache) get(gen uint64, id string) (ConversationInfo, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return ConversationInfo{}, false
	}
	info, ok := c.infos[id]
	return info, ok
}

func (c *convCache) put(gen uint64, infos map[string]ConversationInfo) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || c.infos == nil || len(c.infos)+len(infos) > convCacheSize {
		c.gen, c.infos = gen, make(map[string]ConversationInfo, len(infos))
	}
	for id, info := range infos {
		c.infos[id] = info
	}
}

// addConversationInfo fills each hit's conversation title and date from its
// conversation's document.
func (e *Engine) addConversationInfo(ctx context.Context, hits []Hit) error {
	if len(hits) == 0 {
		return nil
	}
	gen, cacheable := e.generation()
	infos := map[string]ConversationInfo{}
	var ids []string
	for _, h := range hits {
		if _, ok := infos[h.ConversationID]; ok {
			continue
		}
		if cacheable {
			if info, ok := e.convs.get(gen, h.ConversationID); ok {
				infos[h.ConversationID] = info
				continue
			}
		}
		infos[h.ConversationID] = ConversationInfo{}
		ids = append(ids, indexer.ConversationDocID(h.ConversationID))
	}
	if len(ids) > 0 {
		found, err := e.conversationDocs(ctx, ids)
		if err != nil {
			return err
		}
		for id, info := range found {
			infos[id] = info
		}
		if cacheable {
			e.convs.put(gen, found)
		}
	}
	for i := range hits {
		info := infos[hits[i].ConversationID]
		if info.ID == "" {
			continue
		}
		if hits[i].Kind != indexer.KindConversation || hits[i].Title == "" {
			hits[i].Title = info.Title
		}
		if hits[i].Date.IsZero() {
			hits[i].Date = info.Date
		}
		hits[i].File = info.File
	}
	return nil
}

func (e *Engine) generation() (uint64, bool) {
	g, ok := e.s.(generationer)
	if !ok {
		return 0, false
	}
	return g.Generation(), true
}

// ConversationInfo is what the index holds of a conversation itself.
type ConversationInfo struct {
	ID       string    `json:"id"`
	Title    string    `json:"title"`
	Date     time.Time `json:"date,omitzero"`
	Source   string    `json:"source"`
	Project  string    `json:"project,omitempty"`
	File     string    `json:"file"`
	Topics   []string  `json:"topics,omitempty"`
	Tags     []string  `json:"tags,omitempty"`
	Messages int       `json:"messages"`
}

func (e *Engine) conversationDocs(ctx context.Context, docIDs []string) (map[string]ConversationInfo, error) {
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery(docIDs), len(docIDs), 0, false)
	req.Fields = []string{indexer.FieldConversationID, indexer.FieldTitle, indexer.FieldDate, indexer.FieldSource,
		indexer.FieldProject, indexer.FieldFile, indexer.FieldTopics, indexer.FieldTags, indexer.FieldMessages}
	req.SortBy([]string{"_id"})
	sr, err := e.search(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("look up conversations: %w", err)
	}
	out := make(map[string]ConversationInfo, len(sr.Hits))
	for _, dm := range sr.Hits {
		info := ConversationInfo{
			ID:      str(dm.Fields[indexer.FieldConversationID]),
			Title:   str(dm.Fields[indexer.FieldTitle]),
			Source:  str(dm.Fields[indexer.FieldSource]),
			Project: str(dm.Fields[indexer.FieldProject]),
			File:    str(dm.Fields[indexer.FieldFile]),
			Topics:  strs(dm.Fields[indexer.FieldTopics]),
			Tags:    strs(dm.Fields[indexer.FieldTags]),
		}
		info.Date, _ = timeOf(dm.Fields[indexer.FieldDate])
		if f, ok := dm.Fields[indexer.FieldMessages].(float64); ok {
			info.Messages = int(f)
		}
		out[info.ID] = info
	}
	return out, nil
}

// conversationIDs returns the ids of the conversations (at most 10000) that
// have a document matching q.
func (e *Engine) conversationIDs(ctx context.Context, q bq.Query) ([]string, error) {
	req := bleve.NewSearchRequestOptions(q, 0, 0, false)
	req.AddFacet("c", bleve.NewFacetRequest(indexer.FieldConversationID, 10000))
	sr, err := e.search(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	var ids []string
	if f := sr.Facets["c"]; f != nil {
		for _, t := range f.Terms.Terms() {
			ids = append(ids, t.Term)
		}
	}
	sort.Strings(ids)
	return ids, nil
}
