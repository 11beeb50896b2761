package recall

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// span is a run of days a question names, both ends included.
type span struct{ from, to time.Time }

// days formats a span as the index's dates ("2006-01-02").
func (s span) days() (string, string) {
	return s.from.Format(time.DateOnly), s.to.Format(time.DateOnly)
}

// dateExpr is one way of naming days; parse turns a match into a span
// relative to today (ok false when the match names no real date).
type dateExpr struct {
	re    *regexp.Regexp
	parse func(m []string, today time.Time) (span, bool)
}

var monthNames = map[string]time.Month{}

func init() {
	for m := time.January; m <= time.December; m++ {
		name := strings.ToLower(m.String())
		monthNames[name] = m
		monthNames[name[:3]] = m
	}
	monthNames["sept"] = time.September
}

const monthRE = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`

var numberWords = map[string]int{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10}

// dateExprs are the date expressions a question can hold, most specific
// first: a text span matched by one is not matched again by a later one.
var dateExprs = []dateExpr{
	{regexp.MustCompile(`\b(\d{4})-(\d{1,2})-(\d{1,2})\b`), func(m []string, _ time.Time) (span, bool) {
		return day(atoi(m[1]), atoi(m[2]), atoi(m[3]))
	}},
	{regexp.MustCompile(`(\d{4})年(\d{1,2})月(\d{1,2})[日号]`), func(m []string, _ time.Time) (span, bool) {
		return day(atoi(m[1]), atoi(m[2]), atoi(m[3]))
	}},
	{regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+` + monthRE + `,?\s+(\d{4})\b`), func(m []string, _ time.Time) (span, bool) {
		return day(atoi(m[3]), int(monthNames[strings.ToLower(m[2])]), atoi(m[1]))
	}},
	{regexp.MustCompile(`(?i)\b` + monthRE + `\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`), func(m []string, _ time.Time) (span, bool) {
		return day(atoi(m[3]), int(monthNames[strings.ToLower(m[1])]), atoi(m[2]))
	}},
	{regexp.MustCompile(`\b(\d{4})-(\d{1,2})\b`), func(m []string, _ time.Time) (span, bool) {
		return month(atoi(m[1]), atoi(m[2]))
	}},
	{regexp.MustCompile(`(\d{4})年(\d{1,2})月`), func(m []string, _ time.Time) (span, bool) {
		return month(atoi(m[1]), atoi(m[2]))
	}},
	{regexp.MustCompile(`(?i)\b` + monthRE + `,?\s+(\d{4})\b`), func(m []string, _ time.Time) (span, bool) {
		return month(atoi(m[2]), int(monthNames[strings.ToLower(m[1])]))
	}},
	{regexp.MustCompile(`(?i)\bin\s+` + monthRE + `\b`), func(m []string, today time.Time) (span, bool) {
		// The latest such month up to this one.
		y := today.Year()
		if monthNames[strings.ToLower(m[1])] > today.Month() {
			y--
		}
		return month(y, int(monthNames[strings.ToLower(m[1])]))
	}},
	{regexp.MustCompile(`(?i)\b(?:in|during|of)\s+((?:19|20)\d\d)\b`), func(m []string, _ time.Time) (span, bool) {
		y := atoi(m[1])
		return span{date(y, 1, 1), date(y, 12, 31)}, true
	}},
	{regexp.MustCompile(`(?i)\bthe\s+day\s+before\s+yesterday\b|前天`), func(_ []string, today time.Time) (span, bool) {
		d := today.AddDate(0, 0, -2)
		return span{d, d}, true
	}},
	{regexp.MustCompile(`(?i)\byesterday\b|昨天`), func(_ []string, today time.Time) (span, bool) {
		d := today.AddDate(0, 0, -1)
		return span{d, d}, true
	}},
	{regexp.MustCompile(`(?i)\b(today|tonight|this\s+morning|this\s+afternoon|this\s+evening)\b|今天`), func(_ []string, today time.Time) (span, bool) {
		return span{today, today}, true
	}},
	{regexp.MustCompile(`(?i)\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten)\s+(days?|weeks?|months?|years?)\s+ago\b`), func(m []string, today time.Time) (span, bool) {
		n, ok := numberWords[strings.ToLower(m[1])]
		if !ok {
			n = atoi(m[1])
		}
		switch strings.TrimSuffix(strings.ToLower(m[2]), "s") {
		case "day":
			d := today.AddDate(0, 0, -n)
			return span{d, d}, true
		case "week":
			return week(today.AddDate(0, 0, -7*n)), true
		case "month":
			t := today.AddDate(0, -n, 0)
			return month(t.Year(), int(t.Month()))
		}
		y := today.Year() - n
		return span{date(y, 1, 1), date(y, 12, 31)}, true
	}},
	{regexp.MustCompile(`(?i)\b(last|this|past)\s+(week|month|year)\b|(上周|上个?星期|本周|这周|这个星期|上个?月|本月|这个月|去年|今年)`), func(m []string, today time.Time) (span, bool) {
		which, unit := strings.ToLower(m[1]), strings.ToLower(m[2])
		switch m[3] {
		case "上周", "上星期", "上个星期":
			which, unit = "last", "week"
		case "本周", "这周", "这个星期":
			which, unit = "this", "week"
		case "上月", "上个月":
			which, unit = "last", "month"
		case "本月", "这个月":
			which, unit = "this", "month"
		case "去年":
			which, unit = "last", "year"
		case "今年":
			which, unit = "this", "year"
		}
		switch {
		case which == "past" && unit == "week":
			return span{today.AddDate(0, 0, -7), today}, true
		case which == "past" && unit == "month":
			return span{today.AddDate(0, -1, 0), today}, true
		case which == "past":
			return span{today.AddDate(-1, 0, 0), today}, true
		case unit == "week" && which == "last":
			return week(today.AddDate(0, 0, -7)), true
		case unit == "week":
			w := week(today)
			return span{w.from, today}, true
		case unit == "month" && which == "last":
			t := date(today.Year(), int(today.Month()), 1).AddDate(0, -1, 0)
			return month(t.Year(), int(t.Month()))
		case unit == "month":
			return span{date(today.Year(), int(today.Month()), 1), today}, true
		case which == "last":
			return span{date(today.Year()-1, 1, 1), date(today.Year()-1, 12, 31)}, true
		}
		return span{date(today.Year(), 1, 1), today}, true
	}},
	{regexp.MustCompile(`(?i)\b(?:on|last)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`), func(m []string, today time.Time) (span, bool) {
		// The latest such weekday before today.
		want := weekdays[strings.ToLower(m[1])]
		d := today.AddDate(0, 0, -1)
		for d.Weekday() != want {
			d = d.AddDate(0, 0, -1)
		}
		return span{d, d}, true
	}},
}

