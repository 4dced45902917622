package indexer

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// reconciledKey holds the roots a whole pass has read into this index: an
// internal value of its own, beside meta, so that recording it never
// races the batches that rewrite meta.
var reconciledKey = []byte("reconciled")

// MarkReconciled records that a pass over roots read every file under
// them into the index: a restart over the same roots then starts with a
// complete index, not one being built. It adds to the roots recorded.
func (ix *Index) MarkReconciled(roots []string) error {
	if ix.opts.ReadOnly {
		return errors.New("index opened read-only")
	}
	release, err := ix.hold()
	if err != nil {
		return err
	}
	defer release()
	all := ix.reconciled()
	for _, r := range roots {
		if !slices.Contains(all, r) {
			all = append(all, r)
		}
	}
	slices.Sort(all)
	b, err := json.Marshal(all)
	if err != nil {
		return err
	}
	if err := ix.idx.SetInternal(reconciledKey, b); err != nil {
		return fmt.Errorf("record the reconciled roots in %s: %w", ix.path, err)
	}
	return nil
}

// Reconciled returns the roots a whole pass has read into the index (see
// MarkReconciled); none for a new or rebuilt index.
func (ix *Index) Reconciled() []string {
	release, err := ix.hold()
	if err != nil {
		return nil
	}
	defer release()
	return ix.reconciled()
}

// reconciled is Reconciled with ix.swap held.
func (ix *Index) reconciled() []string {
	b, err := ix.idx.GetInternal(reconciledKey)
	if err != nil || len(b) == 0 {
		return nil
	}
	var roots []string
	if json.Unmarshal(b, &roots) != nil {
		return nil
	}
	return roots
}
