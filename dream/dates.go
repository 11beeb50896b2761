package dream

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vaultmem/vaultmem/dates"
	"github.com/vaultmem/vaultmem/gitrepo"
	"github.com/vaultmem/vaultmem/markdown"
)

// Relative dates ("next Thursday", "tomorrow", "in two weeks") mean
// nothing a month after they were written: Dream adds the day they meant
// after them, keeping the words ("next Thursday (2026-03-05)"). The day
// they count from is the memory's frontmatter updated, else created, else
// the day git first saw the file.
//
// Only prose is dated: never a heading (a link to it names its words),
// code, math, HTML, a comment or a link. And only phrases that name one
// day for certain. "Next Friday" said on a Thursday is tomorrow to some
// English speakers and the Friday of the week after to others ("last
// Monday" said on a Thursday likewise), so a "next" or "last" weekday
// that falls within the week it was said in is left as it is and listed
// in the report's Skipped; "this Friday" (the Friday of the Monday to
// Sunday week it was said in, or the coming one when said on a Sunday),
// "this coming Friday", and "next Friday" said on a Saturday or Sunday
// name one day.

// phraseDay is the day the phrase said, all of it, names from base (see
// dates.Span.Day); ok is false when it names none.
func phraseDay(said string, base time.Time) (day time.Time, ok bool) {
	for _, f := range dates.Find(said, base) {
		if f.Start == 0 && f.End == len(said) && !f.Day.IsZero() {
			return f.Day, true
		}
	}
	return time.Time{}, false
}

// nextOrLast matches an English "next" or "last" weekday.
var nextOrLast = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(next|last)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)$`)
})

// ambiguous reports whether phrase, said on day base, names a "next" or
// "last" weekday that English speakers read two ways, and the two days it
// may be: the weekday ahead (or behind) within base's Monday to Sunday
// week, and the one a week later (earlier).
func ambiguous(phrase string, base time.Time) (near, far time.Time, ok bool) {
	m := nextOrLast().FindStringSubmatch(phrase)
	if m == nil {
		return time.Time{}, time.Time{}, false
	}
	monFirst := func(d time.Weekday) int { return (int(d) + 6) % 7 }
	var target time.Weekday
	for d := time.Sunday; d <= time.Saturday; d++ {
		if strings.EqualFold(d.String(), m[2]) {
			target = d
		}
	}
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

// phraseBase is the day relativeDates finds phrases from: where a phrase
// is does not depend on the day it counts from.
var phraseBase = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// definite are the phrases that name one day: a bare weekday ("on
// Monday", often a habit), a time of day ("tonight") or "in 3 hours" are
// left as they are.
var definite = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(today|tomorrow|yesterday|the\s+day\s+(after\s+tomorrow|before\s+yesterday)|` +
		`(next|last|this|coming|past|this\s+coming)\s+(monday|tuesday|wednesday|thursday|friday|saturday|sunday)|` +
		`(in|within)\s+\S+(\s+few)?\s+(days?|weeks?|months?|years?)|` +
		`\S+\s+(days?|weeks?|months?|years?)\s+(ago|from\s+(now|today))|` +
		`今天|明天|昨天|后天|前天|[上下这本]个?(周|星期|礼拜)[一二三四五六日天]|` +
		`[0-9一二两三四五六七八九十]+\s*(天|周|个?星期|个月|年)(以?后|之后|以?前|之前))$`)
})

// mayHold finds, in one scan, the lines where a definite phrase may be,
// so that the date parser (some forty expressions) reads no other line.
var mayHold = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[今明昨后前]天|[上下这本]个?(周|星期|礼拜)|[天周期月年](以?后|之后|以?前|之前)|(?i)\b(today|tomorrow|yesterday|ago|from\s+now|` +
		`(next|last|this|coming|past)\s+(mon|tues|wednes|thurs|fri|satur|sun)day|(in|within)\s+\S+(\s+few)?\s+(day|week|month|year)s?)\b`)
})

// annotated matches the date Dream added after a phrase.
var annotated = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ \(\d{4}-\d{2}-\d{2}\)`) })

