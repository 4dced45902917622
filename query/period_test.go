package query

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// String writes a period as "2023-05", "*-07", "2023-05-03", "2023",
// "*-06,07,08", or a relative one as "~" and its words.
func (p period) String() string {
	if p.relative != "" {
		return "~" + p.relative
	}
	y := "*"
	if p.year > 0 {
		y = fmt.Sprint(p.year)
	}
	if p.months == nil {
		return y
	}
	var ms []string
	for mo := 1; mo <= 12; mo++ {
		if p.months[mo] {
			ms = append(ms, fmt.Sprintf("%02d", mo))
		}
	}
	s := y + "-" + strings.Join(ms, ",")
	if p.day > 0 {
		s += fmt.Sprintf("-%02d", p.day)
	}
	return s
}

func TestPeriods(t *testing.T) {
	tests := []struct {
		q    string
		want []string
	}{
		{"When did Melanie go camping in June?", []string{"*-06"}},
		{"What did Mel and her kids paint in their latest project in July 2023?", []string{"2023-07"}},
		{"Who did Maria have dinner with on May 3, 2023?", []string{"2023-05-03"}},
		{"What did Gina find for her clothing store on 1 February, 2023?", []string{"2023-02-01"}},
		{"What painting did Melanie show to Caroline on October 13, 2023?", []string{"2023-10-13"}},
		{"what changed on 2025-03-14 in the deploy?", []string{"2025-03-14"}},
		{"what did we ship in 2024-11?", []string{"2024-11"}},
		{"What did we pick for the cache in early March?", []string{"*-03"}},
		{"what did we say about the boiler in march", []string{"*-03"}},
		{"What happened at the 3rd of March meeting?", []string{"*-03-03"}},
		{"Which film did they talk about in the summer of 2023?", []string{"2023-06,07,08"}},
		{"what did we plan for the fall?", []string{"*-09,10,11"}},
		{"What did we migrate in 2022?", []string{"2022"}},
		{"Between March and May, what did Rachel worry about?", []string{"*-03", "*-05"}},
		{"what did we decide yesterday about the cache?", []string{"~yesterday"}},
		{"What did we settle last week?", []string{"~last week"}},
		{"what did I ask about Redis 3 days ago", []string{"~3 days ago"}},
		{"which venue did we book a month ago?", []string{"~a month ago"}},
		// Not times.
		{"May I ask what the retry policy is?", nil},
		{"did the price fall after the launch?", nil},
		{"what may break if we upgrade?", nil},
		{"how do I parse a date like 2048 in Go?", nil},
		{"why does spring boot fail to start?", nil},
		{"What is the Dec field in the schema?", nil},
		{"Who is April's manager?", []string{"*-04"}}, // a name reads as the month: a weaker boost, not a filter
		{"what happened on 45 March?", nil},
		// The reviewer's look-alikes.
		{"What did we say this may break?", nil},
		{"Which tasks that fall under the budget did we drop?", nil},
		{"What broke the spring in the latch?", nil},
		{"What about the march on Washington?", nil},
		{"Quick question. May I see what Bob said?", nil},
		{"What timeout of 2000 ms did we pick?", nil},
		{"Which of the 2 may apply?", nil},
		{"what did we do on the 2nd may?", []string{"*-05-02"}},
		{"What did we ship this May?", []string{"*-05"}},
		{"what changed in 2024-13?", nil},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			var got []string
			for _, p := range periods(tt.q) {
				got = append(got, p.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("periods(%q) = %q, want %q", tt.q, got, tt.want)
			}
		})
	}
}

