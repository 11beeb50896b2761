package vault

import (
	"bytes"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// TextMerger merges two versions of a text from their common base, line
// by line, as git merge-file does; clean is false when they changed the
// same lines (merged then holds conflict markers).
type TextMerger func(base, ours, theirs []byte) (merged []byte, clean bool, err error)

// AppendOnlySections are the sections MergeNote merges as append-only
// logs: a task's events and a lesson's history.
var AppendOnlySections = []string{LogHeading, HistoryHeading}

// Frontmatter keys that two machines change independently, and how their
// changes combine when both did: counters add their changes up
// (strength, application_count), days take the later one.
var (
	mergeAdd  = []string{LessonStrength, LessonApplications}
	mergeLate = []string{LessonLastApplied, "decayed", "started", "finished", "updated"}
)

// MergeNote merges two versions of a note (ours, theirs) from their common
// base: what git's merge driver for task and lesson notes does. The lines
// of the append-only sections (see AppendOnlySections) are merged as sets
// of entries (an entry is a "- " line and the indented lines under it):
// every entry either side added is kept, in time order, and one either
// side removed is dropped; the rest of the body is merged by text; the
// frontmatter key by key: a key one side changed takes that side's value,
// and when both changed it, counters add up both changes and days take the
// later one. clean is false when something could not be merged (the same
// key, or the same lines, changed both ways): merged is then ours with the
// text merger's conflict markers in the body, and a human decides.
func MergeNote(p string, base, ours, theirs []byte, text TextMerger) (merged []byte, clean bool, err error) {
	b, o, t := Parse(p, base), Parse(p, ours), Parse(p, theirs)
	if o.Frontmatter == nil && len(o.Warnings) > 0 || t.Frontmatter == nil && len(t.Warnings) > 0 {
		return text(base, ours, theirs) // a side whose frontmatter does not parse: lines alone
	}
	const mark = sectionMark + "%d%%\n"
	bb, bSec := cutSections(b)
	ob, oSec := cutSections(o)
	tb, tSec := cutSections(t)
	body, clean, err := text(bb, ob, tb)
	if err != nil {
		return nil, false, err
	}
	for i := range AppendOnlySections {
		m := []byte(strings.Replace(mark, "%d", strconv.Itoa(i), 1))
		sec := mergeEntries(bSec[i], oSec[i], tSec[i])
		if bytes.Contains(body, m) {
			body = bytes.Replace(body, m, []byte(sec), 1)
		} else if strings.TrimSpace(sec) != "" && strings.TrimSpace(oSec[i]) != "" { // the section's heading moved in a conflict
			clean = false
		}
	}
	out := append(slices.Clone(ours[:o.BodyStart]), body...)
	keys := o.Frontmatter.Keys()
	for _, k := range t.Frontmatter.Keys() {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		bv, ov, tv := b.Frontmatter.Value(k), o.Frontmatter.Value(k), t.Frontmatter.Value(k)
		bt, ot, tt := nodeText(bv), nodeText(ov), nodeText(tv)
		var set any
		switch {
		case tt == bt:
			continue // ours is the merge
		case ot == bt:
			if tv == nil {
				if out, err = DeleteFrontmatter(p, out, k); err != nil {
					return nil, false, err
				}
				continue
			}
			set = tv
		case slices.Contains(mergeAdd, k) && isNumber(bv, ov, tv):
			sum := number(ov) + number(tv) - number(bv)
			if k == LessonStrength {
				set = math.Round(math.Min(1, math.Max(0, sum))*1e4) / 1e4
			} else {
				set = int(math.Max(0, sum))
			}
		case ot == tt && !slices.Contains(mergeAdd, k):
			continue // both changed it alike
		case slices.Contains(mergeLate, k) && ov != nil && tv != nil:
			if tv.Value <= ov.Value {
				continue
			}
			set = tv
		default:
			clean = false // both changed it: ours stays, for a human to decide
			continue
		}
		if out, err = SetFrontmatter(p, out, k, set); err != nil {
			return nil, false, err
		}
	}
	return out, clean, nil
}

// sectionMark starts the line that stands for an append-only section while
// the rest of the body is merged by text (a line of text, so that line
// mergers take the body for text; an Obsidian comment no note holds).
const sectionMark = "%%vaultmem-merge-section-"

// cutSections returns n's body with the content of each append-only
// section replaced by a marker line, and those contents ("" when n has no
// such section).
func cutSections(n *Note) ([]byte, []string) {
	secs := make([]string, len(AppendOnlySections))
	type cut struct {
		start, end, i int
	}
	var cuts []cut
	for i, h := range AppendOnlySections {
		if _, start, end, ok := sectionOf(n, h); ok {
			secs[i] = string(n.Content[start:end])
			cuts = append(cuts, cut{start, end, i})
		}
	}
	slices.SortFunc(cuts, func(a, b cut) int { return b.start - a.start })
	body := slices.Clone(n.Content)
	for _, c := range cuts {
		body = slices.Concat(body[:c.start], []byte(sectionMark+strconv.Itoa(c.i)+"%%\n"), body[c.end:])
	}
	return body[n.BodyStart:], secs
}

// entryTime is the time an entry starts with.
var entryTime = regexp.MustCompile(`^- (\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?)`)

// mergeEntries merges an append-only section's three versions as
// multisets of entries (two outcomes can write the same line in the same
// minute): an entry is kept as many times as ours has it plus the times
// theirs added it, less the times theirs removed it; ours' order first,
// then theirs' additions, in time order when every entry has a time.
func mergeEntries(base, ours, theirs string) string {
	be, _, _ := entries(base)
	oe, head, tail := entries(ours)
	te, thead, ttail := entries(theirs)
	if len(oe) == 0 && strings.TrimSpace(ours) == "" {
		head, tail = thead, ttail
	}
	count := func(list []string) map[string]int {
		m := map[string]int{}
		for _, e := range list {
			m[e]++
		}
		return m
	}
	bc, tc := count(be), count(te)
	drop := map[string]int{} // theirs removed these from base
	for e, n := range bc {
		if tc[e] < n {
			drop[e] = n - tc[e]
		}
	}
	var out []string
	for _, e := range oe {
		if drop[e] > 0 {
			drop[e]--
			continue
		}
		out = append(out, e)
	}
	added := map[string]int{} // theirs added these to base
	for e, n := range tc {
		if n > bc[e] {
			added[e] = n - bc[e]
		}
	}
	for _, e := range te {
		if added[e] > 0 {
			added[e]--
			out = append(out, e)
		}
	}
	timed := true
	for _, e := range out {
		timed = timed && entryTime.MatchString(e)
	}
	if timed {
		slices.SortStableFunc(out, func(a, b string) int {
			return strings.Compare(entryTime.FindString(a), entryTime.FindString(b))
		})
	}
	return head + strings.Join(out, "") + tail
}

// entries splits a section's content into its entries (each with its
// newline), what comes before the first (blank lines) and after the last.
func entries(s string) (list []string, head, tail string) {
	lines := strings.SplitAfter(s, "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "- ") {
		head += lines[i]
		i++
	}
	for i < len(lines) && lines[i] != "" {
		if !strings.HasPrefix(lines[i], "- ") {
			tail += lines[i] // loose text after the entries
			i++
			continue
		}
		e := lines[i]
		i++
		for i < len(lines) && (strings.HasPrefix(lines[i], " ") || strings.HasPrefix(lines[i], "\t")) {
			e += lines[i]
			i++
		}
		if tail != "" { // an entry after loose text: the text belongs among them
			list[len(list)-1] += tail
			tail = ""
		}
		if !strings.HasSuffix(e, "\n") {
			e += "\n"
		}
		list = append(list, e)
	}
	return list, head, tail
}

// nodeText is a frontmatter value as YAML text ("" when absent).
func nodeText(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	b, err := yaml.Marshal(n)
	if err != nil {
		return n.Value
	}
	return string(b)
}

// isNumber reports whether every node is a number (an absent one counts
// as 0).
func isNumber(ns ...*yaml.Node) bool {
	for _, n := range ns {
		if n == nil {
			continue
		}
		if _, err := strconv.ParseFloat(n.Value, 64); n.Kind != yaml.ScalarNode || err != nil {
			return false
		}
	}
	return true
}

func number(n *yaml.Node) float64 {
	if n == nil {
		return 0
	}
	f, _ := strconv.ParseFloat(n.Value, 64)
	return f
}
