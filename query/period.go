package query

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	bq "github.com/blevesearch/bleve/v2/search/query"

	"github.com/convsearch/convsearch/indexer"
)

// A question often says when: "What did Melanie paint in July?", "Who did
// Maria have dinner with on May 3, 2023?", "what did we settle on for the
// cache in March 2025?". The date a conversation was held is then as good a
// clue as any word, and the words of a date ("July") seldom appear in the
// messages themselves. A period is such a time as a question names it.

// period is a stretch of the calendar a question names: a day, a month, a
// season or a year, with or without its year.
type period struct {
	year   int          // 0: any year
	months map[int]bool // nil: any month of year
	day    int          // with one month: the day, and the week after it
	// relative is a time back from now instead ("yesterday", "last
	// week", "3 days ago"), in reRelative's words.
	relative string
	ranges   []dateInterval // filled by resolve: the half-open intervals
}

type dateInterval struct{ from, to time.Time }

// dayAfter is how long after a named day a conversation still counts as
// that day's: people tell of what they did in the days after they did it.
const dayAfter = 7

// datedBoost: a hit from a time the question names counts 1+datedBoost
// times. Chosen on the tune half of the recall set's dated questions
// (docs/RECALL.md): R@1 rose with it to 3 and no further.
const datedBoost = 3.0

// periodYearsBack bounds the years a period without its year ("in June")
// is looked for in, back from now.
const periodYearsBack = 30

var monthNames = map[string]int{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
	"august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
	"oct": 10, "nov": 11, "dec": 12,
}

var seasonMonths = map[string][]int{
	"spring": {3, 4, 5}, "summer": {6, 7, 8}, "autumn": {9, 10, 11}, "fall": {9, 10, 11}, "winter": {12, 1, 2},
}

const (
	reMonth = `(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?`
	reDay   = `(\d{1,2})(?:st|nd|rd|th)?`
	reYear  = `((?:19|20)\d\d)`
	// reLeadIn is a word before a month that makes it a time; "this",
	// "that" and "the" do so only for a capitalised month ("this May" but
	// not "this may break", "the march on Washington").
	reLeadIn = `(?:in|on|during|since|until|till|by|before|after|around|from|through|of|early|mid|late|last|this|next|that|the)`
	// reSeasonLead makes a season a time: "in the summer", "this fall", "for
	// the fall" ("the spring in the latch", "tasks that fall under" are not).
	reSeasonLead = `(?:(?:in|during|over|since|until|by|through|this|last|next|early|late|mid)(?:\s+the)?|for\s+the)`
	// reUnitAfter after a number says it counts something, and is no year:
	// "a timeout of 2000 ms".
	reUnitAfter = `^\s*(?:ms|s|secs?|seconds?|minutes?|mins?|hours?|hrs?|days?|rows?|records?|users?|items?|lines?|words?|tokens?|requests?|px|kb|mb|gb|tb|km|m|kg|g|calories|dollars?|euros?|pounds?|people|employees|units?|entries|files?|bytes|connections?|steps?|points?|characters?|times|x)\b`
)

var (
	reISODate   = regexp.MustCompile(`\b` + reYear + `-(\d\d)(?:-(\d\d))?\b`)
	reDayMonth  = regexp.MustCompile(`(?i)\b` + reDay + `(?:\s+of)?\s+` + reMonth + `(?:,?\s+` + reYear + `)?\b`)
	reMonthDay  = regexp.MustCompile(`(?i)\b` + reMonth + `\s+` + reDay + `\b(?:,?\s+` + reYear + `)?`)
	reMonthYr   = regexp.MustCompile(`(?i)\b` + reMonth + `(?:\s+of)?,?\s+` + reYear + `\b`)
	reMonthOnly = regexp.MustCompile(`(?i)(?:\b(` + reLeadIn + `)[\s-]+)?\b` + reMonth + `\b`)
	reSeason    = regexp.MustCompile(`(?i)(?:\b(` + reSeasonLead + `)\s+)?\b(spring|summer|autumn|fall|winter)\b(?:\s+(?:of\s+)?` + reYear + `\b)?`)
	reUnit      = regexp.MustCompile(`(?i)` + reUnitAfter)
	reRelative  = regexp.MustCompile(`(?i)\b(yesterday|today|tonight|this (?:morning|afternoon|evening|week|month|year)|(?:last|past|previous) (?:week|month|year)|(?:(\d{1,2}|a|an|one|two|three|four|five|six) (day|week|month|year)s? ago))\b`)
	reYearOnly  = regexp.MustCompile(`(?i)\b(?:in|during|since|of|from|until|through)\s+` + reYear + `\b`)
)