func TestPeriodContains(t *testing.T) {
	now := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	day := func(s string) time.Time {
		d, err := time.Parse("2006-01-02 15:04", s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	tests := []struct {
		q   string
		in  []string
		out []string
	}{
		{"what did we do in June?", []string{"2023-06-01 00:00", "2019-06-30 23:59", "2026-06-15 12:00"}, []string{"2023-05-31 23:59", "2023-07-01 00:00"}},
		{"who came to dinner on May 3, 2023?", []string{"2023-05-03 19:00", "2023-05-02 12:00", "2023-05-10 23:00"}, []string{"2023-05-11 00:00", "2023-05-01 23:00", "2024-05-03 12:00"}},
		{"what did we plan in the winter of 2023?", []string{"2023-01-10 00:00", "2023-12-24 00:00"}, []string{"2023-03-01 00:00", "2024-01-10 00:00"}},
		{"what did we migrate in 2022?", []string{"2022-01-01 00:00", "2022-12-31 23:59"}, []string{"2021-12-31 23:59", "2023-01-01 00:00"}},
		{"where did we go in the summer?", []string{"2024-07-04 00:00", "2025-08-31 23:00"}, []string{"2024-09-01 00:00"}},
		// now is Thursday 26 November 2026.
		{"what did we decide yesterday?", []string{"2026-11-25 00:00", "2026-11-25 23:59"}, []string{"2026-11-24 23:59", "2026-11-26 00:00"}},
		{"what did we settle last week?", []string{"2026-11-16 00:00", "2026-11-22 23:59"}, []string{"2026-11-15 23:59", "2026-11-23 00:00"}},
		{"what did we talk about this week?", []string{"2026-11-23 00:00", "2026-11-26 10:00"}, []string{"2026-11-22 23:59"}},
		{"what did I ask 3 days ago?", []string{"2026-11-22 00:00", "2026-11-24 23:59"}, []string{"2026-11-21 23:59", "2026-11-25 00:00"}},
		{"what did we plan last month?", []string{"2026-10-01 00:00", "2026-10-31 23:59"}, []string{"2026-11-01 00:00", "2026-09-30 23:59"}},
		{"what did we buy last year?", []string{"2025-01-01 00:00"}, []string{"2026-01-01 00:00", "2024-12-31 23:59"}},
	}
	for _, tt := range tests {
		ps := periods(tt.q)
		if len(ps) != 1 {
			t.Fatalf("periods(%q) = %v, want one", tt.q, ps)
		}
		ps[0].resolve(now)
		for _, s := range tt.in {
			if !ps[0].contains(day(s)) {
				t.Errorf("%q: %s should be in %v", tt.q, s, ps[0])
			}
		}
		for _, s := range tt.out {
			if ps[0].contains(day(s)) {
				t.Errorf("%q: %s should not be in %v", tt.q, s, ps[0])
			}
		}
		if ps[0].contains(time.Time{}) {
			t.Errorf("%q: a hit without a date is in no period", tt.q)
		}
	}
}

// FuzzPeriods: any text gives periods that resolve to non-empty, ordered
// intervals, and never panics.
func FuzzPeriods(f *testing.F) {
	for _, s := range []string{"in June", "on May 3, 2023", "31 February 2024", "2024-02-30", "the winter of 1999", "May I", "mid-Sept. 2020", "0 days ago", "99 years ago", "last month"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, q string) {
		for _, p := range periods(q) {
			p.resolve(now)
			if len(p.ranges) == 0 {
				t.Fatalf("%q: %v resolves to nothing", q, p)
			}
			for _, r := range p.ranges {
				if !r.from.Before(r.to) {
					t.Fatalf("%q: %v has an empty interval %v", q, p, r)
				}
			}
		}
	})
}

func TestAddMonths(t *testing.T) {
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	for _, tt := range []struct {
		from time.Time
		k    int
		want time.Time
	}{
		{d(2026, 3, 31), -1, d(2026, 2, 28)},
		{d(2024, 3, 31), -1, d(2024, 2, 29)},
		{d(2026, 5, 31), -2, d(2026, 3, 31)},
		{d(2026, 5, 31), -3, d(2026, 2, 28)},
		{d(2026, 1, 15), -1, d(2025, 12, 15)},
		{d(2026, 11, 26), -12, d(2025, 11, 26)},
	} {
		if got := addMonths(tt.from, tt.k); !got.Equal(tt.want) {
			t.Errorf("addMonths(%s, %d) = %s, want %s", tt.from.Format(time.DateOnly), tt.k, got.Format(time.DateOnly), tt.want.Format(time.DateOnly))
		}
	}
}
