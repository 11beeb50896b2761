package memory

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/markdown"
)

// MEMORY.md is the index of memories an agent loads at the start of a
// session (Claude Code loads the first 200 lines, about 25 KB). vaultmem
// owns a region of it between two marker comments and keeps everything
// else a human wrote there byte for byte. The region lists the live
// memories grouped by type, one line each, "- [Title](path.md) — hook",
// in an order that depends only on the notes, so that two machines never
// make different bytes of the same memories.

// The markers of the generated region.
const (
	Begin = "<!-- vaultmem:memory-index:begin -->"
	End   = "<!-- vaultmem:memory-index:end -->"
)

// Limits of MEMORY.md: what Claude Code loads of it, and of one line.
const (
	MaxLines     = 200
	MaxBytes     = 25_000
	MaxLineChars = 150
)

// Entry is one memory as MEMORY.md lists it.
type Entry struct {
	// Path is the memory note's vault path.
	Path  string
	Type  Type
	Title string
	// Hook is the one-line description.
	Hook string
	// Pinned and Date (YYYY-MM-DD of its last write, "" when unknown) set
	// what is left out first when the file would be too long: unpinned and
	// older memories.
	Pinned bool
	Date   string
	// Owner is whose memory it is (see OwnerKey); "" for none.
	Owner string
	// TextSum fingerprints what it says (see TextSum); "" when unknown.
	TextSum string
}

// Review is what MEMORY.md lists under "Needs review", for a person to
// settle: a pair of memories Dream found contradicting each other (A and
// B, and why), or, when Proposed, a note Dream proposed from a session (A
// alone: a memory or a lesson, by path and title), to accept or delete.
type Review struct {
	A, B   Entry
	Reason string
	// Proposed makes the review a proposal's; Source is the link target
	// of the session note it was proposed from ("" when unknown).
	Proposed bool
	Source   string
	// Report makes the review the link to Dream's report (A: its log
	// note), listed last, for the whole story of what is listed above.
	Report bool
	// Duplicate makes the pair possible duplicates (alike, but not
	// provably the same), not a contradiction; Found is the day Dream
	// found it (they are listed newest first).
	Duplicate bool
	Found     string
	// Lesson makes the review a lesson that keeps failing (A alone: the
	// lesson note, by path and title; Reason: its record), listed after
	// the pairs; the outcome log lists it again at each listing, so a
	// merge that drops its line loses nothing.
	Lesson bool
}

// ReportTitle is the title of the link to Dream's report under "Needs
// review".
const ReportTitle = "Dream's report"

// ReviewOf is a proposal as MEMORY.md lists it under "Needs review".
func ReviewOf(p Proposal) Review {
	return Review{A: Entry{Path: p.Path, Type: Type(p.Type), Title: p.Title}, Proposed: true, Source: p.Source}
}

// MaxProposalLines is the most proposals MEMORY.md lists; a line says how
// many more there are and where to see them all.
const MaxProposalLines = 10

// MaxDuplicateLines is the most possible duplicates MEMORY.md lists, the
// newest first; a line says how many more.
const MaxDuplicateLines = 10

// ListStats is what Render made of MEMORY.md.
type ListStats struct {
	Lines int `json:"lines"`
	Bytes int `json:"bytes"`
	// Omitted counts the memories left out to keep within the limits.
	Omitted int `json:"omitted"`
}

// typeTitles are the groups of the region, in order.
var typeTitles = []struct {
	kind  Type
	title string
}{
	{User, "User"}, {Feedback, "Feedback"}, {Project, "Project"}, {Reference, "Reference"},
}

// Render returns content (the current MEMORY.md at vault path file, nil
// when there is none) with its region listing entries and reviews. Text
// outside the markers is kept as it is; without markers, the region is
// added at the end (a new file starts with "# Memory"). Within its type, an
// entry's place is alphabetical by title (then path). When the whole file
// would pass MaxLines or MaxBytes, entries are left out (reference before
// project before feedback before user; unpinned before pinned; older
// first) and the region ends with a line saying how many, and how to list
// them.
//
// It returns a *markdown.ParseError naming file and line when content has
// one marker without the other, or the end before the begin: then nothing
// may be written.
func Render(file string, content []byte, entries []Entry, reviews []Review) ([]byte, ListStats, error) {
	before, after, err := splitRegion(file, content)
	if err != nil {
		return nil, ListStats{}, err
	}
	dir := path.Dir(file)
	keep := byPriority(entries)
	lines := make(map[string]string, len(keep))
	for _, e := range keep {
		lines[e.Path] = Line(dir, e)
	}
	n := len(keep)
	size := measure(before, after, keep, lines, reviews, dir)
	fits := func(n int) bool { l, b := size(n); return l <= MaxLines && b <= MaxBytes }
	if !fits(n) {
		// The most entries of highest priority that fit (fewer entries,
		// fewer lines and bytes: a binary search finds the edge).
		n = max(sort.Search(len(keep)+1, func(i int) bool { return !fits(i) })-1, 0)
	}
	in := make(map[string]bool, n)
	for _, e := range keep[:n] {
		in[e.Path] = true
	}
	out := assemble(before, region(byDisplay(entries), in, lines, reviews, dir, omitted(keep[n:])), after)
	return out, ListStats{Lines: bytes.Count(out, []byte("\n")), Bytes: len(out), Omitted: len(keep) - n}, nil
}

