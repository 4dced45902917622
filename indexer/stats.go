package indexer

import (
	"context"
	"fmt"
	"time"

	"github.com/blevesearch/bleve/v2"
)

// Stats describes what the index holds.
type Stats struct {
	Documents  uint64            `json:"documents"`
	ByKind     map[string]uint64 `json:"by_kind"`
	BySource   map[string]uint64 `json:"by_source"`
	ByProject  map[string]uint64 `json:"by_project"`
	Files      int               `json:"files"`
	FileErrors int               `json:"file_errors"`
	IndexBytes int64             `json:"index_bytes"`
	LastSync   time.Time         `json:"last_sync,omitzero"`
	Dir        string            `json:"data_dir"`
}

// Stats counts the index's documents per kind, and its conversations per
// source and project.
func (ix *Index) Stats(ctx context.Context) (_ *Stats, err error) {
	release, err := ix.hold()
	if err != nil {
		return nil, err
	}
	defer release()
	defer recoverDamaged(&err, ix.opts.Logger, ix.idx.Name())
	s := &Stats{ByKind: map[string]uint64{}, BySource: map[string]uint64{}, ByProject: map[string]uint64{}, Dir: ix.opts.Dir}
	n, err := ix.idx.DocCount()
	if err != nil {
		return nil, fmt.Errorf("count documents: %w", err)
	}
	s.Documents = n

	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), 0, 0, false)
	req.AddFacet(FieldType, bleve.NewFacetRequest(FieldType, len(Kinds)))
	res, err := ix.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("count kinds: %w", err)
	}
	for _, t := range res.Facets[FieldType].Terms.Terms() {
		s.ByKind[t.Term] = uint64(t.Count)
	}

	tq := bleve.NewTermQuery(KindConversation)
	tq.SetField(FieldType)
	req = bleve.NewSearchRequestOptions(tq, 0, 0, false)
	req.AddFacet(FieldSource, bleve.NewFacetRequest(FieldSource, 100))
	req.AddFacet(FieldProject, bleve.NewFacetRequest(FieldProject, 100))
	res, err = ix.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("count sources: %w", err)
	}
	for _, t := range res.Facets[FieldSource].Terms.Terms() {
		s.BySource[t.Term] = uint64(t.Count)
	}
	for _, t := range res.Facets[FieldProject].Terms.Terms() {
		s.ByProject[t.Term] = uint64(t.Count)
	}
	for _, f := range ix.Files() {
		if f.Parser != "" {
			s.Files++
		}
		if f.Error != "" {
			s.FileErrors++
		}
	}
	s.IndexBytes = ix.DiskSize()
	s.LastSync = ix.LastSync()
	return s, nil
}

// SourceCounts gives, from a backend's Stats, the number of documents of
// each source the index holds (nil when it has none to say).
func SourceCounts(stats func(context.Context) (*Stats, error)) func(context.Context) (map[string]uint64, error) {
	return func(ctx context.Context) (map[string]uint64, error) {
		st, err := stats(ctx)
		if err != nil || st == nil {
			return nil, err
		}
		return st.BySource, nil
	}
}
