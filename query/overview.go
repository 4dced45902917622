package query

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/convsearch/convsearch/indexer"
)

// Overview is what the index holds over time, for the search page's
// overview: conversations and messages per source and per project in
// date buckets, and the files that failed.
type Overview struct {
	// Bucket is the width of a bucket: "week" or "month".
	Bucket string `json:"bucket"`
	// Starts are the buckets' first days (UTC), oldest first.
	Starts []time.Time `json:"starts"`
	// BySource and ByProject count per bucket; each series has one count
	// per start.
	BySource  []Series `json:"by_source"`
	ByProject []Series `json:"by_project"`
	// Undated counts conversations without a date (in no bucket).
	Undated  uint64       `json:"undated,omitempty"`
	LastSync time.Time    `json:"last_sync,omitzero"`
	Files    int          `json:"files"`
	Failed   []FailedFile `json:"failed,omitempty"`
}

// Series is one source's or project's counts per bucket.
type Series struct {
	Name          string   `json:"name"`
	Conversations []uint64 `json:"conversations"`
	Messages      []uint64 `json:"messages"`
	// Totals over every bucket.
	TotalConversations uint64 `json:"total_conversations"`
	TotalMessages      uint64 `json:"total_messages"`
}

// FailedFile is a file the last pass could not read, and why.
type FailedFile struct {
	Path   string `json:"path"`
	Parser string `json:"parser,omitempty"`
	Error  string `json:"error"`
}

// Bounds of an overview: a chart with more buckets or series than these
// is no longer readable, and each series costs two searches.
const (
	maxBuckets        = 60
	maxOverviewSeries = 8
	maxFailed         = 200
)

// filer is implemented by searchers that keep per-file records (the
// indexer's Index).
type filer interface {
	Files() []indexer.FileState
}

// Overview counts conversations and messages per source and per top
// project in weekly (spans up to half a year) or monthly buckets, the
// newest maxBuckets of them.
func (e *Engine) Overview(ctx context.Context) (*Overview, error) {
	ctx, cancel := context.WithTimeout(ctx, e.timeout)
	defer cancel()
	st, ok := e.s.(statser)
	if !ok {
		return nil, errors.New("query: this index cannot report an overview")
	}
	stats, err := st.Stats(ctx)
	if err != nil {
		return nil, err
	}
	ov := &Overview{LastSync: stats.LastSync, Files: stats.Files}
	if f, ok := e.s.(filer); ok {
		for _, fs := range f.Files() {
			if fs.Error != "" && len(ov.Failed) < maxFailed {
				ov.Failed = append(ov.Failed, FailedFile{Path: fs.Path, Parser: fs.Parser, Error: fs.Error})
			}
		}
	}
	first, last, err := e.dateSpan(ctx)
	if err != nil {
		return nil, err
	}
	if first.IsZero() {
		return ov, nil // nothing dated: no chart
	}
	ov.Bucket, ov.Starts = buckets(first, last)
	undated, err := e.countUndated(ctx)
	if err != nil {
		return nil, err
	}
	ov.Undated = undated
	if ov.BySource, err = e.series(ctx, indexer.FieldSource, topNames(stats.BySource), ov.Starts); err != nil {
		return nil, err
	}
	if ov.ByProject, err = e.series(ctx, indexer.FieldProject, topNames(stats.ByProject), ov.Starts); err != nil {
		return nil, err
	}
	return ov, nil
}

// dateSpan returns the dates of the oldest and newest conversations.
func (e *Engine) dateSpan(ctx context.Context) (first, last time.Time, err error) {
	for i, desc := range []bool{false, true} {
		dated := bleve.NewDateRangeQuery(minDate, maxDate)
		dated.SetField(indexer.FieldDate)
		req := bleve.NewSearchRequestOptions(kindQuery(indexer.KindConversation, dated), 1, 0, false)
		req.Fields = []string{indexer.FieldDate}
		order := indexer.FieldDate
		if desc {
			order = "-" + order
		}
		req.SortBy([]string{order})
		res, err := e.search(ctx, req)
		if err != nil {
			return first, last, fmt.Errorf("overview: date span: %w", err)
		}
		if len(res.Hits) == 0 {
			return first, last, nil
		}
		t, _ := timeOf(res.Hits[0].Fields[indexer.FieldDate])
		if i == 0 {
			first = t
		} else {
			last = t
		}
	}
	return first, last, nil
}

