// Package dates finds the days people name in text, in English and
// Chinese: a day ("21 June 2023", "2023年6月21日", "yesterday", "next
// Friday"), a week, weekend or month ("last week", "the first weekend of
// October 2023", "下周"), a span ("between March and May 2023") or a
// distance from today ("in two weeks", "three days ago"). Recall asks it
// which notes a question's dates point at (In); Dream asks it which
// relative dates of a memory to make absolute (Find, Relative, Ambiguous,
// DayNamed: relative.go). A day without a
// year is the latest one up to today; weeks run Monday to Sunday.
//
// github.com/olebedev/when and github.com/markusmobius/go-dateparser were
// measured on the same phrasings (docs/bench-history.md) and did worse.
package dates

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Span is a run of days a text names, both ends included.
type Span struct {
	From, To time.Time
	// Day is the one day the phrase points at: the day of a phrase that
	// names one ("in two weeks" too), or the day a distance from today
	// counts to where the phrase names more ("two weeks ago": Span is that
	// week; "within two weeks": the days until then); zero for a week, a
	// month or a span.
	Day time.Time
}

// Days formats a Span as the index's dates ("2006-01-02").
func (s Span) Days() (from, to string) {
	return s.From.Format(time.DateOnly), s.To.Format(time.DateOnly)
}

// Found is a phrase that names days: its bytes in the text and its Span.
type Found struct {
	Start, End int
	Span
}

// dateExpr is one way of naming days; parse turns a match into a Span
// relative to today (ok false when the match names no real date).
type dateExpr struct {
	re    *regexp.Regexp
	parse func(m []string, today time.Time) (Span, bool)
}

