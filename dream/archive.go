package dream

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/dream/relink"
	"github.com/vaultmem/vaultmem/markdown"
)

// Archiving never deletes: an archived memory stays a note, with
// archived: <date> and either merged_into or superseded_by naming the
// memory that replaced it, so that it drops out of MEMORY.md and recall
// (unless archived notes are asked for) and a human can read, and undo,
// what happened.

// supersededBy returns the live memories that m's frontmatter supersedes
// names ("[[Old memory]]", or a list of them).
func (d *Dreamer) supersededBy(ctx context.Context, p *plan, m *mem) []*mem {
	var out []*mem
	for _, v := range m.Note.Frontmatter.Strings("supersedes") {
		path, err := d.ix.Lookup(ctx, linkTarget(v))
		if o := p.by[path]; err == nil && o != nil && o != m && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

// linkTarget is the note a frontmatter link value names: "[[Old|x]]" is
// "Old".
func linkTarget(v string) string {
	target := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(v), "[["), "]]")
	target, _, _ = strings.Cut(target, "|")
	target, _, _ = strings.Cut(target, "#")
	return strings.TrimSpace(target)
}

// supersedes reports whether a's frontmatter supersedes b (and b does not
// supersede a, directly or through others: see supersede).
func supersedes(a, b *mem) bool { return slices.Contains(a.supersedes, b) && !reaches(b, a) }

// reaches reports whether a supersedes b directly or through memories it
// supersedes.
func reaches(a, b *mem) bool {
	seen := map[*mem]bool{}
	var walk func(*mem) bool
	walk = func(m *mem) bool {
		if seen[m] {
			return false
		}
		seen[m] = true
		for _, o := range m.supersedes {
			if o == b || walk(o) {
				return true
			}
		}
		return false
	}
	return walk(a)
}

// supersede plans archiving the memories that a changed memory
// supersedes. Memories that supersede each other (a supersedes b and b
// supersedes a, directly or through others: two machines each wrote the
// newer one) are a question for a human, never an answer: none of them is
// archived, and the pair is flagged for review.
func (d *Dreamer) supersede(ctx context.Context, p *plan, rep *Report) {
	for _, m := range p.mems {
		if m.Note.Frontmatter.Value("supersedes") != nil {
			m.supersedes = d.supersededBy(ctx, p, m)
		}
	}
	for _, m := range p.mems {
		if !m.Changed {
			continue // a human who brings a superseded memory back is obeyed
		}
		for _, o := range m.supersedes {
			if reaches(o, m) {
				p.cycles[pairOf(m.Path, o.Path)] = true
				continue
			}
			if o.archived {
				continue
			}
			next, err := archive(o, p.today, "superseded_by", "[["+d.ix.LinkText(ctx, m.Path)+"]]")
			if err != nil {
				rep.skip(o.Path, 0, "superseded by %s, but not archived: %v", m.Path, err)
				continue
			}
			o.Set(next)
			o.archived = true
			p.superseded = append(p.superseded, &archival{m: o, by: m})
		}
	}
}

// archive returns m's content marked archived today, with key (merged_into
// or superseded_by) naming what replaced it. A note archived already (a
// member of a cycle of merges: see breakCycles) keeps its date, so that
// machines that archive it on different days write the same.
func archive(m *mem, today, key, link string) ([]byte, error) {
	next, err := markdown.SetFrontmatter(m.Path, m.Current(), key, link)
	if err == nil && m.Parsed().Frontmatter.Value("archived") == nil {
		next, err = markdown.SetFrontmatter(m.Path, next, "archived", markdown.FromJSON(today))
	}
	return next, err
}

// notMerged are the frontmatter keys a merge does not carry from the
// memories merged away to the one they go into.
var notMerged = map[string]bool{"name": true, "description": true, "type": true, "created": true, "updated": true,
	"archived": true, "merged_into": true, "superseded_by": true, "supersedes": true}

// listKeys are merged as the union of their values.
var listKeys = map[string]bool{"tags": true, "aliases": true}