// fixDates makes the relative dates of the changed memories, and of the
// memories merges wrote, absolute (after the merges: a merged memory
// counts from the created it keeps).
func (d *Dreamer) fixDates(ctx context.Context, p *plan, rep *Report) {
	firstSeen := map[string]string{}
	for _, m := range p.mems {
		if !m.changed && m.next == nil {
			continue
		}
		n := m.parsed() // merged: the blocks of the others, the older created
		found := relativeDates(n)
		if len(found) == 0 {
			continue
		}
		day := writtenOn(n)
		if day == "" {
			day = d.firstCommit(ctx, m.path, firstSeen)
		}
		base, err := time.Parse(time.DateOnly, day)
		if err != nil {
			rep.skip(m.path, found[0].line, "%q is a relative date, but the memory has no created or updated date and git has no record of it: left as it is", found[0].text)
			continue
		}
		for _, f := range found {
			if a, b, ok := ambiguous(f.text, base); ok {
				rep.skip(m.path, f.line, "%q said on %s, a %s, may mean %s or %s: left as it is (write the date to make it certain)",
					f.text, base.Format(time.DateOnly), base.Weekday(), a.Format(time.DateOnly), b.Format(time.DateOnly))
			}
		}
		next := slices.Clone(n.Content)
		for i := len(found) - 1; i >= 0; i-- { // from the end, so offsets hold
			f := found[i]
			if _, _, ok := ambiguous(f.text, base); ok {
				continue
			}
			day, ok := phraseDay(f.text, base)
			if !ok {
				continue
			}
			to := day.Format(time.DateOnly)
			next = slices.Insert(next, f.end, []byte(" ("+to+")")...)
			m.fixes = append([]DateFix{{Path: m.path, Line: f.line, From: f.text, To: to}}, m.fixes...)
		}
		if len(m.fixes) > 0 {
			m.set(next)
		}
	}
}

// phrase is a relative date found in a note: its text, where it ends
// (byte offset in the content) and its line.
type phrase struct {
	text string
	end  int
	line int
}

// relativeDates finds the definite relative dates of n's body that have
// no date after them yet, outside headings, code, math, HTML, comments and
// links.
func relativeDates(n *markdown.Note) []phrase {
	var out []phrase
	content := n.Content
	line := n.BodyLine
	for pos := n.BodyStart; pos < len(content); line++ {
		end := bytes.IndexByte(content[pos:], '\n')
		if end < 0 {
			end = len(content)
		} else {
			end += pos
		}
		text := string(content[pos:end])
		if !mayHold().MatchString(text) {
			pos = end + 1
			continue
		}
		for _, f := range dates.Find(text, phraseBase) {
			said, start, stop := text[f.Start:f.End], f.Start, f.End
			at := pos + start
			switch {
			case !definite().MatchString(said),
				annotated().MatchString(text[stop:]),
				strings.Count(text[:start], "`")%2 == 1, // inline code
				inInline(text, start, stop),
				excluded(n, at):
				continue
			}
			out = append(out, phrase{text: said, end: pos + stop, line: line})
		}
		pos = end + 1
	}
	return out
}

// inlineMarkup matches what a line may hold that is not prose: inline
// math ($x$, $$x$$) and HTML from its first tag to its last.
var inlineMarkup = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\$[^$]+\$\$|\$[^$\s][^$]*\$|</?[A-Za-z][^<>]*>(.*</[A-Za-z][^<>]*>)?`)
})

// inInline reports whether text[start:stop] overlaps inline math or HTML.
func inInline(text string, start, stop int) bool {
	for _, r := range inlineMarkup().FindAllStringIndex(text, -1) {
		if start < r[1] && stop > r[0] {
			return true
		}
	}
	return false
}

// excluded reports whether byte at of n lies in a heading, code, math or
// HTML, a comment or a link: text that is not prose, or that a link may
// name (a heading).
func excluded(n *markdown.Note, at int) bool {
	for _, s := range n.Spans {
		if (s.Kind == "heading" || s.Kind == "code" || s.Kind == "math" || s.Kind == "html") && at >= s.Start && at < s.End {
			return true
		}
	}
	for _, s := range n.Comments {
		if at >= s.Start && at < s.End {
			return true
		}
	}
	for _, l := range n.Links {
		if at >= l.Start && at < l.End {
			return true
		}
	}
	return false
}

// writtenOn is the day a memory's text was last written, by its
// frontmatter (updated, else created), "" when it says nothing.
func writtenOn(n *markdown.Note) string {
	for _, k := range []string{"updated", "created"} {
		if s, ok := n.Frontmatter.String(k); ok && len(s) >= 10 {
			return s[:10]
		}
	}
	return ""
}

// firstCommit is the day git first recorded the file at vault path p
// ("" when the vault is no git repository or git never saw it); cache
// keeps the answers of one run.
func (d *Dreamer) firstCommit(ctx context.Context, p string, cache map[string]string) string {
	if day, ok := cache[p]; ok {
		return day
	}
	day := gitrepo.FirstAdded(ctx, d.v.Dir, p)
	cache[p] = day
	return day
}
