package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// ParseCount reads 10k, 100k, 1m, 2500.
func ParseCount(s string) (int, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	mult := 1
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1000, strings.TrimSuffix(s, "k")
	case strings.HasSuffix(s, "m"):
		mult, s = 1000000, strings.TrimSuffix(s, "m")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a count like 10k or 1m", s)
	}
	return n * mult, nil
}

// WriteText writes the report as a table for people.
func (r *Report) WriteText(out io.Writer) {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	defer w.Flush()
	c := r.Corpus
	fmt.Fprintf(w, "\n== %d messages: %d files, %.1f MB on disk, %.1f MB of text\n", c.Messages, c.Files, float64(c.Bytes)/1e6, float64(c.TextBytes)/1e6)
	row := func(name string, f *IndexFigures) {
		if f != nil {
			cpu := ""
			if f.CPUSeconds > 0 {
				cpu = fmt.Sprintf(" (cpu %.1f s)", f.CPUSeconds)
			}
			fmt.Fprintf(w, "%s\t%.1f s%s\t%.0f msg/s\t%.1f MB/s\tpeak RSS %.0f MB\tindex %.0f MB (%.2fx text)\n", name, f.Seconds, cpu, f.MsgsPerSec, f.MBPerSec, f.PeakRSSMB, f.IndexMB, f.IndexToText)
		}
	}
	row("convsearch index", r.Index)
	row("convsearch index, Claude Code copy", r.IndexClaudeCode)
	row("bare Bleve", r.Bare)
	if r.Index != nil && r.Bare != nil && r.Bare.MsgsPerSec > 0 {
		fmt.Fprintf(w, "ingest speed-up over bare Bleve\t%.2fx\n", r.Index.MsgsPerSec/r.Bare.MsgsPerSec)
	}
	if r.NoChangeFiles > 0 {
		fmt.Fprintf(w, "no-change reconcile\t%.0f ms\t%d files\n", r.NoChangeReconcileMS, r.NoChangeFiles)
	}
	if r.SyncOneMS > 0 {
		fmt.Fprintf(w, "sync one changed file\t%.1f ms\n", r.SyncOneMS)
	}
	bare := map[string]QueryFigures{}
	for _, q := range r.BareQueries {
		bare[fmt.Sprint(q.Class, q.Highlight)] = q
	}
	if len(r.Queries) > 0 {
		fmt.Fprintf(w, "query\thighlight\thits\tp50 ms\tp95 ms\tp99 ms\tbare p50\tbare p99\n")
	}
	for _, q := range r.Queries {
		// A class bare Bleve was not timed on (the bare phase did not run)
		// shows "-", not a figure of 0 ms never measured.
		bp50, bp99 := "-", "-"
		if b, ok := bare[fmt.Sprint(q.Class, q.Highlight)]; ok {
			bp50, bp99 = fmt.Sprintf("%.2f", b.P50MS), fmt.Sprintf("%.2f", b.P99MS)
		}
		fmt.Fprintf(w, "%s\t%v\t%d\t%.2f\t%.2f\t%.2f\t%s\t%s\n", q.Class, q.Highlight, q.Hits, q.P50MS, q.P95MS, q.P99MS, bp50, bp99)
	}
	if wf := r.Watch; wf != nil {
		fmt.Fprintf(w, "write to searchable (daemon, %d writes)\tp50 %.1f ms\tp95 %.1f ms\n", wf.Writes, wf.FreshP50MS, wf.FreshP95MS)
		fmt.Fprintf(w, "HTTP search, %d clients, %.0f s, %d writes meanwhile\t%.0f req/s\tp50 %.1f ms\tp95 %.1f ms\tp99 %.1f ms\t%d failed\n",
			wf.LoadClients, wf.LoadSeconds, wf.WritesDuringRun, wf.LoadPerSecond, wf.LoadP50MS, wf.LoadP95MS, wf.LoadP99MS, wf.LoadFailures)
	}
	if m := r.MCP; m != nil {
		fmt.Fprintf(w, "MCP search_conversations over stdio (%d calls)\tp50 %.2f ms\tp95 %.2f ms\tsame query in process p50 %.2f ms\tping p50 %.2f ms\n", m.Calls, m.P50MS, m.P95MS, r.EngineMS, m.PingMS)
	}
	for _, p := range r.Process {
		fmt.Fprintf(w, "whole process %q\tconvsearch %.1f ms\trg %.1f ms\tgrep %.1f ms\trg/convsearch %.1fx\n", p.Term, p.ConvsearchS, p.RgMS, p.GrepMS, p.RgRatio)
	}
	if r.StartMS > 0 {
		fmt.Fprintf(w, "process start and exit (convsearch version)\t%.1f ms\n", r.StartMS)
	}
	for _, p := range r.ProcessClaudeCode {
		rg := "" // rg may not be installed
		if p.RgMS > 0 {
			rg = fmt.Sprintf("\trg %.1f ms\trg/convsearch %.1fx", p.RgMS, p.RgRatio)
		}
		fmt.Fprintf(w, "whole process %q, Claude Code index\tconvsearch %.1f ms (cpu %.1f ms, peak RSS %.0f MB)%s\n", p.Term, p.ConvsearchS, p.CPUMS, p.PeakRSSMB, rg)
	}
}
