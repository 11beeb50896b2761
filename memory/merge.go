package memory

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/vaultmem/vaultmem/markdown"
)

// Two machines that each remember a memory each rewrite MEMORY.md's
// region, and git, merging lines, sees both change the same place. The
// region is not prose but a list keyed by the memories' paths, so it can
// be merged as one: MergeList is the merge git calls (through the
// merge-memory-index command) for MEMORY.md.

// ErrMergeConflict is matched by the error of MergeList when both sides
// changed the same text outside the region, which only a human can merge.
var ErrMergeConflict = errors.New("memory: conflict outside the vaultmem region, to resolve by hand")

// MergeList merges two versions of MEMORY.md, ours and theirs, made from
// a common base (empty when the file was added on both sides); file is
// its vault path (repository path), from whose folder its links are
// relative. It returns the merged file.
//
// When ours and theirs are equal, or one of them is the (non-empty) base,
// the other is the result, byte for byte. Otherwise:
//
// Text outside the region, the part before it and the part after it each
// on its own, is taken from the side that changed it; when both sides
// changed it, it is merged line by line by text (git's line merge; nil
// takes each side's text whole), and what the two sides changed
// differently (or, with an empty base, wrote differently) is left
// between git's conflict markers (<<<<<<< ours, =======, >>>>>>> theirs)
// for a person, exactly as the note driver leaves a note: the merge is
// returned with an error matching ErrMergeConflict, the region merged as
// always. No side's line is dropped.
//
// The region is merged as a set of lines keyed by the memory's path (a
// "Needs review" line by its pair of paths): a line is kept when ours or
// theirs lists it, unless the other side deleted it since base (a line
// one side deleted and the other changed is deleted too); a line changed
// on one side only is that side's; a line both sides changed differently,
// or added differently, is theirs' (so the result does not depend on
// anything but the three versions). A review of a memory the merge
// deleted is dropped. The merged lines are then written as Render writes
// them, so the region has exactly the bytes vaultmem would write for
// those memories; any other line in the region, and a second line of the
// same key, is dropped. A side's line saying how many memories were left
// out is dropped as well: the memories it counts are not in the file, so
// it cannot be merged, and the next write of vaultmem lists the memories
// again from the notes. (When the merged memories do not all fit, they
// are left out by type and path: their dates and pins are not in the
// file either.)
//
// It returns a *markdown.ParseError when a version's markers are broken,
// its Path naming the version ("MEMORY.md (theirs)").
func MergeList(file string, base, ours, theirs []byte, text markdown.TextMerger) ([]byte, error) {
	var vs [3]*version
	for i, c := range []struct {
		name    string
		content []byte
	}{{"base", base}, {"ours", ours}, {"theirs", theirs}} {
		v, err := parseVersion(file, c.name, c.content)
		if err != nil {
			return nil, err
		}
		vs[i] = v
	}
	b, o, t := vs[0], vs[1], vs[2]
	switch {
	case bytes.Equal(ours, theirs):
		return ours, nil
	case len(base) > 0 && bytes.Equal(base, ours):
		return theirs, nil
	case len(base) > 0 && bytes.Equal(base, theirs):
		return ours, nil
	}
	before, beforeErr := mergeText(file, "before", b.before, o.before, t.before, len(base) == 0, text)
	after, afterErr := mergeText(file, "after", b.after, o.after, t.after, len(base) == 0, text)
	conflict := errors.Join(beforeErr, afterErr)
	if conflict != nil && !errors.Is(conflict, ErrMergeConflict) {
		return nil, conflict
	}
	entries, gone := mergeKeyed(b.entries, o.entries, t.entries, func(x, y Entry) bool { return x == y })
	deleted := make(map[string]bool, len(gone))
	for _, p := range gone {
		deleted[p] = true
	}
	reviews, _ := mergeKeyed(b.reviews, o.reviews, t.reviews, sameReview)
	reviews = slices.DeleteFunc(reviews, func(r Review) bool { return deleted[r.A.Path] || deleted[r.B.Path] })
	content := slices.Concat(before, []byte(Begin+End), after)
	out, _, err := Render(file, content, entries, reviews)
	if err != nil {
		return nil, err
	}
	return out, conflict
}

// version is one version of MEMORY.md taken apart.
type version struct {
	before, after []byte
	entries       keyed[Entry]
	reviews       keyed[Review]
}

// keyed is a region's lines of one kind: parsed, by key, in file order.
type keyed[T any] struct {
	keys []string
	by   map[string]T
}

