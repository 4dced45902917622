package bench

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/convsearch/convsearch/internal/golden"
)

// The text report carries the figures issue 16 asks for: the build and the
// whole-process searches of the Claude Code copy, with CPU and memory.
func TestWriteTextGolden(t *testing.T) {
	tests := []struct {
		name   string
		report Report
	}{
		{"index-only", Report{
			Size:   10000,
			Corpus: &GenStats{Files: 92, Conversations: 92, Messages: 10000, Bytes: 13700000, TextBytes: 12900000},
			Index:  &IndexFigures{Seconds: 2.5, MsgsPerSec: 4000, MBPerSec: 5.5, PeakRSSMB: 240, IndexMB: 31, IndexToText: 2.4},
		}},
		{"claude-code", Report{
			Size:            100000,
			Corpus:          &GenStats{Files: 990, Conversations: 990, Messages: 100000, Bytes: 136500000, TextBytes: 129200000},
			Index:           &IndexFigures{Seconds: 30, MsgsPerSec: 3333, MBPerSec: 4.6, CPUSeconds: 58, PeakRSSMB: 290, IndexMB: 280, IndexToText: 2.17},
			IndexClaudeCode: &IndexFigures{Seconds: 31, MsgsPerSec: 3225, MBPerSec: 4.9, CPUSeconds: 60, PeakRSSMB: 295, IndexMB: 281, IndexToText: 2.18},
			Bare:            &IndexFigures{Seconds: 58, MsgsPerSec: 1724, MBPerSec: 2.4, PeakRSSMB: 676, IndexMB: 560, IndexToText: 4.34},
			StartMS:         14,
			ProcessClaudeCode: []ProcessFigures{
				{Term: "zygomorphic", ConvsearchS: 30, CPUMS: 41, PeakRSSMB: 60, RgMS: 27, RgRatio: 0.9},
				{Term: "quorumlease", ConvsearchS: 31, CPUMS: 42, PeakRSSMB: 61}, // no rg here
			},
		}},
		// Bare Bleve timed for one class only: the others' bare columns
		// were not measured, and must not read as 0 ms.
		{"queries", Report{
			Size:   10000,
			Corpus: &GenStats{Files: 92, Conversations: 92, Messages: 10000, Bytes: 13700000, TextBytes: 12900000},
			Queries: []QueryFigures{
				{Class: "common term", Hits: 2331, P50MS: 0.33, P95MS: 1.24, P99MS: 2.39},
				{Class: "common term", Highlight: true, Hits: 2331, P50MS: 0.9, P95MS: 1.8, P99MS: 3.1},
				{Class: "rare term", Hits: 1, P50MS: 0.03, P95MS: 0.04, P99MS: 0.04},
			},
			BareQueries: []QueryFigures{{Class: "common term", Hits: 2331, P50MS: 0.21, P95MS: 0.8, P99MS: 1.5}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			tt.report.WriteText(&b)
			golden.Check(t, filepath.Join("testdata", "report-"+tt.name+".golden"), b.Bytes())
		})
	}
}