var weekdays = map[string]time.Weekday{"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday,
	"wednesday": time.Wednesday, "thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday}

// datesIn returns the spans of days question names, relative to now (in
// now's location), and the question with those expressions taken out.
func datesIn(question string, now time.Time) ([]span, string) {
	today := date(now.Year(), int(now.Month()), now.Day())
	rest := question
	var out []span
	for _, e := range dateExprs {
		rest = e.re.ReplaceAllStringFunc(rest, func(match string) string {
			if s, ok := e.parse(e.re.FindStringSubmatch(match), today); ok {
				out = append(out, s)
			}
			return " "
		})
	}
	return out, strings.Join(strings.Fields(rest), " ")
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func date(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }

// day is the one-day span of y-m-d; false when there is no such day.
func day(y, m, d int) (span, bool) {
	t := date(y, m, d)
	if m < 1 || m > 12 || t.Day() != d {
		return span{}, false
	}
	return span{t, t}, true
}

// month is the span of month m of year y.
func month(y, m int) (span, bool) {
	if m < 1 || m > 12 {
		return span{}, false
	}
	first := date(y, m, 1)
	return span{first, first.AddDate(0, 1, -1)}, true
}

// week is the Monday-to-Sunday week holding t.
func week(t time.Time) span {
	monday := t.AddDate(0, 0, -((int(t.Weekday()) + 6) % 7))
	return span{monday, monday.AddDate(0, 0, 6)}
}
