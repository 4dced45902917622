package query

import (
	"testing"
	"time"
)

func TestBuckets(t *testing.T) {
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 15, 4, 0, 0, time.UTC) }
	cases := []struct {
		name        string
		first, last time.Time
		kind        string
		n           int
		start       time.Time
	}{
		{"one day", d(2025, 3, 5), d(2025, 3, 5), "week", 1, time.Date(2025, 3, 3, 0, 0, 0, 0, time.UTC)},
		{"a Sunday starts the week before", d(2025, 3, 9), d(2025, 3, 10), "week", 2, time.Date(2025, 3, 3, 0, 0, 0, 0, time.UTC)},
		{"half a year", d(2025, 1, 1), d(2025, 6, 30), "week", 27, time.Date(2024, 12, 30, 0, 0, 0, 0, time.UTC)},
		{"months", d(2024, 11, 20), d(2025, 12, 1), "month", 14, time.Date(2024, 11, 1, 0, 0, 0, 0, time.UTC)},
		{"ten years: the newest 60 months", d(2015, 1, 1), d(2025, 12, 31), "month", maxBuckets, time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)},
	}
	for _, c := range cases {
		kind, starts := buckets(c.first, c.last)
		if kind != c.kind || len(starts) != c.n || !starts[0].Equal(c.start) {
			t.Errorf("%s: %s, %d buckets from %v; want %s, %d from %v", c.name, kind, len(starts), starts[0], c.kind, c.n, c.start)
		}
		if last := starts[len(starts)-1]; last.After(c.last) {
			t.Errorf("%s: the last bucket starts after the last date", c.name)
		}
	}
}