// expr is a dateExpr and whether it matches Chinese text only.
type expr struct {
	dateExpr
	cjk bool
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

// The phrases composite expressions hold: a day ("21 June 2023", "June
// 21", "2023-06-21", "the 21st of June"), a month of a year ("June
// 2023"), a day in Chinese ("2023年6月21日", "六月21号").
const (
	monthNC         = `(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`
	dayPhrase       = `(?:\d{4}-\d{1,2}-\d{1,2}|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthNC + `(?:,?\s+\d{4})?|` + monthNC + `\s+\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+\d{4})?)`
	monthYearPhrase = monthNC + `(?:,?\s+\d{4})?`
	zhDayPhrase     = `(?:(?:\d{4}\s*年)?(?:\d{1,2}|十[一二]?|[一二三四五六七八九])月\d{1,2}[日号])`
)

var numberWords = map[string]int{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}

// dateExprs returns the date expressions, most specific first: text
// matched by one is not matched again by a later one. They are compiled
// on first use.
var dateExprs func() []expr

// The function is set in init: the composite expressions parse their parts
// with In, which reads the list.
func init() {
	dateExprs = sync.OnceValue(func() []expr {
		var exprs []expr
		for _, e := range newDateExprs() {
			src := e.re.String()
			exprs = append(exprs, expr{e, !strings.Contains(src, "(?i)") && strings.ContainsFunc(src, isCJK)})
		}
		return exprs
	})
}

// isCJK reports whether r is past the Latin, Greek and Cyrillic scripts,
// in the CJK blocks and beyond: what the Chinese expressions match.
func isCJK(r rune) bool { return r >= 0x2E80 }

func newDateExprs() []dateExpr {
	return []dateExpr{
		// Composite expressions first: they hold the simpler ones.
		{regexp.MustCompile(`(?i)\bbetween\s+(` + dayPhrase + `|` + monthYearPhrase + `)\s+and\s+(` + dayPhrase + `|` + monthYearPhrase + `)`), func(m []string, today time.Time) (Span, bool) {
			a, ok1 := phraseSpan(m[1], today)
			b, ok2 := phraseSpan(m[2], today)
			if !ok1 || !ok2 || b.To.Before(a.From) {
				return Span{}, false
			}
			return Span{From: a.From, To: b.To}, true
		}},
		{regexp.MustCompile(`从\s*(` + zhDayPhrase + `)\s*(?:到|至)\s*(` + zhDayPhrase + `)`), func(m []string, today time.Time) (Span, bool) {
			a, ok1 := dayOf(m[1], today)
			b, ok2 := dayOf(m[2], today)
			if !ok1 || !ok2 || b.Before(a) {
				return Span{}, false
			}
			return Span{From: a, To: b}, true
		}},
		{regexp.MustCompile(`(?i)\b(?:the\s+)?(monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)\s+(before|after)\s+(` + dayPhrase + `)`), func(m []string, today time.Time) (Span, bool) {
			anchor, ok := dayOf(m[3], today)
			if !ok {
				return Span{}, false
			}
			return weekdayNear(strings.ToLower(m[1]), strings.ToLower(m[2]) == "before", anchor), true
		}},
		{regexp.MustCompile(`(` + zhDayPhrase + `)(?:之前|以前|前)的?(?:那个|那)?(星期[一二三四五六日天]|周[一二三四五六日末]|周末)`), func(m []string, today time.Time) (Span, bool) {
			anchor, ok := dayOf(m[1], today)
			if !ok {
				return Span{}, false
			}
			return weekdayNear(zhWeekday(m[2]), true, anchor), true
		}},
		{regexp.MustCompile(`(` + zhDayPhrase + `)(?:之后|以后|后)的?(?:那个|那)?(星期[一二三四五六日天]|周[一二三四五六日末]|周末)`), func(m []string, today time.Time) (Span, bool) {
			anchor, ok := dayOf(m[1], today)
			if !ok {
				return Span{}, false
			}
			return weekdayNear(zhWeekday(m[2]), false, anchor), true
		}},
		{regexp.MustCompile(`(?i)\b(?:the\s+)?(first|second|third|fourth|last|1st|2nd|3rd|4th)\s+(week|weekend)\s+(?:of|in)\s+` + monthRE + `(?:,?\s+(\d{4}))?\b`), func(m []string, today time.Time) (Span, bool) {
			y, mo := yearOf(m[4], monthNames[strings.ToLower(m[3])], today), int(monthNames[strings.ToLower(m[3])])
			return nthOfMonth(y, mo, ordinal(strings.ToLower(m[1])), strings.ToLower(m[2]) == "weekend")
		}},
		{regexp.MustCompile(`(?:(\d{4})\s*年)?\s*(\d{1,2}|十[一二]?|[一二三四五六七八九])\s*月(?:份)?的?(第[一二三四1-4]个?|最后一个?)(周末|星期|周|礼拜)`), func(m []string, today time.Time) (Span, bool) {
			mo := zhNumber(m[2])
			y := yearOf(m[1], time.Month(mo), today)
			n := 5
			if strings.HasPrefix(m[3], "第") {
				n = zhNumber(strings.TrimSuffix(strings.TrimPrefix(m[3], "第"), "个"))
			}
			return nthOfMonth(y, mo, n, m[4] == "周末")
		}},
		{regexp.MustCompile(`(?i)\b(early|mid|late|end of|the end of|beginning of|the beginning of|start of|the start of)[\s-]+` + monthRE + `(?:,?\s+(\d{4}))?\b`), func(m []string, today time.Time) (Span, bool) {
			mo := monthNames[strings.ToLower(m[2])]
			full, ok := month(yearOf(m[3], mo, today), int(mo))
			if !ok {
				return Span{}, false
			}
			return partOfMonth(full, strings.ToLower(m[1])), true
		}},
		{regexp.MustCompile(`(?:(\d{4})\s*年)?\s*(\d{1,2}|十[一二]?|[一二三四五六七八九])\s*月(初|上旬|中旬|下旬|底|末)`), func(m []string, today time.Time) (Span, bool) {
			mo := zhNumber(m[2])
			full, ok := month(yearOf(m[1], time.Month(mo), today), mo)
			if !ok {
				return Span{}, false
			}
			part := map[string]string{"初": "early", "上旬": "early", "中旬": "mid", "下旬": "late", "底": "late", "末": "late"}[m[3]]
			return partOfMonth(full, part), true
		}},
		{regexp.MustCompile(`(?i)\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(days?|weeks?|months?)\s+(before|after)\s+(` + dayPhrase + `)`), func(m []string, today time.Time) (Span, bool) {
			anchor, ok := dayOf(m[4], today)
			if !ok {
				return Span{}, false
			}
			n, ok := count(m[1])
			if !ok {
				return Span{}, false
			}
			if strings.ToLower(m[3]) == "before" {
				n = -n
			}
			d := ahead(anchor, n, strings.TrimSuffix(strings.ToLower(m[2]), "s"))
			return Span{From: d, To: d}, true
		}},
		{regexp.MustCompile(`(?i)\b(last|this|past|next|coming)\s+weekend\b|上个?周末|这个?周末|下个?周末`), func(m []string, today time.Time) (Span, bool) {
			// Weeks start on Monday: this weekend is this week's Saturday and
			// Sunday, last weekend the week before's, next weekend the week
			// after's.
			sat := week(today).From.AddDate(0, 0, 5)
			switch which := strings.ToLower(m[1]); {
			case which == "last" || which == "past" || strings.HasPrefix(m[0], "上"):
				sat = sat.AddDate(0, 0, -7)
			case which == "next" || strings.HasPrefix(m[0], "下"):
				sat = sat.AddDate(0, 0, 7)
			case which == "coming" && today.Weekday() == time.Sunday:
				sat = sat.AddDate(0, 0, 7)
			}
			return Span{From: sat, To: sat.AddDate(0, 0, 1)}, true
		}},
		{regexp.MustCompile(`(上|下|这|本)(?:个)?(?:周|星期|礼拜)([一二三四五六日天])`), func(m []string, today time.Time) (Span, bool) {
			want := weekdays[zhWeekday("星期"+m[2])]
			d := week(today).From
			switch m[1] {
			case "下":
				d = d.AddDate(0, 0, 7)
			case "上":
				d = d.AddDate(0, 0, -7)
			}
			for d.Weekday() != want {
				d = d.AddDate(0, 0, 1)
			}
			return Span{From: d, To: d}, true
		}},
		{regexp.MustCompile(`(?i)\b` + monthRE + `\s+(\d{1,2})(st|nd|rd|th)?\b(?:,?\s*(\d{4}))?`), func(m []string, today time.Time) (Span, bool) {
			mo := monthNames[strings.ToLower(m[1])]
			if m[4] == "" && m[3] == "" && mo == time.May {
				return Span{}, false // "may 5 ..." is more often the verb
			}
			return day(yearOf(m[4], mo, today), int(mo), atoi(m[2]))
		}},
		{regexp.MustCompile(`(?i)\b(\d{1,2})(st|nd|rd|th)?\s+(of\s+)?` + monthRE + `\b(?:,?\s*(\d{4}))?`), func(m []string, today time.Time) (Span, bool) {
			mo := monthNames[strings.ToLower(m[4])]
			if m[5] == "" && m[2] == "" && m[3] == "" && mo == time.May {
				return Span{}, false // "5 may ..." is more often the verb
			}
			return day(yearOf(m[5], mo, today), int(mo), atoi(m[1]))
		}},
		{regexp.MustCompile(`(?:(\d{4})\s*年)?(\d{1,2}|十[一二]?|[一二三四五六七八九])月(\d{1,2})[日号]`), func(m []string, today time.Time) (Span, bool) {
			mo := zhNumber(m[2])
			return day(yearOf(m[1], time.Month(mo), today), mo, atoi(m[3]))
		}},
		{regexp.MustCompile(`\b(\d{4})-(\d{1,2})-(\d{1,2})\b`), func(m []string, _ time.Time) (Span, bool) {
			return day(atoi(m[1]), atoi(m[2]), atoi(m[3]))
		}},
		{regexp.MustCompile(`(\d{4})年(\d{1,2})月(\d{1,2})[日号]`), func(m []string, _ time.Time) (Span, bool) {
			return day(atoi(m[1]), atoi(m[2]), atoi(m[3]))
		}},
		{regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+` + monthRE + `,?\s+(\d{4})\b`), func(m []string, _ time.Time) (Span, bool) {
			return day(atoi(m[3]), int(monthNames[strings.ToLower(m[2])]), atoi(m[1]))
		}},
		{regexp.MustCompile(`(?i)\b` + monthRE + `\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`), func(m []string, _ time.Time) (Span, bool) {
			return day(atoi(m[3]), int(monthNames[strings.ToLower(m[1])]), atoi(m[2]))
		}},
		{regexp.MustCompile(`\b(\d{4})-(\d{1,2})\b`), func(m []string, _ time.Time) (Span, bool) {
			return month(atoi(m[1]), atoi(m[2]))
		}},
		{regexp.MustCompile(`(\d{4})年(\d{1,2})月`), func(m []string, _ time.Time) (Span, bool) {
			return month(atoi(m[1]), atoi(m[2]))
		}},
		{regexp.MustCompile(`(?i)\b` + monthRE + `,?\s+(\d{4})\b`), func(m []string, _ time.Time) (Span, bool) {
			return month(atoi(m[2]), int(monthNames[strings.ToLower(m[1])]))
		}},
		{regexp.MustCompile(`(?i)\bin\s+` + monthRE + `\b`), func(m []string, today time.Time) (Span, bool) {
			// The latest such month up to this one.
			y := today.Year()
			if monthNames[strings.ToLower(m[1])] > today.Month() {
				y--
			}
			return month(y, int(monthNames[strings.ToLower(m[1])]))
		}},
		{regexp.MustCompile(`(?i)\b(?:in|during|of)\s+((?:19|20)\d\d)\b`), func(m []string, _ time.Time) (Span, bool) {
			y := atoi(m[1])
			return Span{From: date(y, 1, 1), To: date(y, 12, 31)}, true
		}},
		{regexp.MustCompile(`(?i)\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(days?|weeks?|months?|years?)\s+(ago|from\s+(?:now|today))\b`), func(m []string, today time.Time) (Span, bool) {
			n, ok := count(m[1])
			if !ok {
				return Span{}, false
			}
			if strings.EqualFold(m[3], "ago") {
				n = -n
			}
			// The week, month or year it was (or will be); Day the day n of
			// them away.
			unit := strings.TrimSuffix(strings.ToLower(m[2]), "s")
			d := ahead(today, n, unit)
			switch unit {
			case "day":
				return Span{From: d, To: d}, true
			case "week":
				sp := week(d)
				sp.Day = d
				return sp, true
			case "month":
				sp, ok := month(d.Year(), int(d.Month()))
				sp.Day = d
				return sp, ok
			}
			return Span{From: date(d.Year(), 1, 1), To: date(d.Year(), 12, 31), Day: d}, true
		}},
		{regexp.MustCompile(`(?i)\bthe\s+day\s+after\s+tomorrow\b|后天`), func(_ []string, today time.Time) (Span, bool) {
			d := today.AddDate(0, 0, 2)
			return Span{From: d, To: d}, true
		}},
		{regexp.MustCompile(`(?i)\btomorrow\b|明天`), func(_ []string, today time.Time) (Span, bool) {
			d := today.AddDate(0, 0, 1)
			return Span{From: d, To: d}, true
		}},
		{regexp.MustCompile(`(?i)\b(in|within)\s+(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+few)\s+(days?|weeks?|months?|years?)\b`), func(m []string, today time.Time) (Span, bool) {
			// In two weeks: the day two weeks from today; within two weeks:
			// every day until then.
			n, ok := count(m[2])
			if !ok {
				return Span{}, false
			}
			d := ahead(today, n, strings.TrimSuffix(strings.ToLower(m[3]), "s"))
			if strings.EqualFold(m[1], "within") {
				return Span{From: today, To: d, Day: d}, true
			}
			return Span{From: d, To: d}, true
		}},
		{regexp.MustCompile(`(\d+|[一二两三四五六七八九十]+)\s*(天|周|个?星期|个月|年)(以?后|之后|以?前|之前)`), func(m []string, today time.Time) (Span, bool) {
			// 三天后: three days from today; 三天前: three days ago. Not a
			// year: 2023年以后 is "after 2023".
			n, ok := count(m[1])
			if !ok || len(m[1]) > 2 && strings.Trim(m[1], "0123456789") == "" {
				return Span{}, false
			}
			if strings.HasSuffix(m[3], "前") {
				n = -n
			}
			unit := map[string]string{"天": "day", "周": "week", "星期": "week", "个星期": "week", "个月": "month", "年": "year"}[m[2]]
			d := ahead(today, n, unit)
			return Span{From: d, To: d}, true
		}},
		{regexp.MustCompile(`(?i)\bthe\s+day\s+before\s+yesterday\b|前天`), func(_ []string, today time.Time) (Span, bool) {
			d := today.AddDate(0, 0, -2)
			return Span{From: d, To: d}, true
		}},
		{regexp.MustCompile(`(?i)\byesterday\b|昨天`), func(_ []string, today time.Time) (Span, bool) {
			d := today.AddDate(0, 0, -1)
			return Span{From: d, To: d}, true
		}},
		{regexp.MustCompile(`(?i)\b(today|tonight|this\s+morning|this\s+afternoon|this\s+evening)\b|今天`), func(_ []string, today time.Time) (Span, bool) {
			return Span{From: today, To: today}, true
		}},
		{regexp.MustCompile(`(?i)\b(last|this|past|next)\s+(week|month|year)\b|(上周|上个?星期|本周|这周|这个星期|下周|下个?星期|上个?月|本月|这个月|下个?月|去年|今年|明年)`), func(m []string, today time.Time) (Span, bool) {
			which, unit := strings.ToLower(m[1]), strings.ToLower(m[2])
			switch m[3] {
			case "下周", "下星期", "下个星期":
				which, unit = "next", "week"
			case "下月", "下个月":
				which, unit = "next", "month"
			case "明年":
				which, unit = "next", "year"
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
			case which == "next" && unit == "week":
				return week(today.AddDate(0, 0, 7)), true
			case which == "next" && unit == "month":
				t := date(today.Year(), int(today.Month()), 1).AddDate(0, 1, 0)
				return month(t.Year(), int(t.Month()))
			case which == "next":
				return Span{From: date(today.Year()+1, 1, 1), To: date(today.Year()+1, 12, 31)}, true
			case which == "past" && unit == "week":
				return Span{From: today.AddDate(0, 0, -7), To: today}, true
			case which == "past" && unit == "month":
				return Span{From: today.AddDate(0, -1, 0), To: today}, true
			case which == "past":
				return Span{From: today.AddDate(-1, 0, 0), To: today}, true
			case unit == "week" && which == "last":
				return week(today.AddDate(0, 0, -7)), true
			case unit == "week":
				w := week(today)
				return Span{From: w.From, To: today}, true
			case unit == "month" && which == "last":
				t := date(today.Year(), int(today.Month()), 1).AddDate(0, -1, 0)
				return month(t.Year(), int(t.Month()))
			case unit == "month":
				return Span{From: date(today.Year(), int(today.Month()), 1), To: today}, true
			case which == "last":
				return Span{From: date(today.Year()-1, 1, 1), To: date(today.Year()-1, 12, 31)}, true
			}
			return Span{From: date(today.Year(), 1, 1), To: today}, true
		}},
		{regexp.MustCompile(`(?i)\b(next|this\s+coming|coming|this)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`), func(m []string, today time.Time) (Span, bool) {
			want := weekdays[strings.ToLower(m[2])]
			if strings.EqualFold(m[1], "this") && (today.Weekday() != time.Sunday || want == time.Sunday) {
				// This week's, Monday to Sunday; said on a Sunday, the
				// coming one.
				d := week(today).From
				for d.Weekday() != want {
					d = d.AddDate(0, 0, 1)
				}
				return Span{From: d, To: d}, true
			}
			// The first such weekday after today.
			d := today.AddDate(0, 0, 1)
			for d.Weekday() != want {
				d = d.AddDate(0, 0, 1)
			}
			return Span{From: d, To: d}, true
		}},
		{regexp.MustCompile(`(?i)\b(?:on|last|past)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`), func(m []string, today time.Time) (Span, bool) {
			// The latest such weekday before today.
			want := weekdays[strings.ToLower(m[1])]
			d := today.AddDate(0, 0, -1)
			for d.Weekday() != want {
				d = d.AddDate(0, 0, -1)
			}
			return Span{From: d, To: d}, true
		}},
	}
}