// measure returns the size of MEMORY.md, in lines and bytes, with the
// first n entries of keep (by priority, so by type) listed: counted, not
// rendered, so that a search over n stays cheap.
func measure(before, after []byte, keep []Entry, lines map[string]string, reviews []Review, dir string) func(n int) (lines, bytes int) {
	fixed := assemble(before, region(nil, nil, nil, reviews, dir, ""), after)
	fixedLines, fixedBytes := bytes.Count(fixed, []byte("\n")), len(fixed)
	// sum[i] is the bytes of the first i entries' lines; heads[i] those of
	// the headings of their types.
	sum, heads, groups := make([]int, len(keep)+1), make([]int, len(keep)+1), make([]int, len(keep)+1)
	for i, e := range keep {
		sum[i+1], heads[i+1], groups[i+1] = sum[i]+len(lines[e.Path])+1, heads[i], groups[i]
		if i == 0 || keep[i-1].Type != e.Type {
			heads[i+1] += len("## \n\n\n") + len(typeTitle(e.Type))
			groups[i+1]++
		}
	}
	return func(n int) (int, int) {
		lineCount, byteCount := fixedLines+n+3*groups[n], fixedBytes+sum[n]+heads[n]
		if left := omitted(keep[n:]); left != "" {
			lineCount, byteCount = lineCount+2, byteCount+len(left)+2
		}
		return lineCount, byteCount
	}
}

// splitRegion returns the text before and after the region (markers
// excluded). A file without markers is all before; a new one gets a title.
func splitRegion(file string, content []byte) (before, after []byte, err error) {
	if content == nil {
		return []byte("# Memory\n\n"), nil, nil
	}
	begins, ends := markerLines(content)
	b, e := -1, -1
	if len(begins) > 0 {
		b = begins[0]
	}
	if len(ends) > 0 {
		e = ends[0]
	}
	line := func(i int) int { return bytes.Count(content[:i], []byte("\n")) + 1 }
	switch {
	case b < 0 && e < 0:
		before = bytes.TrimRight(content, "\n")
		if len(before) > 0 {
			before = append(before[:len(before):len(before)], "\n\n"...)
		}
		return before, nil, nil
	case b < 0:
		return nil, nil, &markdown.ParseError{Path: file, Line: line(e), Err: fmt.Errorf("%s without %s: fix the markers by hand (vaultmem writes nothing until then)", End, Begin)}
	case e < 0:
		return nil, nil, &markdown.ParseError{Path: file, Line: line(b), Err: fmt.Errorf("%s without %s: fix the markers by hand (vaultmem writes nothing until then)", Begin, End)}
	case e < b:
		return nil, nil, &markdown.ParseError{Path: file, Line: line(e), Err: fmt.Errorf("%s comes before %s: fix the markers by hand (vaultmem writes nothing until then)", End, Begin)}
	case len(begins) > 1 || len(ends) > 1:
		return nil, nil, &markdown.ParseError{Path: file, Line: line(b), Err: fmt.Errorf("more than one region between %s and %s", Begin, End)}
	}
	return content[:b], content[e+len(End):], nil
}

// assemble puts the region between before and after.
func assemble(before []byte, region string, after []byte) []byte {
	out := make([]byte, 0, len(before)+len(region)+len(after)+len(Begin)+len(End)+2)
	out = append(out, before...)
	out = append(out, Begin+"\n"...)
	out = append(out, region...)
	out = append(out, End...)
	if !bytes.HasPrefix(after, []byte("\n")) && !bytes.HasPrefix(after, []byte("\r\n")) {
		out = append(out, '\n')
	}
	return append(out, after...)
}

// typeTitle is a memory type's heading in the region.
func typeTitle(k Type) string {
	for _, t := range typeTitles {
		if t.kind == k {
			return t.title
		}
	}
	return ""
}