// mergeTexts plans mg's notes: the winner gets every top-level block
// (paragraph, list, code block, heading) of the others that it lacks, in
// order, and their frontmatter keys it lacks (tags and aliases united,
// the older created); the others are archived with merged_into naming it.
// A note whose frontmatter cannot be edited is left out of the merge.
func (d *Dreamer) mergeTexts(ctx context.Context, mg *merge, today string, rep *Report) {
	w := mg.winner
	content := w.Current()
	wn := markdown.Parse(w.Path, content)
	mg.before = string(wn.Body())
	seen := map[string]bool{}
	for _, s := range wn.Spans {
		seen[blockKey(s.Text(wn))] = true
	}
	link := "[[" + d.ix.LinkText(ctx, w.Path) + "]]"
	ids := map[string]bool{}
	for _, b := range wn.Blocks {
		ids[b.ID] = true
	}
	var added []string
	var losers []*mem
	for _, l := range mg.losers {
		next, err := archive(l, today, "merged_into", link)
		if err != nil {
			rep.skip(l.Path, 0, "a duplicate of %s, but not merged: %v", w.Path, err)
			l.archived = false
			continue
		}
		ln := markdown.Parse(l.Path, l.Current())
		for _, s := range ln.Spans {
			if k := blockKey(s.Text(ln)); !seen[k] {
				seen[k] = true
				added = append(added, withUniqueBlocks(ln, s, l.Path, ids))
			}
		}
		if merged, err := mergeKeys(w.Path, content, ln); err == nil {
			content = merged
		} else {
			rep.skip(w.Path, 0, "the frontmatter keys of %s were not merged into it: %v", l.Path, err)
		}
		l.Set(next)
		losers = append(losers, l)
	}
	mg.losers = losers
	if len(added) > 0 {
		body := strings.TrimRight(string(markdown.Parse(w.Path, content).Body()), " \t\r\n")
		content = markdown.SetBody(content, strings.TrimLeft(body+"\n\n"+strings.Join(added, "\n\n"), "\n"))
		if crlf(w.Current()) { // the winner's line endings throughout
			content = bytes.ReplaceAll(bytes.ReplaceAll(content, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
		}
	}
	if len(losers) > 0 && !slices.Equal(content, w.Current()) {
		w.Set(content)
	}
}

// withUniqueBlocks returns block s of loser note ln (at vault path from)
// as the winner gets it: its line endings "\n", and each block id the
// winner already has (ids, which it adds the block's to) renamed with
// relink.RenamedBlock, so that no note holds an id twice and a link to the
// loser's block finds it.
func withUniqueBlocks(ln *markdown.Note, s markdown.Span, from string, ids map[string]bool) string {
	text := strings.ReplaceAll(strings.TrimRight(s.Text(ln), " \t\r\n"), "\r\n", "\n")
	for _, b := range ln.Blocks {
		if b.Line < s.Line || b.Line > s.EndLine {
			continue
		}
		id := b.ID
		if ids[id] {
			id = relink.RenamedBlock(b.ID, from)
			text = blockAtLineEnd(b.ID).ReplaceAllString(text, "${1}^"+id+"${2}")
		}
		ids[id] = true
	}
	return text
}

// crlf reports whether most of content's lines end in "\r\n".
func crlf(content []byte) bool {
	return 2*bytes.Count(content, []byte("\r\n")) > bytes.Count(content, []byte("\n"))
}

// blockAtLineEnd matches block id at the end of a line.
func blockAtLineEnd(id string) *regexp.Regexp {
	return regexp.MustCompile(`(\s)\^` + regexp.QuoteMeta(id) + `([ \t]*(?:\n|$))`)
}

// blockKey is a block's text with case and spacing ignored: two blocks
// with the same key say the same.
func blockKey(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// mergeKeys returns content (the winner's, at vault path p) with the
// frontmatter keys of l it lacks.
func mergeKeys(p string, content []byte, l *markdown.Note) ([]byte, error) {
	wn := markdown.Parse(p, content)
	lfm := l.Frontmatter.JSON()
	var err error
	for _, k := range l.Frontmatter.Keys() {
		switch {
		case k == "created":
			lc, _ := l.Frontmatter.String("created")
			wc, ok := wn.Frontmatter.String("created")
			if len(lc) >= 10 && (!ok || len(wc) < 10 || lc[:10] < wc[:10]) {
				content, err = markdown.SetFrontmatter(p, content, k, markdown.FromJSON(lfm[k]))
			}
		case notMerged[k]:
		case listKeys[k]:
			have := wn.Frontmatter.Strings(k)
			all := slices.Clone(have)
			for _, v := range l.Frontmatter.Strings(k) {
				if !slices.ContainsFunc(all, func(x string) bool { return strings.EqualFold(x, v) }) {
					all = append(all, v)
				}
			}
			if len(all) > len(have) {
				content, err = markdown.SetFrontmatter(p, content, k, all)
			}
		case wn.Frontmatter.Value(k) == nil:
			content, err = markdown.SetFrontmatter(p, content, k, markdown.FromJSON(lfm[k]))
		}
		if err != nil {
			return nil, err
		}
	}
	return content, nil
}
