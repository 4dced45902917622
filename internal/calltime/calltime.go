// Package calltime times calls in a benchmark and reports their p50 and p95
// besides Go's mean: the tail a caller waits on, which a mean hides.
package calltime

import (
	"slices"
	"testing"
	"time"
)

// Measure runs call in b's loop and reports the p50 and p95 of its
// durations, in microseconds, besides the mean.
func Measure(b *testing.B, call func()) {
	var took []time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		call()
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	pct := func(f float64) float64 {
		return float64(took[min(int(f*float64(len(took))), len(took)-1)].Microseconds())
	}
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.95), "p95-µs")
}
