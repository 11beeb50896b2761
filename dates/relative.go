package dates

import (
	"regexp"
	"strings"
	"sync"
	"time"
)

// A relative date ("next Thursday", "tomorrow", "in two weeks") means
// nothing a month after it was written. Dream writes the day it meant
// after it; these are the rules of which phrases name one day for
// certain, kept here with the rest of the grammar.

// Relative reports whether phrase (a Found's text, all of it) is a
// relative date that names one day for certain once the day it was said
// is known: "today", "tomorrow", a "next", "last" or "this" weekday, "in
// two weeks", "three days ago", and their Chinese forms. A bare weekday
// ("on Monday", often a habit), a time of day ("tonight"), a week ("next
// week") or "in 3 hours" is not.
func Relative(phrase string) bool { return relative().MatchString(phrase) }

var relative = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(today|tomorrow|yesterday|the\s+day\s+(after\s+tomorrow|before\s+yesterday)|` +
		`(next|last|this|coming|past|this\s+coming)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)|` +
		`(in|within)\s+\S+(\s+few)?\s+(days?|weeks?|months?|years?)|` +
		`\S+\s+(days?|weeks?|months?|years?)\s+(ago|from\s+(now|today))|` +
		`今天|明天|昨天|后天|前天|[上下这本]个?(周|星期|礼拜)[一二三四五六日天]|` +
		`[0-9一二两三四五六七八九十]+\s*(天|周|个?星期|个月|年)(以?后|之后|以?前|之前))$`)
})

// MayHoldRelative is a cheap test, one scan, that text may hold a
// Relative phrase, so that Find reads no other text.
func MayHoldRelative(text []byte) bool { return mayHoldRelative().Match(text) }

var mayHoldRelative = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[今明昨后前]天|[上下这本]个?(周|星期|礼拜)|[天周期月年](以?后|之后|以?前|之前)|(?i)\b(today|tomorrow|yesterday|ago|from\s+now|` +
		`(next|last|this|coming|past)\s+(mon|tues|wednes|thurs|fri|satur|sun)day|(in|within)\s+\S+(\s+few)?\s+(day|week|month|year)s?)\b`)
})

// DayNamed is the day phrase, all of it, names when said on base (see
// Span.Day); ok is false when it names none.
func DayNamed(phrase string, base time.Time) (day time.Time, ok bool) {
	for _, f := range Find(phrase, base) {
		if f.Start == 0 && f.End == len(phrase) && !f.Day.IsZero() {
			return f.Day, true
		}
	}
	return time.Time{}, false
}

// Ambiguous reports whether phrase, said on day base, is a "next" or
// "last" weekday that English speakers read two ways, and the two days it
// may be: the weekday ahead (or behind) within base's Monday to Sunday
// week, and the one a week later (earlier). "Next Friday" said on a
// Thursday is tomorrow to some and the Friday of the week after to
// others ("last Monday" said on a Thursday likewise); "this Friday",
// "this coming Friday" and "next Friday" said on a Saturday or Sunday
// name one day.
func Ambiguous(phrase string, base time.Time) (near, far time.Time, ok bool) {
	m := nextOrLast().FindStringSubmatch(phrase)
	if m == nil {
		return time.Time{}, time.Time{}, false
	}
	monFirst := func(d time.Weekday) int { return (int(d) + 6) % 7 }
	target := weekdays[strings.ToLower(m[2])]
	diff := monFirst(target) - monFirst(base.Weekday())
	if strings.EqualFold(m[1], "next") && diff > 0 {
		near = base.AddDate(0, 0, diff)
		return near, near.AddDate(0, 0, 7), true
	}
	if strings.EqualFold(m[1], "last") && diff < 0 {
		near = base.AddDate(0, 0, diff)
		return near, near.AddDate(0, 0, -7), true
	}
	return time.Time{}, time.Time{}, false
}

// nextOrLast matches an English "next" or "last" weekday.
var nextOrLast = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(next|last)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)$`)
})