// periods returns the times question names, in order: each day, month,
// season or year it gives once. A month word needs to look like one: "May"
// capitalised and not opening the question ("May I…"), or after a word such
// as "in" or "early", or beside a day or year.
func periods(question string) []period {
	var out []period
	taken := make([]bool, len(question))
	free := func(loc []int) bool {
		for i := loc[0]; i < loc[1]; i++ {
			if taken[i] {
				return false
			}
		}
		for i := loc[0]; i < loc[1]; i++ {
			taken[i] = true
		}
		return true
	}
	group := func(m []int, s string, i int) string {
		if m[2*i] < 0 {
			return ""
		}
		return s[m[2*i]:m[2*i+1]]
	}
	month := func(s string) int { return monthNames[strings.ToLower(s)] }
	num := func(s string) int { n, _ := strconv.Atoi(s); return n }
	add := func(p period) {
		if p.day > 31 || (p.day > 0 && len(p.months) != 1) {
			return
		}
		out = append(out, p)
	}
	for _, m := range reISODate.FindAllStringSubmatchIndex(question, -1) {
		mo := num(group(m, question, 2))
		if !free(m[:2]) || mo < 1 || mo > 12 {
			continue // taken either way: "2024-13" is no year either
		}
		add(period{year: num(group(m, question, 1)), months: map[int]bool{mo: true}, day: num(group(m, question, 3))})
	}
	for _, m := range reDayMonth.FindAllStringSubmatchIndex(question, -1) {
		if modalMay(group(m, question, 2), question[m[2]:m[4]], group(m, question, 3)) || !free(m[:2]) {
			continue // "which of the 2 may apply?"
		}
		add(period{year: num(group(m, question, 3)), months: map[int]bool{month(group(m, question, 2)): true}, day: num(group(m, question, 1))})
	}
	for _, m := range reMonthDay.FindAllStringSubmatchIndex(question, -1) {
		if modalMay(group(m, question, 1), question[m[4]:m[1]], group(m, question, 3)) || !free(m[:2]) {
			continue // "it may 2x the cost"
		}
		add(period{year: num(group(m, question, 3)), months: map[int]bool{month(group(m, question, 1)): true}, day: num(group(m, question, 2))})
	}
	for _, m := range reMonthYr.FindAllStringSubmatchIndex(question, -1) {
		if !free(m[:2]) {
			continue
		}
		add(period{year: num(group(m, question, 2)), months: map[int]bool{month(group(m, question, 1)): true}})
	}
	for _, m := range reMonthOnly.FindAllStringSubmatchIndex(question, -1) {
		name, lead := group(m, question, 2), strings.ToLower(group(m, question, 1))
		capital := name[0] >= 'A' && name[0] <= 'Z'
		if lead == "this" || lead == "that" || lead == "the" {
			if !capital {
				lead = "" // "this may break", "the march on Washington"
			}
		}
		before := strings.TrimRight(question[:m[4]], " \t\n")
		opening := before == "" || strings.ContainsAny(before[len(before)-1:], ".!?:;")
		switch {
		case !isFullMonth(name):
			continue // "the Dec field": a short form only beside a day or year
		case lead == "" && (!capital || (strings.EqualFold(name, "may") && opening)):
			continue // "may", "March" lower-case alone; "May I…" opening a sentence
		}
		if !free([]int{m[4], m[5]}) {
			continue
		}
		add(period{months: map[int]bool{month(name): true}})
	}
	for _, m := range reSeason.FindAllStringSubmatchIndex(question, -1) {
		year := group(m, question, 3)
		if group(m, question, 1) == "" && year == "" {
			continue // "fall", "spring" are verbs and things too
		}
		if !free([]int{m[4], m[1]}) {
			continue
		}
		ms := map[int]bool{}
		for _, mo := range seasonMonths[strings.ToLower(group(m, question, 2))] {
			ms[mo] = true
		}
		add(period{year: num(year), months: ms})
	}
	for _, m := range reYearOnly.FindAllStringSubmatchIndex(question, -1) {
		if reUnit.MatchString(question[m[1]:]) || !free([]int{m[2], m[3]}) {
			continue // "a timeout of 2000 ms"
		}
		add(period{year: num(group(m, question, 1))})
	}
	for _, m := range reRelative.FindAllStringSubmatchIndex(question, -1) {
		if free(m[:2]) {
			add(period{relative: strings.ToLower(group(m, question, 1))})
		}
	}
	return out
}

// addMonths is t moved by k months, its day kept within the month it lands
// in: a month before 31 March is 28 or 29 February, not 3 March.
func addMonths(t time.Time, k int) time.Time {
	first := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, t.Location()).AddDate(0, k, 0)
	last := first.AddDate(0, 1, -1).Day()
	return time.Date(first.Year(), first.Month(), min(t.Day(), last), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
}

var smallNumbers = map[string]int{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}

