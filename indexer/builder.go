package indexer

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"
)

// A new index (a first build, or a rebuild beside the old one) is written
// by the online index, batch after batch, and its segments are merged once
// when the pass ends (FinishBuild), not only as they pile up.
//
// Bleve's offline builder (bleve.NewBuilder) was measured for this and not
// taken: it analyses each document and builds each segment on the calling
// goroutine under one lock, so on two cores its Bleve work ran on one while
// the online index spreads analysis over both; its CPU time was the same
// (within the noise) and it ends in one segment, which at 1M messages is
// the merge that took peak RSS past 2 GB (see maxSegmentDocs).

// finalMergePlan merges a new index's segments as far as maxSegmentDocs
// allows: one segment per 100k documents, so that a search opens and reads
// few segments, and every term's dictionary is stored once per segment, not
// once per batch.
func finalMergePlan() *mergeplan.MergePlanOptions {
	return &mergeplan.MergePlanOptions{
		MaxSegmentsPerTier:   1,
		MaxSegmentSize:       maxSegmentDocs,
		MaxSegmentFileSize:   1 << 40,
		TierGrowth:           1.0,
		SegmentsPerMergeTask: 10,
		FloorSegmentSize:     maxSegmentDocs,
		FloorSegmentFileSize: 1 << 40,
		ReclaimDeletesWeight: 2.0,
	}
}

// FinishBuild ends the pass that made the index anew: it merges the
// batches' segments (see finalMergePlan). It does nothing on an index that
// was opened, not made, by this process, or once done; a reader never
// merges.
func (ix *Index) FinishBuild(ctx context.Context) error {
	ix.mu.Lock()
	todo := ix.rebuilt && !ix.finished && !ix.opts.ReadOnly && ix.idx != nil
	ix.finished = true
	idx := ix.idx
	ix.mu.Unlock()
	if !todo {
		return nil
	}
	adv, err := idx.Advanced()
	if err != nil {
		return fmt.Errorf("merge new index %s: %w", idx.Name(), err)
	}
	s, ok := adv.(*scorch.Scorch)
	if !ok {
		return nil
	}
	if err := s.ForceMerge(ctx, finalMergePlan()); err != nil {
		return fmt.Errorf("merge new index %s: %w", idx.Name(), err)
	}
	// ForceMerge returns once the merged segment is in use, maybe before
	// it is on disk; a write returns once it and all before it are (a
	// rebuild's Commit closes the index right after). The meta record,
	// written again as it is, is such a write.
	ix.mu.RLock()
	b, err := json.Marshal(ix.meta)
	ix.mu.RUnlock()
	if err == nil {
		err = idx.SetInternal(metaKey, b)
	}
	if err != nil {
		return fmt.Errorf("merge new index %s: %w", idx.Name(), err)
	}
	ix.gen.Add(1)
	return nil
}