// add keeps the first line of a key.
func (k *keyed[T]) add(key string, v T) {
	if k.by == nil {
		k.by = map[string]T{}
	}
	if _, dup := k.by[key]; !dup {
		k.keys = append(k.keys, key)
		k.by[key] = v
	}
}

// parseVersion splits content into the text around its region and the
// region's entries and reviews.
func parseVersion(file, name string, content []byte) (*version, error) {
	if content == nil {
		content = []byte{} // an empty file, not a missing one
	}
	before, after, err := splitRegion(file+" ("+name+")", content)
	if err != nil {
		return nil, err
	}
	v := &version{before: before, after: after}
	if begins, _ := markerLines(content); len(begins) == 0 {
		return v, nil // no region: markers shown in code are a human's text
	}
	region := string(content[len(before)+len(Begin) : len(content)-len(after)-len(End)])
	dir := path.Dir(file)
	var kind Type
	inReviews := false
	for _, line := range strings.Split(region, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if title, ok := strings.CutPrefix(line, "## "); ok {
			kind, inReviews = "", title == "Needs review"
			for _, t := range typeTitles {
				if t.title == title {
					kind = t.kind
				}
			}
			continue
		}
		switch {
		case inReviews:
			if r, ok := parseReviewLine(dir, line); ok {
				v.reviews.add(r.A.Path+"\x00"+r.B.Path, r)
			} else if r, ok := parseProposalLine(dir, line); ok {
				v.reviews.add("proposed\x00"+r.A.Path, r)
			} else if r, ok := parseReportLine(dir, line); ok {
				v.reviews.add("report", r)
			}
		case kind != "":
			if e, ok := parseLine(dir, line); ok {
				e.Type = kind
				v.entries.add(e.Path, e)
			}
		}
	}
	return v, nil
}

// parseLine reads an entry's line as Line writes it, "- [Title](link) —
// hook", back into the entry (without its type).
func parseLine(dir, line string) (Entry, bool) {
	rest, ok := strings.CutPrefix(line, "- ")
	if !ok {
		return Entry{}, false
	}
	title, p, rest, ok := parseLink(dir, rest)
	if !ok {
		return Entry{}, false
	}
	hook, _ := strings.CutPrefix(rest, " — ")
	// As Line shows them: Render orders by the title it is given.
	return Entry{Path: p, Title: oneLine(title), Hook: oneLine(hook)}, true
}

// parseReviewLine reads a review's line as reviewLine writes it.
func parseReviewLine(dir, line string) (Review, bool) {
	rest, ok := strings.CutPrefix(line, "- ")
	if !ok {
		return Review{}, false
	}
	var r Review
	if r.A.Title, r.A.Path, rest, ok = parseLink(dir, rest); !ok {
		return Review{}, false
	}
	if rest, ok = strings.CutPrefix(rest, " and "); !ok {
		return Review{}, false
	}
	if r.B.Title, r.B.Path, rest, ok = parseLink(dir, rest); !ok {
		return Review{}, false
	}
	if after, dup := strings.CutPrefix(rest, " "+Duplicate.Phrase()); dup {
		rest, r.Duplicate = after, true
	} else if rest, ok = strings.CutPrefix(rest, " "+Contradiction.Phrase()); !ok {
		return Review{}, false
	}
	r.Reason, _ = strings.CutPrefix(rest, ": ")
	return r, true
}

// parseProposalLine reads a proposal's line as proposalLine writes it.
func parseProposalLine(dir, line string) (Review, bool) {
	rest, ok := strings.CutPrefix(line, "- ")
	if !ok {
		return Review{}, false
	}
	r := Review{Proposed: true}
	if r.A.Title, r.A.Path, rest, ok = parseLink(dir, rest); !ok {
		return Review{}, false
	}
	if rest, ok = strings.CutPrefix(rest, proposedBy); !ok {
		return Review{}, false
	}
	if rest, ok = strings.CutSuffix(rest, acceptHint); !ok {
		return Review{}, false
	}
	if src, ok := strings.CutPrefix(rest, " from [["); ok {
		if r.Source, ok = strings.CutSuffix(src, "]]"); !ok {
			return Review{}, false
		}
	} else if rest != "" {
		return Review{}, false
	}
	return r, true
}

