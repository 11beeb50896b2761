package dream

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/vaultmem/vaultmem/dates"
	"github.com/vaultmem/vaultmem/gitrepo"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/markdown"
)

// Relative dates ("next Thursday", "tomorrow", "in two weeks") mean
// nothing a month after they were written: Dream adds the day they meant
// after them, keeping the words ("next Thursday (2026-03-05)"). The day
// they count from is the memory's frontmatter updated, else created, else
// the day git first saw the file.
//
// Only prose is dated (see markdown.Note.Prose): the text of paragraphs,
// list items, quotes, callouts, table rows and headings, never code, math,
// HTML, a comment, a link, a URL, a tag or the frontmatter, where a date
// would change what the text does. A heading that a link names (by its
// words: [[note#Ship next Friday]]) is left as it is, or the link would
// break; so is every heading when the index cannot say.
//
// And only phrases that name one day for certain (dates.Relative); a
// "next" or "last" weekday that English reads two ways (dates.Ambiguous)
// is left as it is and listed in the report's Skipped.

// phraseBase is the day relativeDates finds phrases from: where a phrase
// is does not depend on the day it counts from.
var phraseBase = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// annotated matches the date Dream added after a phrase.
var annotated = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ \(\d{4}-\d{2}-\d{2}\)`) })

// fixDates makes the relative dates of the changed memories, and of the
// memories merges wrote, absolute (after the merges: a merged memory
// counts from the created it keeps).
func (d *Dreamer) fixDates(ctx context.Context, p *plan, rep *Report) {
	firstSeen := map[string]string{}
	for _, m := range p.mems {
		if !m.Changed && m.Next() == nil {
			continue
		}
		n := m.Parsed() // merged: the blocks of the others, the older created
		found := relativeDates(n)
		if slices.ContainsFunc(found, func(f phrase) bool { return f.heading != "" }) {
			found = d.unnamedHeadings(ctx, p, m, n, found)
		}
		if len(found) == 0 {
			continue
		}
		day := writtenOn(n)
		if day == "" {
			day = d.firstCommit(ctx, m.Path, firstSeen)
		}
		base, err := time.Parse(time.DateOnly, day)
		if err != nil {
			rep.skip(m.Path, found[0].line, "%q is a relative date, but the memory has no created or updated date and git has no record of it: left as it is", found[0].text)
			continue
		}
		for _, f := range found {
			if a, b, ok := dates.Ambiguous(f.text, base); ok {
				rep.skip(m.Path, f.line, "%q said on %s, a %s, may mean %s or %s: left as it is (write the date to make it certain)",
					f.text, base.Format(time.DateOnly), base.Weekday(), a.Format(time.DateOnly), b.Format(time.DateOnly))
			}
		}
		next := slices.Clone(n.Content)
		for i := len(found) - 1; i >= 0; i-- { // from the end, so offsets hold
			f := found[i]
			if _, _, ok := dates.Ambiguous(f.text, base); ok {
				continue
			}
			day, ok := dates.DayNamed(f.text, base)
			if !ok {
				continue
			}
			to := day.Format(time.DateOnly)
			next = slices.Insert(next, f.end, []byte(" ("+to+")")...)
			m.fixes = append([]DateFix{{Path: m.Path, Line: f.line, From: f.text, To: to}}, m.fixes...)
		}
		if len(m.fixes) > 0 {
			m.Set(next)
		}
	}
}

// unnamedHeadings drops from found the phrases in headings that a link
// names (all of them when the index cannot say which): those of m and of
// the memories merged into it, whose links point at m after the run.
func (d *Dreamer) unnamedHeadings(ctx context.Context, p *plan, m *mem, n *markdown.Note, found []phrase) []phrase {
	paths := []string{m.Path}
	for _, mg := range p.merges {
		if mg.winner == m {
			for _, l := range mg.losers {
				paths = append(paths, l.Path)
			}
		}
	}
	named, ok := d.namedHeadings(ctx, n, paths)
	return slices.DeleteFunc(found, func(f phrase) bool {
		return f.heading != "" && (!ok || named[headingKey(f.heading)])
	})
}

// phrase is a relative date found in a note: its text, where it ends
// (byte offset in the content), its line, and the heading it is in ("" in
// a paragraph).
type phrase struct {
	text    string
	end     int
	line    int
	heading string
}

// relativeDates finds the definite relative dates of n's prose (see
// markdown.Note.Prose: never code, math, HTML, a comment, a link, a tag or
// the frontmatter) that have no date after them yet.
func relativeDates(n *markdown.Note) []phrase {
	if !dates.MayHoldRelative(n.Body()) {
		return nil // most memories: no need to parse the note again
	}
	var out []phrase
	for _, s := range n.Prose() {
		text := string(n.Content[s.Start:s.End])
		if !dates.MayHoldRelative(n.Content[s.Start:s.End]) {
			continue
		}
		for _, f := range dates.Find(text, phraseBase) {
			said := text[f.Start:f.End]
			if !dates.Relative(said) || annotated().Match(n.Content[s.Start+f.End:]) {
				continue
			}
			ph := phrase{text: said, end: s.Start + f.End, line: s.Line + strings.Count(text[:f.Start], "\n")}
			if s.Kind == "heading" {
				ph.heading = headingAt(n, s.Line)
			}
			out = append(out, ph)
		}
	}
	return out
}

// headingAt is the text of n's heading on line (as Note.Headings has it).
func headingAt(n *markdown.Note, line int) string {
	for _, h := range n.Headings {
		if h.Line == line {
			return h.Text
		}
	}
	return ""
}

// namedHeadings are the headings that links name in the memories at
// paths (a memory and those merged into it), as headingKey has them; ok is
// false when the index cannot say. A link names a heading by its words:
// dating a heading a link names would break the link.
func (d *Dreamer) namedHeadings(ctx context.Context, n *markdown.Note, paths []string) (named map[string]bool, ok bool) {
	named = map[string]bool{}
	add := func(fragment string) {
		for _, h := range strings.Split(fragment, "#") {
			named[headingKey(h)] = true
		}
	}
	for _, l := range n.Links {
		if l.Target == "" && l.Heading != "" { // [[#Heading]] in the note itself
			add(l.Heading)
		}
	}
	for _, p := range paths {
		edges, err := d.ix.Edges(ctx, index.EdgeFilter{To: p})
		if err != nil {
			return nil, false
		}
		for _, e := range edges {
			if e.Heading != "" {
				add(e.Heading)
			}
		}
	}
	return named, true
}

// headingKey is a heading's words as a link matches them: letters and
// digits, lower-cased (Obsidian forgives case and the characters a link
// cannot hold; this forgives more, so that no named heading is dated).
func headingKey(h string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, h)
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
