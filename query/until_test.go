package query_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/convsearch/convsearch/query"
)

func TestParseUntil(t *testing.T) {
	now := time.Date(2025, 6, 15, 12, 0, 0, 0, time.UTC)
	last := func(t time.Time) time.Time { return t.Add(-time.Nanosecond) }
	for _, tt := range []struct {
		in   string
		want time.Time
	}{
		{"", time.Time{}},
		{"2025-06-11", last(time.Date(2025, 6, 12, 0, 0, 0, 0, time.UTC))},
		{"2025-12-31", last(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))},
		{"2025-02", last(time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC))},
		{"2025-06-11T08:02", last(time.Date(2025, 6, 11, 8, 3, 0, 0, time.UTC))},
		{"2025-06-11 08:02", last(time.Date(2025, 6, 11, 8, 3, 0, 0, time.UTC))},
		// A minute with a zone is all of that minute.
		{"2025-07-01T06:30+02:00", last(time.Date(2025, 7, 1, 4, 31, 0, 0, time.UTC))},
		{"2025-07-01 06:30Z", last(time.Date(2025, 7, 1, 6, 31, 0, 0, time.UTC))},
		// A year is all of it.
		{"2025", last(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))},
		// An instant stays itself: the range includes it.
		{"2025-06-11T08:02:00", time.Date(2025, 6, 11, 8, 2, 0, 0, time.UTC)},
		{"2025-06-11T08:02:00Z", time.Date(2025, 6, 11, 8, 2, 0, 0, time.UTC)},
		{"2025-06-11T23:59:59.999999999Z", last(time.Date(2025, 6, 12, 0, 0, 0, 0, time.UTC))},
		{"7d", now.AddDate(0, 0, -7)},
	} {
		got, err := query.ParseUntil(tt.in, now)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("ParseUntil(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	if _, err := query.ParseUntil("2025-13-01", now); err == nil {
		t.Error("ParseUntil(2025-13-01) accepted")
	}
}

// TestUntilTakesInTheDay checks that a date until takes in the whole day,
// and since and until of one day find that day's conversations: retry is
// dated 2025-03-10T09:00Z.
func TestUntilTakesInTheDay(t *testing.T) {
	e := newEngine(t)
	when := func(s string, parse func(string, time.Time) (time.Time, error)) time.Time {
		t.Helper()
		v, err := parse(s, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tt := range []struct {
		since, until string
		want         []string
	}{
		{"", "2025-03-10", []string{"c:boot", "c:retry"}},
		{"", "2025-03-09", []string{"c:boot"}},
		{"2025-03-10", "2025-03-10", []string{"c:retry"}},
		{"2025-03", "2025-03", []string{"c:boot", "c:index", "c:retry"}},
		{"2025-03-10T09:00:00Z", "2025-03-10T09:00:00Z", []string{"c:retry"}},
		{"2025-03-10T09:00", "2025-03-10T09:00", []string{"c:retry"}},
		{"2025-03-11", "2025-03-19", []string{}},
		{"2025", "2025", []string{"c:boot", "c:index", "c:retry"}},
		{"", "2024", []string{}},
		{"2026", "", []string{}},
		{"2025-03-10T11:00+02:00", "2025-03-10T11:00+02:00", []string{"c:retry"}},
		{"2025-03-10T09:01+00:00", "", []string{"c:index"}},
	} {
		r := query.Request{Query: "type:conversation", Since: when(tt.since, query.ParseWhen), Until: when(tt.until, query.ParseUntil)}
		res, err := e.Search(context.Background(), r)
		if err != nil {
			t.Fatalf("since %q until %q: %v", tt.since, tt.until, err)
		}
		if got := ids(res); !slices.Equal(got, tt.want) {
			t.Errorf("since %q until %q: %v, want %v", tt.since, tt.until, got, tt.want)
		}
	}
}