var weekdays = map[string]time.Weekday{"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday,
	"wednesday": time.Wednesday, "thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday}

// phraseSpan is the one Span the phrase s names.
func phraseSpan(s string, today time.Time) (Span, bool) {
	spans, _ := In(s, today)
	if len(spans) != 1 {
		return Span{}, false
	}
	return spans[0], true
}

// dayOf is the one day the phrase s names.
func dayOf(s string, today time.Time) (time.Time, bool) {
	sp, ok := phraseSpan(s, today)
	if !ok || !sp.From.Equal(sp.To) {
		return time.Time{}, false
	}
	return sp.From, true
}

// yearOf is the year y names, or without one the latest year in which
// month m is not after today's month.
func yearOf(y string, m time.Month, today time.Time) int {
	if y != "" {
		return atoi(y)
	}
	if m > today.Month() {
		return today.Year() - 1
	}
	return today.Year()
}

// weekdayNear is the day named (a weekday, or "weekend": Saturday and
// Sunday) nearest before, or after, anchor.
func weekdayNear(name string, before bool, anchor time.Time) Span {
	step := 1
	if before {
		step = -1
	}
	want, weekend := weekdays[name], name == "weekend"
	if weekend {
		want = time.Saturday
		if before {
			want = time.Sunday
		}
	}
	d := anchor.AddDate(0, 0, step)
	for d.Weekday() != want {
		d = d.AddDate(0, 0, step)
	}
	switch {
	case weekend && before:
		return Span{From: d.AddDate(0, 0, -1), To: d}
	case weekend:
		return Span{From: d, To: d.AddDate(0, 0, 1)}
	}
	return Span{From: d, To: d}
}

// ordinal is the number an ordinal word names; 5 for "last".
func ordinal(w string) int {
	switch w {
	case "first", "1st":
		return 1
	case "second", "2nd":
		return 2
	case "third", "3rd":
		return 3
	case "fourth", "4th":
		return 4
	}
	return 5
}

// nthOfMonth is the nth (5: the last) week of month m of year y — days
// 1-7, 8-14, 15-21, 22-28, or the last seven — or with weekend its nth
// Saturday and the Sunday after (the last: the last Saturday's).
func nthOfMonth(y, m, n int, weekend bool) (Span, bool) {
	full, ok := month(y, m)
	if !ok || n < 1 || n > 5 {
		return Span{}, false
	}
	if !weekend {
		if n == 5 {
			return Span{From: full.To.AddDate(0, 0, -6), To: full.To}, true
		}
		from := full.From.AddDate(0, 0, 7*(n-1))
		return Span{From: from, To: from.AddDate(0, 0, 6)}, true
	}
	sat := full.From
	for sat.Weekday() != time.Saturday {
		sat = sat.AddDate(0, 0, 1)
	}
	if n == 5 {
		for sat.AddDate(0, 0, 7).Month() == time.Month(m) {
			sat = sat.AddDate(0, 0, 7)
		}
	} else {
		sat = sat.AddDate(0, 0, 7*(n-1))
		if sat.Month() != time.Month(m) {
			return Span{}, false
		}
	}
	return Span{From: sat, To: sat.AddDate(0, 0, 1)}, true
}

// partOfMonth is the early (days 1-10), mid (11-20) or late (21-end) part
// of the month full.
func partOfMonth(full Span, part string) Span {
	switch {
	case strings.Contains(part, "early"), strings.Contains(part, "beginning"), strings.Contains(part, "start"):
		return Span{From: full.From, To: full.From.AddDate(0, 0, 9)}
	case part == "mid":
		return Span{From: full.From.AddDate(0, 0, 10), To: full.From.AddDate(0, 0, 19)}
	}
	return Span{From: full.From.AddDate(0, 0, 20), To: full.To}
}

// zhNumber reads a number from 1 to 12 written with digits or Chinese
// numerals; 0 when it is neither.
func zhNumber(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	digits := map[rune]int{'一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	r := []rune(s)
	switch {
	case len(r) == 1 && r[0] == '十':
		return 10
	case len(r) == 1:
		return digits[r[0]]
	case len(r) == 2 && r[0] == '十':
		return 10 + digits[r[1]]
	case len(r) == 2 && r[1] == '十': // 二十
		return 10 * digits[r[0]]
	case len(r) == 3 && r[1] == '十': // 二十五
		return 10*digits[r[0]] + digits[r[2]]
	}
	return 0
}

// zhWeekday is the English name of a Chinese weekday ("星期五", "周五"),
// or "weekend" ("周末").
func zhWeekday(s string) string {
	if strings.Contains(s, "末") {
		return "weekend"
	}
	r := []rune(s)
	return map[rune]string{'一': "monday", '二': "tuesday", '三': "wednesday", '四': "thursday", '五': "friday", '六': "saturday",
		'日': "sunday", '天': "sunday"}[r[len(r)-1]]
}

// In returns the spans of days text names, relative to now (in now's
// location), most specific expression first, and the text without them
// (white space made single spaces).
func In(text string, now time.Time) ([]Span, string) {
	// The expressions' \s is ASCII white space alone.
	text = strings.Join(strings.Fields(text), " ")
	var out []Span
	rest := scan(text, now, func(f Found) { out = append(out, f.Span) })
	return out, strings.Join(strings.Fields(strings.ReplaceAll(rest, "\x00", " ")), " ")
}

// Find returns the phrases of text that name days, relative to now, in
// the order they stand in text.
func Find(text string, now time.Time) []Found {
	var out []Found
	scan(text, now, func(f Found) { out = append(out, f) })
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// scan tries every expression in turn on text, most specific first, and
// gives found each match that names real days; every match (real days
// or not) is blanked before the next expression looks, so that a phrase
// is matched once. It returns the text as blanked.
func scan(text string, now time.Time, found func(Found)) string {
	if !mayName(text) {
		return text
	}
	return scanAll(text, now, found)
}

// signals are the words one of which every English expression needs
// (weekdays, "today" and "yesterday" end in "day"; the months' names are
// their first three letters, "sept" aside).
var signals = []string{"day", "week", "month", "year", "tonight", "tomorrow", "morning", "afternoon", "evening", "ago",
	"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// mayName is a cheap test that text may name days: it holds a digit, a
// CJK character or a signal. Most questions name none, and the
// expressions cost a tenth of a millisecond together.
func mayName(text string) bool {
	if strings.ContainsFunc(text, func(r rune) bool { return r >= '0' && r <= '9' || isCJK(r) }) {
		return true
	}
	lower := strings.ToLower(text)
	for _, w := range signals {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// scanAll is scan without mayName's test.
func scanAll(text string, now time.Time, found func(Found)) string {
	today := date(now.Year(), int(now.Month()), now.Day())
	work := []byte(text)
	cjk := strings.ContainsFunc(text, isCJK)
	for _, e := range dateExprs() {
		if e.cjk && !cjk {
			continue
		}
		// Where the expression matches first, its groups then in the match
		// alone: asking for groups across the whole text costs more.
		for _, loc := range e.re.FindAllIndex(work, -1) {
			if !standsAlone(text, loc[0], loc[1]) {
				continue // left for a shorter expression: 这周一直 is 这周
			}
			if m := e.re.FindStringSubmatch(string(work[loc[0]:loc[1]])); m != nil {
				if sp, ok := e.parse(m, today); ok {
					if sp.Day.IsZero() && sp.From.Equal(sp.To) {
						sp.Day = sp.From
					}
					found(Found{Start: loc[0], End: loc[1], Span: sp})
				}
			}
			// Blanked with a byte neither \s nor \w matches, so that no
			// later expression reaches across it.
			for i := loc[0]; i < loc[1]; i++ {
				work[i] = 0
			}
		}
	}
	return string(work)
}

// standsAlone reports whether the Chinese phrase at text[start:end] is
// not part of a common word with the characters around it: 下周一起 is "next
// week, together" (一起), not next Monday; 然后天气 is "then the
// weather", not the day after tomorrow.
func standsAlone(text string, start, end int) bool {
	first, _ := utf8.DecodeRuneInString(text[start:end])
	last, _ := utf8.DecodeLastRuneInString(text[start:end])
	if prev, n := utf8.DecodeLastRuneInString(text[:start]); n > 0 && cjkWords[string(prev)+string(first)] {
		return false
	}
	if next, n := utf8.DecodeRuneInString(text[end:]); n > 0 && cjkWords[string(last)+string(next)] {
		return false
	}
	return true
}

// cjkWords are common Chinese words that start with the last character
// of a date phrase (一 of 下周一, 天 of 明天) or end with its first (后 of
// 后天, 明 of 明天).
var cjkWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		一起 一直 一样 一般 一定 一些 一切 一共 一次 一下 一点 一边 一旦 一向 一致 一同 一再 一天 一会 一整 一半 一个 一种
		二手 三角 三明 四周 五金 六月 日子 日常 日记 日期 日本 日报 日益 天气 天空 天才 天然 天下 天使 天真 天堂 天生 天地 天天
		然后 最后 之后 以后 随后 前后 落后 午后 背后 今后 此后 事后 先后 往后 过后
		之前 以前 目前 提前 从前 面前 眼前 事前 当前 空前 向前 跟前
		聪明 说明 光明 证明 文明 发明 透明 分明 表明 声明 鲜明 简明 精明 英明 清明 阐明 标明 注明 查明 指明`) {
		m[w] = true
	}
	return m
}()

// maxCount is the largest count of days, weeks, months or years a phrase
// may name: "in 99999999 days" names no date worth writing down.
const maxCount = 1000

// count is the number s names: digits, an English number word ("a",
// "two", "twelve"; "a few" is 3) or a Chinese numeral (三, 二十); ok is
// false for none or more than maxCount.
func count(s string) (int, bool) {
	s = strings.ToLower(s)
	n, ok := numberWords[s]
	switch {
	case strings.HasSuffix(s, "few"):
		n, ok = 3, true
	case !ok:
		n = zhNumber(s)
		ok = n > 0
	}
	return n, ok && n <= maxCount
}

// ahead is the day n units ("day", "week", "month", "year") after t, or
// before it when n < 0. A month or a year on keeps to the month it lands
// in: a month after 31 January is the last day of February.
func ahead(t time.Time, n int, unit string) time.Time {
	switch unit {
	case "day":
		return t.AddDate(0, 0, n)
	case "week":
		return t.AddDate(0, 0, 7*n)
	case "year":
		n *= 12
	}
	first := date(t.Year(), int(t.Month()), 1).AddDate(0, n, 0)
	last := first.AddDate(0, 1, -1).Day()
	return date(first.Year(), int(first.Month()), min(t.Day(), last))
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func date(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }

// day is the one-day Span of y-m-d; false when there is no such day.
func day(y, m, d int) (Span, bool) {
	t := date(y, m, d)
	if m < 1 || m > 12 || t.Day() != d {
		return Span{}, false
	}
	return Span{From: t, To: t}, true
}

// month is the Span of month m of year y.
func month(y, m int) (Span, bool) {
	if m < 1 || m > 12 {
		return Span{}, false
	}
	first := date(y, m, 1)
	return Span{From: first, To: first.AddDate(0, 1, -1)}, true
}

// week is the Monday-to-Sunday week holding t.
func week(t time.Time) Span {
	monday := t.AddDate(0, 0, -((int(t.Weekday()) + 6) % 7))
	return Span{From: monday, To: monday.AddDate(0, 0, 6)}
}
