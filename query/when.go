package query

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseWhen reads a point in time as people give it on a command line: a
// date (2025-01-31), a date and time (RFC 3339, or without a zone, taken as
// UTC), or a duration back from now: 90m, 36h, 7d, 2w, 3mo, 1y.
func ParseWhen(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02", "2006-01"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	units := []struct {
		suffix string
		apply  func(n int) time.Time
	}{
		{"mo", func(n int) time.Time { return now.AddDate(0, -n, 0) }},
		{"y", func(n int) time.Time { return now.AddDate(-n, 0, 0) }},
		{"w", func(n int) time.Time { return now.AddDate(0, 0, -7*n) }},
		{"d", func(n int) time.Time { return now.AddDate(0, 0, -n) }},
		{"h", func(n int) time.Time { return now.Add(-time.Duration(n) * time.Hour) }},
		{"m", func(n int) time.Time { return now.Add(-time.Duration(n) * time.Minute) }},
	}
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			if n, err := strconv.Atoi(num); err == nil && n >= 0 {
				return u.apply(n), nil
			}
		}
	}
	return time.Time{}, fmt.Errorf("%q is neither a date (2025-01-31, RFC 3339) nor a duration back from now (36h, 7d, 2w, 3mo, 1y)", s)
}
