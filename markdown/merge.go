package markdown

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// TextMerger merges two versions of a text from their common base, line
// by line, as git merge-file does; clean is false when they changed the
// same lines (merged then holds conflict markers).
type TextMerger func(base, ours, theirs []byte) (merged []byte, clean bool, err error)

// MergeRules say how MergeNote combines what two machines changed
// independently in the notes of a kind (a task's log, a lesson's
// strength): the kinds define them (see package task and lesson), the
// merge driver unites them.
type MergeRules struct {
	// AppendOnly are the headings of the sections merged as logs of
	// entries.
	AppendOnly []string
	// Counts are frontmatter keys holding a whole count: both sides'
	// changes add up, kept within 0 and the largest int64.
	Counts []string
	// Shares are keys holding a number in 0..1: both sides' changes add
	// up, kept within 0 and 1.
	Shares []string
	// Later are keys holding a day or a time where the later value wins
	// when both changed it; Earlier where the earlier does.
	Later, Earlier []string
	// Settle are a kind's rules for keys that must be decided together
	// when both sides changed them (a task's claim: who holds it, since
	// when). Each is called with the three versions before the
	// frontmatter is merged, for every note (it returns the zero
	// Settlement for a note not of its kind); the keys it settles take
	// its values instead of clashing, and its entries are appended to
	// their append-only section.
	Settle []func(base, ours, theirs *Note) Settlement
	// Finish are a kind's steps after a clean merge: values that are a
	// function of the merged note (a lesson's strength, computed from
	// its history) are computed again rather than merged. Each returns
	// content unchanged for a note not of its kind.
	Finish []func(p string, merged []byte) ([]byte, error)
}

// Settlement is what a Settle rule decided for one note.
type Settlement struct {
	// Keys are the frontmatter keys settled and their values (nil
	// removes the key), in order.
	Keys []KeyValue
	// Section is the heading of the append-only section Entries go to.
	Section string
	// Entries are lines to append to Section (a log entry recording
	// what was settled and for whom).
	Entries []string
}

// KeyValue is one frontmatter key and its value.
type KeyValue struct {
	Key   string
	Value any
}

// Union returns the rules of r and o together.
func (r MergeRules) Union(o MergeRules) MergeRules {
	return MergeRules{AppendOnly: slices.Concat(r.AppendOnly, o.AppendOnly), Counts: slices.Concat(r.Counts, o.Counts),
		Shares: slices.Concat(r.Shares, o.Shares), Later: slices.Concat(r.Later, o.Later), Earlier: slices.Concat(r.Earlier, o.Earlier),
		Settle: slices.Concat(r.Settle, o.Settle), Finish: slices.Concat(r.Finish, o.Finish)}
}

// Conflict markers, as git writes them: MergeNote writes them around what
// it cannot merge, so that a human sees both versions where they clash.
const (
	markOurs   = "<<<<<<< ours\n"
	markSep    = "=======\n"
	markTheirs = ">>>>>>> theirs\n"
)

// MergeNote merges two versions of a note (ours, theirs) from their common
// base: what git's merge driver for notes does. base is empty when both
// sides added the note (git's add/add).
//
// The lines of the append-only sections (rules.AppendOnly) are
// merged as lists of entries (an entry is a "- " line and the lines under
// it, up to the next entry; blank lines between entries are not part of
// them): every entry either side added is kept (twice when both appended
// the same line: two events), in time order when every entry starts with
// a time; one either side removed is dropped; one changed on one side
// takes that change, also when the other side removed it; one both sides
// changed alike is kept once; one both sides changed differently is a
// conflict. The
// rest of the body is merged by text; with an empty base, by blocks
// (paragraphs, lists, code blocks, headings): ours, with each block of
// theirs that ours lacks put before the block that follows it in theirs,
// so that both texts are kept. The frontmatter is merged key by key: a key
// one side changed takes that side's value, and when both changed it,
// counts and shares add up both changes, days take the later one or the
// earlier one (see MergeRules).
//
// Lines end as most of ours' lines do (CRLF or LF), every line alike. When
// ours and theirs are equal, or one of them is base, the other is the
// result byte for byte.
//
// clean is false when something could not be merged: merged then holds
// ours with conflict markers as git writes them (<<<<<<< ours, =======,
// >>>>>>> theirs) around both versions of each clash: of a frontmatter
// key's lines (inside the frontmatter, which then no longer parses, so
// that nothing reads one side as the merge), of the entries of an
// append-only section, and the text merger's in the rest of the body.
func MergeNote(p string, base, ours, theirs []byte, text TextMerger, rules MergeRules) (merged []byte, clean bool, err error) {
	switch {
	case bytes.Equal(ours, theirs), bytes.Equal(base, theirs):
		return ours, true, nil
	case bytes.Equal(base, ours):
		return theirs, true, nil
	}
	crlf := endsCRLF(ours, theirs)
	base, ours, theirs = toLF(base), toLF(ours), toLF(theirs)
	merged, clean, err = mergeLF(p, base, ours, theirs, text, rules)
	if err != nil || !crlf {
		return merged, clean, err
	}
	return bytes.ReplaceAll(merged, []byte("\n"), []byte("\r\n")), clean, nil
}