// typeRank is a memory type's place in the region (and priority).
func typeRank(k Type) int {
	for i, t := range typeTitles {
		if t.kind == k {
			return i
		}
	}
	return len(typeTitles)
}

// byPriority returns the entries most important first: by type, pinned
// first, newest first, then by path.
func byPriority(entries []Entry) []Entry {
	out := slices.Clone(entries)
	slices.SortStableFunc(out, func(a, b Entry) int {
		switch {
		case typeRank(a.Type) != typeRank(b.Type):
			return typeRank(a.Type) - typeRank(b.Type)
		case a.Pinned != b.Pinned:
			if a.Pinned {
				return -1
			}
			return 1
		case a.Date != b.Date:
			return strings.Compare(b.Date, a.Date)
		}
		return strings.Compare(a.Path, b.Path)
	})
	return out
}

// byDisplay returns the entries in the region's order: by type, then
// alphabetical by title as shown (its white space collapsed), then by
// path.
func byDisplay(entries []Entry) []Entry {
	type keyed struct {
		e     Entry
		title string
	}
	ks := make([]keyed, len(entries))
	for i, e := range entries {
		ks[i] = keyed{e, strings.ToLower(oneLine(e.Title))}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if ta, tb := typeRank(a.e.Type), typeRank(b.e.Type); ta != tb {
			return ta - tb
		}
		if c := strings.Compare(a.title, b.title); c != 0 {
			return c
		}
		return strings.Compare(a.e.Path, b.e.Path)
	})
	out := make([]Entry, len(ks))
	for i, k := range ks {
		out[i] = k.e
	}
	return out
}

// region renders the generated lines: a heading per type with the entries
// of shown (in display order) that are in, by their lines; the reviews;
// (contradictions as given, then at most MaxProposalLines proposals by
// path); and what was left out.
func region(shown []Entry, in map[string]bool, lines map[string]string, reviews []Review, dir, left string) string {
	var b strings.Builder
	for _, t := range typeTitles {
		started := false
		for _, e := range shown {
			if e.Type != t.kind || !in[e.Path] {
				continue
			}
			if !started {
				fmt.Fprintf(&b, "## %s\n\n", t.title)
				started = true
			}
			b.WriteString(lines[e.Path] + "\n")
		}
		if started {
			b.WriteString("\n")
		}
	}
	if slices.ContainsFunc(reviews, func(r Review) bool { return !r.Report }) { // the report alone is nothing to review
		b.WriteString("## Needs review\n\n")
		var proposals, reports, duplicates, lessons []Review
		for _, r := range reviews {
			switch {
			case r.Report:
				reports = append(reports, r)
			case r.Proposed:
				proposals = append(proposals, r)
			case r.Duplicate:
				duplicates = append(duplicates, r)
			case r.Lesson:
				lessons = append(lessons, r)
			default:
				b.WriteString(reviewLine(dir, r) + "\n")
			}
		}
		slices.SortStableFunc(duplicates, func(x, y Review) int { return strings.Compare(y.Found, x.Found) })
		for i, r := range duplicates {
			if i == MaxDuplicateLines {
				fmt.Fprintf(&b, "_%d more possible duplicates not listed: `vaultmem dream --dry-run` lists them all._\n", len(duplicates)-i)
				break
			}
			b.WriteString(reviewLine(dir, r) + "\n")
		}
		for _, r := range lessons {
			b.WriteString(lessonLine(dir, r) + "\n")
		}
		slices.SortStableFunc(proposals, func(x, y Review) int { return strings.Compare(x.A.Path, y.A.Path) })
		for i, r := range proposals {
			if i == MaxProposalLines {
				fmt.Fprintf(&b, "_%d more proposed notes not listed: `vaultmem doctor` lists them all._\n", len(proposals)-i)
				break
			}
			b.WriteString(proposalLine(dir, r) + "\n")
		}
		for _, r := range reports {
			b.WriteString(reportLine(dir, r) + "\n")
		}
		b.WriteString("\n")
	}
	if left != "" {
		b.WriteString(left + "\n\n")
	}
	return b.String()
}

// omitted is the line saying what was left out, "" when nothing was.
func omitted(left []Entry) string {
	if len(left) == 0 {
		return ""
	}
	count := map[Type]int{}
	for _, e := range left {
		count[e.Type]++
	}
	var parts []string
	for _, t := range typeTitles {
		if n := count[t.kind]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", t.kind, n))
		}
	}
	return fmt.Sprintf("_%d more memories not listed (%s): `vaultmem list --type TYPE`._", len(left), strings.Join(parts, ", "))
}

