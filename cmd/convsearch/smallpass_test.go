package main

import (
	"runtime/debug"
	"testing"
)

// TestSmallPass checks the memory settings a pass gets for its size: a
// small one one lane and a tight collector, a large one the bulk settings,
// and the environment's GOGC and GOMEMLIMIT are left to win.
func TestSmallPass(t *testing.T) {
	gc0, lim0 := debug.SetGCPercent(bulkGCPercent), debug.SetMemoryLimit(bulkMemoryLimit)
	t.Cleanup(func() { debug.SetGCPercent(gc0); debug.SetMemoryLimit(lim0) })
	tests := []struct {
		name      string
		bytes     int64
		env       map[string]string
		wantLanes int
		wantGC    int
		wantLimit int64
	}{
		{"small", 13 << 20, nil, 1, smallPassGCPercent, smallPassLimit + 13<<20},
		{"at the bound", smallPassBytes, nil, 1, smallPassGCPercent, smallPassLimit + smallPassBytes},
		{"large", smallPassBytes + 1, nil, 0, bulkGCPercent, bulkMemoryLimit},
		{"GOGC set", 1 << 20, map[string]string{"GOGC": "50"}, 1, bulkGCPercent, smallPassLimit + 1<<20},
		{"GOMEMLIMIT set", 1 << 20, map[string]string{"GOMEMLIMIT": "1GiB"}, 1, smallPassGCPercent, bulkMemoryLimit},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetGCPercent(bulkGCPercent)
			debug.SetMemoryLimit(bulkMemoryLimit)
			lanes := smallPass(func(k string) string { return tt.env[k] })(tt.bytes)
			gc := debug.SetGCPercent(bulkGCPercent)
			limit := debug.SetMemoryLimit(-1)
			if lanes != tt.wantLanes || gc != tt.wantGC || limit != tt.wantLimit {
				t.Errorf("%d bytes: lanes %d, GOGC %d, limit %d; want %d, %d, %d", tt.bytes, lanes, gc, limit, tt.wantLanes, tt.wantGC, tt.wantLimit)
			}
		})
	}
}
