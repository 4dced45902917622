package bench

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/blevesearch/bleve/v2"
)

// BareIndex indexes the generated corpus's messages with Bleve at its
// default settings (default mapping, dynamic fields, the composite _all
// field), in batches of 1000: the reference the issue compares against. The
// documents come straight from the generator, so the reference pays for
// indexing only, none of the parsing convsearch does.
func BareIndex(ctx context.Context, path string, opts GenOptions) (msgs int, elapsed time.Duration, err error) {
	if opts.Seed == 0 {
		opts.Seed = 20261122
	}
	os.RemoveAll(path)
	idx, err := bleve.New(path, bleve.NewIndexMapping())
	if err != nil {
		return 0, 0, fmt.Errorf("bare index: %w", err)
	}
	g := newGenerator(opts.Seed)
	batch := idx.NewBatch()
	var spent time.Duration
	flush := func() error {
		start := time.Now()
		err := idx.Batch(batch)
		spent += time.Since(start)
		batch.Reset()
		return err
	}
	for i := 0; msgs < opts.Messages; i++ {
		if err := ctx.Err(); err != nil {
			idx.Close()
			return msgs, spent, err
		}
		n := min(20+g.r.IntN(161), opts.Messages-msgs)
		c := g.conversation(i, n)
		for j, m := range c.Msgs {
			content := m.Content
			if m.ToolOut != "" {
				content += "\n" + m.ToolName + " " + m.ToolArgs + "\n" + m.ToolOut
			}
			doc := map[string]any{
				"type": "message", "conversation_id": c.ID, "role": m.Role, "content": content,
				"title": c.Title, "project": c.Project, "date": m.Time,
			}
			if err := batch.Index(fmt.Sprintf("m/%s/%d", c.ID, j), doc); err != nil {
				idx.Close()
				return msgs, spent, err
			}
			if batch.Size() >= 1000 {
				if err := flush(); err != nil {
					idx.Close()
					return msgs, spent, err
				}
			}
		}
		msgs += len(c.Msgs)
	}
	if batch.Size() > 0 {
		if err := flush(); err != nil {
			idx.Close()
			return msgs, spent, err
		}
	}
	start := time.Now()
	err = idx.Close()
	spent += time.Since(start)
	return msgs, spent, err
}