// parseReportLine reads the line linking Dream's report, as reportLine
// writes it.
func parseReportLine(dir, line string) (Review, bool) {
	rest, ok := strings.CutPrefix(line, "- ")
	if !ok {
		return Review{}, false
	}
	r := Review{Report: true}
	if r.A.Title, r.A.Path, rest, ok = parseLink(dir, rest); !ok || rest != reportWhat {
		return Review{}, false
	}
	return r, true
}

// parseLink reads "[title](link)" at the start of s, undoing escapeTitle
// and linkTo: the title, the vault path the link leads to from dir, and
// what follows the link.
func parseLink(dir, s string) (title, p, rest string, ok bool) {
	if !strings.HasPrefix(s, "[") {
		return "", "", "", false
	}
	var t strings.Builder
	i := 1
	for ; i < len(s) && s[i] != ']'; i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		t.WriteByte(s[i])
	}
	if !strings.HasPrefix(s[i:], "](") {
		return "", "", "", false
	}
	s = s[i+2:]
	end := strings.IndexByte(s, ')')
	if end < 0 {
		return "", "", "", false
	}
	dest, err := url.PathUnescape(s[:end])
	if err != nil || dest == "" || strings.ContainsFunc(dest, unicode.IsControl) {
		return "", "", "", false // not a link linkTo writes: a line break would split the line
	}
	return t.String(), path.Join(dir, dest), s[end+1:], true
}

// sameReview reports whether two reviews read the same.
func sameReview(x, y Review) bool {
	return x.A.Title == y.A.Title && x.B.Title == y.B.Title && x.Reason == y.Reason && x.Duplicate == y.Duplicate && x.Proposed == y.Proposed && x.Source == y.Source
}

// mergeKeyed merges the lines of base, ours and theirs by key (see
// MergeList): the merged values, in ours' order and then theirs', and
// the keys that were listed somewhere but are not in the merge.
func mergeKeyed[T any](base, ours, theirs keyed[T], same func(x, y T) bool) (merged []T, gone []string) {
	eq := func(x T, xok bool, y T, yok bool) bool { return xok == yok && (!xok || same(x, y)) }
	seen := map[string]bool{}
	for _, k := range slices.Concat(ours.keys, theirs.keys, base.keys) {
		if seen[k] {
			continue
		}
		seen[k] = true
		b, bok := base.by[k]
		o, ook := ours.by[k]
		t, tok := theirs.by[k]
		v, ok := t, tok // changed on theirs' side only, or on both
		switch {
		case eq(o, ook, t, tok), eq(b, bok, t, tok):
			v, ok = o, ook
		case bok && (!ook || !tok):
			ok = false // deleted on one side, changed on the other
		}
		if ok {
			merged = append(merged, v)
		} else {
			gone = append(gone, k)
		}
	}
	return merged, gone
}

// mergeText merges the text on one side (where) of the region: the side
// that changed it wins; when both changed it, text merges it line by line
// (with no base, the two must be equal). A clash is returned with git's
// conflict markers around both versions, and an error matching
// ErrMergeConflict.
func mergeText(file, where string, base, ours, theirs []byte, noBase bool, text markdown.TextMerger) ([]byte, error) {
	switch {
	case bytes.Equal(ours, theirs):
		return ours, nil
	case !noBase && bytes.Equal(base, ours):
		return theirs, nil
	case !noBase && bytes.Equal(base, theirs):
		return ours, nil
	}
	if text != nil && !noBase {
		merged, clean, err := text(base, ours, theirs)
		switch {
		case err != nil:
			return nil, fmt.Errorf("merge %s: the text %s the region: %w", file, where, err)
		case clean:
			return merged, nil
		}
		return merged, fmt.Errorf("merge %s: both sides changed the same lines %s the region: %w", file, where, ErrMergeConflict)
	}
	marked := slices.Concat([]byte("<<<<<<< ours\n"), endLine(ours), []byte("=======\n"), endLine(theirs), []byte(">>>>>>> theirs\n"))
	if noBase {
		return marked, fmt.Errorf("merge %s: the two sides, each adding it, wrote different text %s the region: %w", file, where, ErrMergeConflict)
	}
	return marked, fmt.Errorf("merge %s: both sides changed the text %s the region: %w", file, where, ErrMergeConflict)
}

// endLine is b ending in a newline (b itself when empty or ending in one).
func endLine(b []byte) []byte {
	if len(b) == 0 || bytes.HasSuffix(b, []byte("\n")) {
		return b
	}
	return append(slices.Clip(b), '\n')
}
