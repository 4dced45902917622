package query

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ParseWhen reads a point in time as people give it on a command line: a
// year (2025), a month (2025-01), a date (2025-01-31), a date and time to
// the minute or the second (RFC 3339, or 2025-01-31T09:30+02:00; without a
// zone, a date or time is taken as UTC), or a duration back from now: 90m,
// 36h, 7d, 2w, 3mo, 1y. A period is read as its start.
func ParseWhen(s string, now time.Time) (time.Time, error) {
	t, _, err := parseWhen(s, now)
	return t, err
}

// ParseUntil reads the end of a time range, in ParseWhen's forms: a date, a
// month, a year or a time to the minute names all of that day, month, year
// or minute, so
// "until 2025-06-11" takes in what happened on the 11th. It returns the
// last instant of that period (Request.Until is inclusive); a duration or a
// time to the second is that instant.
func ParseUntil(s string, now time.Time) (time.Time, error) {
	t, next, err := parseWhen(s, now)
	if err != nil || next == nil {
		return t, err
	}
	return next(t).Add(-time.Nanosecond), nil
}

// whenLayouts are the absolute forms ParseWhen reads, each with the start
// of the period after the one it names (nil: it names an instant).
var whenLayouts = []struct {
	layout string
	next   func(time.Time) time.Time
}{
	{time.RFC3339Nano, nil},
	{"2006-01-02T15:04:05", nil},
	{"2006-01-02T15:04", nextMinute},
	{"2006-01-02 15:04", nextMinute},
	{"2006-01-02T15:04Z07:00", nextMinute},
	{"2006-01-02 15:04Z07:00", nextMinute},
	{"2006-01-02", func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }},
	{"2006-01", func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }},
	{"2006", func(t time.Time) time.Time { return t.AddDate(1, 0, 0) }},
}

func nextMinute(t time.Time) time.Time { return t.Add(time.Minute) }

// parseWhen is ParseWhen, with the start of the period after the one s
// names when s names a period (a date, a month, a minute).
func parseWhen(s string, now time.Time) (time.Time, func(time.Time) time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil, nil
	}
	for _, l := range whenLayouts {
		if t, err := time.Parse(l.layout, s); err == nil {
			return t, l.next, nil
		}
	}
	// perYear bounds each count: anything further back than maxYearsBack
	// is taken as that far (the dawn of any index), where the arithmetic
	// below would overflow and wrap around.
	const maxYearsBack = 10000
	units := []struct {
		suffix  string
		perYear int
		apply   func(n int) time.Time
	}{
		{"mo", 12, func(n int) time.Time { return now.AddDate(0, -n, 0) }},
		{"y", 1, func(n int) time.Time { return now.AddDate(-n, 0, 0) }},
		{"w", 53, func(n int) time.Time { return now.AddDate(0, 0, -7*n) }},
		{"d", 366, func(n int) time.Time { return now.AddDate(0, 0, -n) }},
		{"h", 366 * 24, func(n int) time.Time { return back(now, n, time.Hour) }},
		{"m", 366 * 24 * 60, func(n int) time.Time { return back(now, n, time.Minute) }},
	}
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			n, err := strconv.Atoi(num)
			if err != nil && errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(num, "-") {
				n, err = math.MaxInt, nil
			}
			if err == nil && n >= 0 {
				if n/u.perYear >= maxYearsBack {
					return now.AddDate(-maxYearsBack, 0, 0), nil, nil
				}
				return u.apply(n), nil, nil
			}
		}
	}
	return time.Time{}, nil, fmt.Errorf("%q is neither a date (2025, 2025-01, 2025-01-31, 2025-01-31T09:30, 2025-01-31T09:30+02:00, RFC 3339) nor a duration back from now (36h, 7d, 2w, 3mo, 1y)", s)
}

// back is n units before now: exact when it fits a Duration, else (past
// 292 years) whole days by the calendar and the rest as a duration.
func back(now time.Time, n int, unit time.Duration) time.Time {
	if int64(n) <= math.MaxInt64/int64(unit) {
		return now.Add(-time.Duration(n) * unit)
	}
	perDay := int(24 * time.Hour / unit)
	return now.AddDate(0, 0, -n/perDay).Add(-time.Duration(n%perDay) * unit)
}