// endsCRLF reports whether most of ours' line breaks are CRLF (theirs'
// when ours has none).
func endsCRLF(ours, theirs []byte) bool {
	for _, b := range [][]byte{ours, theirs} {
		if n, crlf := bytes.Count(b, []byte("\n")), bytes.Count(b, []byte("\r\n")); n > 0 {
			return 2*crlf > n
		}
	}
	return false
}

// toLF is b with its CRLF line breaks made LF.
func toLF(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }

// mergeLF is MergeNote on versions whose lines end in LF.
func mergeLF(p string, base, ours, theirs []byte, text TextMerger, rules MergeRules) (merged []byte, clean bool, err error) {
	b, o, t := Parse(p, base), Parse(p, ours), Parse(p, theirs)
	if o.Frontmatter == nil && len(o.Warnings) > 0 || t.Frontmatter == nil && len(t.Warnings) > 0 {
		return text(base, ours, theirs) // a side whose frontmatter does not parse: lines alone
	}
	const mark = sectionMark + "%d%%\n"
	bb, bSec := cutSections(b, rules.AppendOnly)
	ob, oSec := cutSections(o, rules.AppendOnly)
	tb, tSec := cutSections(t, rules.AppendOnly)
	var body []byte
	if len(base) == 0 {
		body, clean = unionBlocks(ob, tb), true
	} else if body, clean, err = text(bb, ob, tb); err != nil {
		return nil, false, err
	}
	for i := range rules.AppendOnly {
		m := []byte(strings.Replace(mark, "%d", strconv.Itoa(i), 1))
		sec, ok := mergeEntries(bSec[i], oSec[i], tSec[i])
		clean = clean && ok
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
	settled := map[string]KeyValue{}
	for _, settle := range rules.Settle {
		st := settle(b, o, t)
		for _, kv := range st.Keys {
			settled[kv.Key] = kv
			if !slices.Contains(keys, kv.Key) {
				keys = append(keys, kv.Key)
			}
		}
		for _, e := range st.Entries {
			out = AppendToSection(out, st.Section, e)
		}
	}
	var clash []string
	for _, k := range keys {
		bv, ov, tv := b.Frontmatter.Value(k), o.Frontmatter.Value(k), t.Frontmatter.Value(k)
		bt, ot, tt := nodeText(bv), nodeText(ov), nodeText(tv)
		var set any
		switch {
		case settled[k].Key != "":
			if settled[k].Value == nil {
				if out, err = DeleteFrontmatter(p, out, k); err != nil {
					return nil, false, err
				}
				continue
			}
			set = settled[k].Value
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
		case slices.Contains(rules.Counts, k) && isInteger(bv, ov, tv):
			set = addCounts(bv, ov, tv)
		case slices.Contains(rules.Shares, k) && isNumber(bv, ov, tv):
			sum := number(ov) + number(tv) - number(bv)
			if math.IsNaN(sum) {
				clash = append(clash, k)
				continue
			}
			set = math.Round(math.Min(1, math.Max(0, sum))*1e4) / 1e4
		case ot == tt && !slices.Contains(rules.Counts, k) && !slices.Contains(rules.Shares, k):
			continue // both changed it alike
		case slices.Contains(rules.Later, k) && ov != nil && tv != nil:
			if tv.Value <= ov.Value {
				continue
			}
			set = tv
		case slices.Contains(rules.Earlier, k) && ov != nil && tv != nil:
			if tv.Value >= ov.Value {
				continue
			}
			set = tv
		default:
			clash = append(clash, k) // both changed it: for a human to decide
			continue
		}
		if out, err = SetFrontmatter(p, out, k, set); err != nil {
			return nil, false, err
		}
	}
	if len(clash) > 0 {
		out, err = markKeys(p, out, t, clash)
		return out, false, err
	}
	if !clean {
		return out, false, nil
	}
	for _, finish := range rules.Finish {
		if out, err = finish(p, out); err != nil {
			return nil, false, err
		}
	}
	return out, true, nil
}

// markKeys returns content (ours, merged) with the lines of each key in
// keys between conflict markers, followed by the key's lines in theirs
// (a key one side lacks has no lines on that side; one ours lacks goes at
// the end of the frontmatter).
func markKeys(p string, content []byte, theirs *Note, keys []string) ([]byte, error) {
	n := Parse(p, content)
	if n.Frontmatter == nil {
		if _, fenced := findFence(content); fenced {
			return nil, fmt.Errorf("mark the conflicting keys %s in %s: its frontmatter does not parse", strings.Join(keys, ", "), p)
		}
		// Ours has no frontmatter: the markers go in one of their own.
		start := len(content) - len(bytes.TrimPrefix(content, bom))
		content = slices.Concat(content[:start], []byte("---\n---\n"), content[start:])
		n = Parse(p, content)
	}
	type edit struct {
		start, end int
		with       string
	}
	var edits []edit
	for _, k := range keys {
		e := edit{start: n.Frontmatter.End, end: n.Frontmatter.End}
		if start, end, ok := keyLines(n.Content, n.Frontmatter, k); ok {
			e.start, e.end = start, end
		}
		var their []byte
		if start, end, ok := keyLines(theirs.Content, theirs.Frontmatter, k); ok {
			their = theirs.Content[start:end]
		}
		e.with = markOurs + endLine(string(content[e.start:e.end])) + markSep + endLine(string(their)) + markTheirs
		edits = append(edits, e)
	}
	slices.SortStableFunc(edits, func(a, b edit) int { return b.start - a.start })
	out := slices.Clone(content)
	for _, e := range edits {
		out = slices.Concat(out[:e.start], []byte(e.with), out[e.end:])
	}
	return out, nil
}

// endLine is s with a final newline, unless s is empty.
func endLine(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// keyLines returns where the first entry of the top-level key lies in
// content: from its key's line through the last line of its value, not
// counting blank and comment lines after it.
func keyLines(content []byte, fm *Frontmatter, key string) (start, end int, ok bool) {
	if fm == nil || fm.Node == nil {
		return 0, 0, false
	}
	raw := content[fm.Start:fm.End]
	starts := lineStarts(raw)
	nlines := len(starts) - 1
	m := fm.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != key {
			continue
		}
		first, next := m.Content[i].Line, nlines+1
		if i+2 < len(m.Content) {
			next = m.Content[i+2].Line
		}
		if first < 1 || next <= first || next > nlines+1 {
			return 0, 0, false
		}
		last := next - 1
		floor := max(first, quotedEnd(raw, starts, m.Content[i+1], 0))
		for last > floor && layoutLine(raw[starts[last-1]:starts[last]], max(m.Column-1, 0)) {
			last--
		}
		return fm.Start + starts[first-1], fm.Start + starts[last], true
	}
	return 0, 0, false
}

// unionBlocks merges two bodies added independently (no common base):
// ours, with each run of theirs' blocks that ours lacks inserted before
// the block of ours that follows the run in theirs (at the end when none
// does). Ours' bytes are all kept.
func unionBlocks(ours, theirs []byte) []byte {
	ob, tb := blocks(ours), blocks(theirs)
	at := map[string][]int{} // ours' blocks by text: their indexes
	for i, b := range ob {
		at[b.text] = append(at[b.text], i)
	}
	type insert struct {
		pos  int
		text string
	}
	var inserts []insert
	var run []string
	anchor := -1 // the last of ours' blocks matched, in order
	for _, b := range tb {
		next := -1
		for _, i := range at[b.text] {
			if i > anchor {
				next = i
				break
			}
		}
		switch {
		case next >= 0:
			if len(run) > 0 {
				inserts = append(inserts, insert{ob[next].start, strings.Join(run, "\n\n") + "\n\n"})
				run = nil
			}
			anchor = next
		case len(at[b.text]) == 0:
			run = append(run, b.text)
		}
	}
	out := slices.Clone(ours)
	if len(run) > 0 {
		tail := strings.Join(run, "\n\n") + "\n"
		switch {
		case len(bytes.TrimSpace(out)) == 0:
		case bytes.HasSuffix(out, []byte("\n")):
			tail = "\n" + tail
		default:
			tail = "\n\n" + tail
		}
		out = append(out, tail...)
	}
	for i := len(inserts) - 1; i >= 0; i-- {
		out = slices.Concat(out[:inserts[i].pos], []byte(inserts[i].text), out[inserts[i].pos:])
	}
	return out
}

// block is one block of a text: its lines from start, without the final
// newline, as text.
type block struct {
	start int
	text  string
}

// blocks splits s into its blocks: runs of lines between blank lines, a
// fenced code block (``` or ~~~) whole, blank lines and all.
func blocks(s []byte) []block {
	var out []block
	fence := ""
	cur := -1
	for pos := 0; pos < len(s); {
		line, next := lineAt(s, pos)
		trimmed := strings.TrimLeft(string(line), " ")
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) && strings.TrimSpace(strings.TrimLeft(trimmed, fence[:1])) == "" {
				fence = ""
			}
		case len(bytes.TrimSpace(line)) == 0:
			if cur >= 0 {
				out = append(out, block{cur, strings.TrimRight(string(s[cur:pos]), "\n")})
				cur = -1
			}
			pos = next
			continue
		case len(string(line))-len(trimmed) < 4 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			fence = trimmed[:3]
			for _, c := range trimmed[3:] {
				if c != rune(fence[0]) {
					break
				}
				fence += fence[:1]
			}
		}
		if cur < 0 {
			cur = pos
		}
		pos = next
	}
	if cur >= 0 {
		out = append(out, block{cur, strings.TrimRight(string(s[cur:]), "\n")})
	}
	return out
}