func (e *Engine) countUndated(ctx context.Context) (uint64, error) {
	dated := bleve.NewDateRangeQuery(minDate, maxDate)
	dated.SetField(indexer.FieldDate)
	q := bleve.NewBooleanQuery()
	q.AddMust(kindQuery(indexer.KindConversation))
	q.AddMustNot(dated)
	res, err := e.search(ctx, bleve.NewSearchRequestOptions(q, 0, 0, false))
	if err != nil {
		return 0, fmt.Errorf("overview: undated: %w", err)
	}
	return res.Total, nil
}

// series counts conversations and messages per bucket for each value of
// field: one date-range facet search per value and kind.
func (e *Engine) series(ctx context.Context, field string, names []string, starts []time.Time) ([]Series, error) {
	var out []Series
	for _, name := range names {
		s := Series{Name: name}
		for _, kind := range []string{indexer.KindConversation, indexer.KindMessage} {
			tq := bleve.NewTermQuery(name)
			tq.SetField(field)
			req := bleve.NewSearchRequestOptions(kindQuery(kind, tq), 0, 0, false)
			fr := bleve.NewFacetRequest(indexer.FieldDate, len(starts))
			for i, st := range starts {
				end := maxDate
				if i+1 < len(starts) {
					end = starts[i+1]
				}
				fr.AddDateTimeRange(st.Format(time.RFC3339), st, end)
			}
			req.AddFacet("date", fr)
			res, err := e.search(ctx, req)
			if err != nil {
				return nil, fmt.Errorf("overview: %s %s: %w", field, name, err)
			}
			got := map[string]uint64{}
			if f := res.Facets["date"]; f != nil {
				for _, r := range f.DateRanges {
					got[r.Name] = uint64(r.Count)
				}
			}
			counts := make([]uint64, len(starts))
			var total uint64
			for i, st := range starts {
				counts[i] = got[st.Format(time.RFC3339)]
				total += counts[i]
			}
			if kind == indexer.KindConversation {
				s.Conversations, s.TotalConversations = counts, total
			} else {
				s.Messages, s.TotalMessages = counts, total
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// kindQuery restricts q (all documents when none) to one kind.
func kindQuery(kind string, qs ...bq.Query) bq.Query {
	tq := bleve.NewTermQuery(kind)
	tq.SetField(indexer.FieldType)
	if len(qs) == 0 {
		return tq
	}
	return bleve.NewConjunctionQuery(append([]bq.Query{tq}, qs...)...)
}

// topNames returns the names with the most conversations, at most
// maxOverviewSeries, most first (ties by name).
func topNames(counts map[string]uint64) []string {
	names := make([]string, 0, len(counts))
	for n := range counts {
		if n != "" {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	if len(names) > maxOverviewSeries {
		names = names[:maxOverviewSeries]
	}
	return names
}

// buckets returns weekly buckets for spans up to half a year, else
// monthly ones, the newest maxBuckets of them, covering first to last.
func buckets(first, last time.Time) (string, []time.Time) {
	first, last = first.UTC(), last.UTC()
	if last.Sub(first) <= 183*24*time.Hour {
		day := time.Date(first.Year(), first.Month(), first.Day(), 0, 0, 0, 0, time.UTC)
		start := day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7)) // Monday
		var out []time.Time
		for t := start; !t.After(last); t = t.AddDate(0, 0, 7) {
			out = append(out, t)
		}
		return "week", out
	}
	var out []time.Time
	for t := time.Date(first.Year(), first.Month(), 1, 0, 0, 0, 0, time.UTC); !t.After(last); t = t.AddDate(0, 1, 0) {
		out = append(out, t)
	}
	if len(out) > maxBuckets {
		out = out[len(out)-maxBuckets:]
	}
	return "month", out
}