// resolveRelative is p's interval back from now, in now's time zone (a day
// starts at the user's midnight). "Last week" is the calendar week before
// this one (weeks start on Monday); "3 days ago" that day, a day either
// side; "2 weeks ago" that week, a week either side.
func (p *period) resolveRelative(now time.Time) {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	week := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7)) // this Monday
	month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, now.Location())
	year := time.Date(now.Year(), 1, 1, 0, 0, 0, 0, now.Location())
	iv := func(from, to time.Time) { p.ranges = append(p.ranges, dateInterval{from, to}) }
	switch r := p.relative; r {
	case "yesterday":
		iv(today.AddDate(0, 0, -1), today)
	case "today", "tonight", "this morning", "this afternoon", "this evening":
		iv(today, today.AddDate(0, 0, 1))
	case "this week":
		iv(week, week.AddDate(0, 0, 7))
	case "this month":
		iv(month, month.AddDate(0, 1, 0))
	case "this year":
		iv(year, year.AddDate(1, 0, 0))
	case "last week", "previous week":
		iv(week.AddDate(0, 0, -7), week)
	case "past week":
		iv(today.AddDate(0, 0, -7), today.AddDate(0, 0, 1))
	case "last month", "previous month":
		iv(month.AddDate(0, -1, 0), month)
	case "past month":
		iv(addMonths(today, -1), today.AddDate(0, 0, 1))
	case "last year", "previous year":
		iv(year.AddDate(-1, 0, 0), year)
	case "past year":
		iv(today.AddDate(-1, 0, 0), today.AddDate(0, 0, 1))
	default: // "N units ago"
		f := strings.Fields(r)
		n, err := strconv.Atoi(f[0])
		if err != nil {
			n = smallNumbers[f[0]]
		}
		unit := strings.TrimSuffix(f[1], "s")
		back := func(k int) time.Time {
			switch unit {
			case "day":
				return today.AddDate(0, 0, -k)
			case "week":
				return today.AddDate(0, 0, -7*k)
			case "month":
				return addMonths(today, -k)
			}
			return today.AddDate(-k, 0, 0)
		}
		iv(back(n+1), back(n-1).AddDate(0, 0, 1))
	}
}

// modalMay reports whether a "may" beside a number is the verb: lower
// case, with no ordinal ("2nd") or year to make it a date.
func modalMay(name, dayText, year string) bool {
	return name == "may" && year == "" && !strings.ContainsAny(dayText, "snrt")
}

func isFullMonth(name string) bool {
	return len(name) > 4 || strings.EqualFold(name, "may") || strings.EqualFold(name, "june") || strings.EqualFold(name, "july")
}

// resolve fills p's intervals: the year's or, without one, each of the
// years back to periodYearsBack before now. A winter with a year is that
// year's January, February and December.
func (p *period) resolve(now time.Time) {
	if p.relative != "" {
		p.resolveRelative(now)
		return
	}
	loc := now.Location() // a day is the user's day
	years := []int{p.year}
	if p.year == 0 {
		years = years[:0]
		for y := now.Year() + 1; y >= now.Year()-periodYearsBack; y-- {
			years = append(years, y)
		}
	}
	for _, y := range years {
		switch {
		case p.day > 0:
			for mo := range p.months {
				d := time.Date(y, time.Month(mo), p.day, 0, 0, 0, 0, loc)
				p.ranges = append(p.ranges, dateInterval{d.AddDate(0, 0, -1), d.AddDate(0, 0, dayAfter+1)})
			}
		case p.months != nil:
			for mo := 1; mo <= 12; mo++ {
				if !p.months[mo] {
					continue
				}
				from := time.Date(y, time.Month(mo), 1, 0, 0, 0, 0, loc)
				// Runs of months are one interval.
				to := from.AddDate(0, 1, 0)
				for mo+1 <= 12 && p.months[mo+1] {
					mo++
					to = to.AddDate(0, 1, 0)
				}
				p.ranges = append(p.ranges, dateInterval{from, to})
			}
		default:
			p.ranges = append(p.ranges, dateInterval{time.Date(y, 1, 1, 0, 0, 0, 0, loc), time.Date(y+1, 1, 1, 0, 0, 0, 0, loc)})
		}
	}
}

// contains reports whether t falls in p (after resolve).
func (p *period) contains(t time.Time) bool {
	if t.IsZero() {
		return false
	}
	for _, r := range p.ranges {
		if !t.Before(r.from) && t.Before(r.to) {
			return true
		}
	}
	return false
}

// weighDated scales h's score by datedBoost when it is from one of the
// (resolved) periods.
func weighDated(h *Hit, dated []period) {
	for i := range dated {
		if dated[i].contains(h.Date) {
			h.Score *= 1 + datedBoost
			return
		}
	}
}

// datedQuery is a non-scoring restriction to the dates of ps.
func datedQuery(ps []period) bq.Query {
	var qs []bq.Query
	for _, p := range ps {
		for _, r := range p.ranges {
			inclusive := true
			exclusive := false
			q := bleve.NewDateRangeInclusiveQuery(r.from, r.to, &inclusive, &exclusive)
			q.SetField(indexer.FieldDate)
			qs = append(qs, q)
		}
	}
	return disjunction(qs)
}