// Line is an entry's line: "- [Title](link) — hook", the link relative to
// dir (MEMORY.md's folder), at most MaxLineChars characters: the hook is
// shortened at a word boundary with "…", and the title too when it alone
// is too long.
func Line(dir string, e Entry) string {
	title, link := oneLine(e.Title), linkTo(dir, e.Path)
	n := MaxLineChars / 2
	if over := len("- []()") + n + utf8.RuneCountInString(link) - MaxLineChars; over > 0 {
		n = max(n-over, 10) // a long path leaves the title less room
	}
	head := "- [" + escapeTitle(clip(title, n)) + "](" + link + ")"
	hook := oneLine(e.Hook)
	if hook == "" {
		return head
	}
	room := MaxLineChars - utf8.RuneCountInString(head) - len(" — ")
	if room < 8 {
		return head
	}
	return head + " — " + clip(hook, room)
}

// reviewLine is a review's line, both memories linked.
func reviewLine(dir string, r Review) string {
	a := "[" + escapeTitle(clip(oneLine(r.A.Title), 40)) + "](" + linkTo(dir, r.A.Path) + ")"
	b := "[" + escapeTitle(clip(oneLine(r.B.Title), 40)) + "](" + linkTo(dir, r.B.Path) + ")"
	kind := Contradiction
	if r.Duplicate {
		kind = Duplicate
	}
	line := "- " + a + " and " + b + " " + kind.Phrase()
	if reason := oneLine(r.Reason); reason != "" {
		if room := MaxLineChars - utf8.RuneCountInString(line) - 2; room >= 8 {
			line += ": " + clip(reason, room)
		}
	}
	return line
}

// proposedBy and acceptHint make a proposal's line: "- [Title](link)
// proposed by Dream from [[session]]: accept by removing status: proposed".
const (
	proposedBy = " proposed by Dream"
	acceptHint = ": accept by removing status: proposed"
)

// proposalLine is a proposal's line: the note linked as the other lines
// link it, the session it came from as a wikilink.
func proposalLine(dir string, r Review) string {
	line := "- [" + escapeTitle(clip(oneLine(r.A.Title), 40)) + "](" + linkTo(dir, r.A.Path) + ")" + proposedBy
	if src := oneLine(r.Source); src != "" && !strings.ContainsAny(src, "[]|") {
		line += " from [[" + src + "]]"
	}
	return line + acceptHint
}

// lessonLine is a failing lesson's line: "- [Title](link) keeps failing:
// record", at most MaxLineChars characters.
func lessonLine(dir string, r Review) string {
	line := "- [" + escapeTitle(clip(oneLine(r.A.Title), 40)) + "](" + linkTo(dir, r.A.Path) + ") keeps failing"
	if reason := oneLine(r.Reason); reason != "" {
		if room := MaxLineChars - utf8.RuneCountInString(line) - 2; room >= 8 {
			line += ": " + clip(reason, room)
		}
	}
	return line
}

// reportWhat ends the line linking Dream's report.
const reportWhat = ": what each Dream run merged, archived, flagged and proposed, and why"

// reportLine is the line linking Dream's report.
func reportLine(dir string, r Review) string {
	return "- [" + escapeTitle(oneLine(r.A.Title)) + "](" + linkTo(dir, r.A.Path) + ")" + reportWhat
}

// linkTo is the markdown link destination of vault path p from folder
// dir, with the characters that would end or break it escaped.
func linkTo(dir, p string) string {
	rel := p
	if dir != "." && dir != "" {
		if r, ok := strings.CutPrefix(p, dir+"/"); ok {
			rel = r
		} else {
			rel = strings.Repeat("../", strings.Count(dir, "/")+1) + p
		}
	}
	var b strings.Builder
	for _, r := range rel {
		switch r {
		case ' ', '(', ')', '<', '>', '[', ']', '#', '?', '%':
			fmt.Fprintf(&b, "%%%02X", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// regionPaths returns the vault paths of the memories the region of
// content (MEMORY.md at vault path file) links to, in order.
func regionPaths(file string, content []byte) []string {
	b, e := bytes.Index(content, []byte(Begin)), bytes.Index(content, []byte(End))
	if b < 0 || e < b {
		return nil
	}
	var out []string
	for _, line := range strings.Split(string(content[b:e]), "\n") {
		if rest, ok := strings.CutPrefix(line, "- "); ok {
			if _, p, _, ok := parseLink(path.Dir(file), rest); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// escapeTitle keeps a title from ending its link text.
func escapeTitle(s string) string { return titleEscaper.Replace(s) }

var titleEscaper = strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`)

// oneLine joins a text's lines and collapses its white space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip shortens s to at most n characters, at a word boundary when there
// is one, ending with "…" when it cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	cut := string(r)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:.-—") + "…"
}