// sectionMark starts the line that stands for an append-only section while
// the rest of the body is merged by text (a line of text, so that line
// mergers take the body for text; an Obsidian comment no note holds).
const sectionMark = "%%vaultmem-merge-section-"

// cutSections returns n's body with the content of each append-only
// section (by heading) replaced by a marker line, and those contents (""
// when n has no such section).
func cutSections(n *Note, headings []string) ([]byte, []string) {
	secs := make([]string, len(headings))
	type cut struct {
		start, end, i int
	}
	var cuts []cut
	for i, h := range headings {
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
var entryTime = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^- (\d{4}-\d{2}-\d{2}( \d{2}:\d{2})?)`) })

// maxEntryCells bounds the table that matches two versions' entries
// (besides their common start and end): past it the differing entries are
// taken as replaced whole, which at worst makes a conflict of a merge.
const maxEntryCells = 1 << 22

// mergeEntries merges an append-only section's three versions as lists of
// entries, a three-way merge of entries as git merges lines, except that
// two sides' changes next to each other never clash: at each place where
// the sides differ from base, the side that changed base's entries there
// wins; when both did, entries both only added are all kept (ours', then
// theirs'; so two outcomes written alike in the same minute both stay),
// changes made alike count once, and otherwise see mergeChunk: an entry
// both sides changed differently is a conflict, both sides' entries there
// between conflict markers, and ok false. The entries are then put in
// time order when every one starts with a time, joined as ours separates
// them (with a blank line or not).
func mergeEntries(base, ours, theirs string) (string, bool) {
	be, _, _, bsep := entries(base)
	oe, head, tail, sep := entries(ours)
	te, thead, ttail, tsep := entries(theirs)
	if len(oe) == 0 && strings.TrimSpace(ours) == "" {
		head, tail = thead, ttail
	}
	switch {
	case len(oe) > 1:
	case len(te) > 1:
		sep = tsep
	default:
		sep = bsep
	}
	type item struct {
		text, time string
	}
	var items []item
	ok := true
	add := func(es ...string) {
		for _, e := range es {
			items = append(items, item{e, entryTime().FindString(e)})
		}
	}
	mo, mt := matchEntries(be, oe), matchEntries(be, te)
	i, o, t := 0, 0, 0
	for i < len(be) || o < len(oe) || t < len(te) {
		if i < len(be) && mo[i] == o && mt[i] == t {
			add(be[i]) // the same on every side
			i, o, t = i+1, o+1, t+1
			continue
		}
		j := i // the next entry every side kept
		for j < len(be) && (mo[j] < 0 || mt[j] < 0) {
			j++
		}
		oj, tj := len(oe), len(te)
		if j < len(be) {
			oj, tj = mo[j], mt[j]
		}
		b, os, ts := be[i:j], oe[o:oj], te[t:tj]
		switch {
		case len(b) == 0:
			add(os...)
			add(ts...)
		case slices.Equal(os, b) || slices.Equal(os, ts):
			add(ts...)
		case slices.Equal(ts, b):
			add(os...)
		default:
			resolved, fine := mergeChunk(b, os, ts, mo[i:j], mt[i:j], o, t)
			if fine {
				add(resolved...)
				break
			}
			ok = false
			block := markOurs + strings.Join(os, sep) + markSep + strings.Join(ts, sep) + markTheirs
			at := ""
			for _, e := range slices.Concat(os, ts) {
				if at = entryTime().FindString(e); at != "" {
					break
				}
			}
			items = append(items, item{block, at})
		}
		i, o, t = j, oj, tj
	}
	timed := true
	for _, it := range items {
		timed = timed && it.time != ""
	}
	if timed {
		slices.SortStableFunc(items, func(a, b item) int { return strings.Compare(a.time, b.time) })
	}
	texts := make([]string, len(items))
	for k, it := range items {
		texts[k] = it.text
	}
	return head + strings.Join(texts, sep) + tail, ok
}

// mergeChunk merges a place where both sides changed base's entries b
// into os and ts (mo and mt: the index in ours and theirs of each of b's
// entries that side kept, or -1; o and t: where os and ts start in their
// side). The merge is ours' entries there less those theirs removed, then
// what theirs added that ours did not add alike. It is a conflict (fine
// false) when both sides removed an entry and both added, in its place,
// entries of their own that may be changes of it: with its time, or where
// either has none.
func mergeChunk(b, os, ts []string, mo, mt []int, o, t int) (merged []string, fine bool) {
	oursBase, theirsBase := map[int]bool{}, map[int]bool{} // their indexes of base's entries they kept
	dropped := map[int]bool{}                              // ours' indexes of base's entries theirs removed
	var gone []string                                      // the times of base's entries both removed
	for k := range b {
		switch {
		case mo[k] >= 0 && mt[k] < 0:
			dropped[mo[k]] = true
		case mo[k] < 0 && mt[k] < 0:
			gone = append(gone, entryTime().FindString(b[k]))
		}
		if mo[k] >= 0 {
			oursBase[mo[k]] = true
		}
		if mt[k] >= 0 {
			theirsBase[mt[k]] = true
		}
	}
	count := map[string]int{} // ours' additions
	for k, e := range os {
		if !oursBase[o+k] {
			count[e]++
		}
	}
	var oursOwn, theirsOwn []string
	for k, e := range ts {
		switch {
		case theirsBase[t+k]:
		case count[e] > 0:
			count[e]-- // added alike on both sides
		default:
			theirsOwn = append(theirsOwn, e)
		}
	}
	for k, e := range os {
		if !oursBase[o+k] && count[e] > 0 {
			count[e]--
			oursOwn = append(oursOwn, e)
		}
	}
	if mayChange(oursOwn, gone) && mayChange(theirsOwn, gone) {
		return nil, false
	}
	for k, e := range os {
		if !dropped[o+k] {
			merged = append(merged, e)
		}
	}
	return append(merged, theirsOwn...), true
}

// mayChange reports whether one of added may be a changed version of an
// entry removed at times gone: it has one of those times, or it or the
// removed entry has no time.
func mayChange(added, gone []string) bool {
	for _, a := range added {
		at := entryTime().FindString(a)
		for _, g := range gone {
			if at == "" || g == "" || at == g {
				return true
			}
		}
	}
	return false
}

// matchEntries matches base's entries with a side's: for each of base's,
// the index of the same entry in side, or -1, keeping the most entries in
// order (a longest common subsequence).
func matchEntries(base, side []string) []int {
	m := make([]int, len(base))
	for i := range m {
		m[i] = -1
	}
	pre := 0
	for pre < len(base) && pre < len(side) && base[pre] == side[pre] {
		m[pre] = pre
		pre++
	}
	suf := 0
	for suf < len(base)-pre && suf < len(side)-pre && base[len(base)-1-suf] == side[len(side)-1-suf] {
		m[len(base)-1-suf] = len(side) - 1 - suf
		suf++
	}
	b, s := base[pre:len(base)-suf], side[pre:len(side)-suf]
	if len(b) == 0 || len(s) == 0 || len(b)*len(s) > maxEntryCells {
		return m
	}
	// lcs[i][j] is the length of the longest common subsequence of b[i:]
	// and s[j:].
	w := len(s) + 1
	lcs := make([]int32, (len(b)+1)*w)
	for i := len(b) - 1; i >= 0; i-- {
		for j := len(s) - 1; j >= 0; j-- {
			if b[i] == s[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	for i, j := 0, 0; i < len(b) && j < len(s); {
		switch {
		case b[i] == s[j]:
			m[pre+i] = pre + j
			i, j = i+1, j+1
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return m
}

// entries splits a section's content into its entries: each a "- " line
// and the lines after it up to the next one, without the blank lines that
// end it; head is what comes before the first (blank lines), tail the
// blank lines after the last, sep the blank lines between the first two
// ("" in a list without them).
func entries(s string) (list []string, head, tail, sep string) {
	lines := strings.SplitAfter(s, "\n")
	i := 0
	for i < len(lines) && !strings.HasPrefix(lines[i], "- ") {
		head += lines[i]
		i++
	}
	seps := 0
	for i < len(lines) && lines[i] != "" {
		e := lines[i]
		i++
		for i < len(lines) && lines[i] != "" && !strings.HasPrefix(lines[i], "- ") {
			e += lines[i]
			i++
		}
		if !strings.HasSuffix(e, "\n") {
			e += "\n"
		}
		body := strings.TrimRight(e, " \t\n") + "\n"
		gap := e[len(strings.TrimRight(e, " \t\n")):]
		gap = gap[min(1, len(gap)):] // the entry's own line break
		if i < len(lines) && lines[i] != "" && seps == 0 {
			sep, seps = gap, 1
		}
		tail = gap
		list = append(list, body)
	}
	return list, head, tail, sep
}

// isInteger reports whether every node is an integer (an absent one
// counts as 0).
func isInteger(ns ...*yaml.Node) bool {
	for _, n := range ns {
		if n != nil && (n.Kind != yaml.ScalarNode || integer(n) == nil) {
			return false
		}
	}
	return true
}

// integer is n's value as an integer of any size, nil when it is not one
// (0 when n is nil).
func integer(n *yaml.Node) *big.Int {
	if n == nil {
		return new(big.Int)
	}
	v, ok := new(big.Int).SetString(strings.ReplaceAll(n.Value, "_", ""), 0)
	if !ok {
		return nil
	}
	return v
}

// addCounts is ours + theirs - base, kept within 0 and the largest int64:
// a count saturates rather than wraps.
func addCounts(base, ours, theirs *yaml.Node) int64 {
	sum := new(big.Int).Sub(new(big.Int).Add(integer(ours), integer(theirs)), integer(base))
	switch {
	case sum.Sign() < 0:
		return 0
	case !sum.IsInt64():
		return math.MaxInt64
	}
	return sum.Int64()
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

// IsConflictMarker reports whether line (with or without its line break)
// is one of the lines git writes around a conflict: "<<<<<<< ours",
// "=======", "||||||| base" or ">>>>>>> theirs". A file of lines merged by
// git's union rule that was merged without it holds both sides' lines
// between such markers: a reader that skips them reads the union.
func IsConflictMarker(line string) bool {
	line = strings.TrimRight(line, "\r\n")
	if len(line) < 7 {
		return false
	}
	switch line[:7] {
	case "=======":
		return len(line) == 7
	case "<<<<<<<", ">>>>>>>", "|||||||":
		return len(line) == 7 || line[7] == ' '
	}
	return false
}
