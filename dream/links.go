package dream

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// After a merge, every link to a memory merged away (outside the merged
// notes, MEMORY.md and the dream log) is pointed at the memory it went
// into, with its text kept: [[old]] becomes [[winner|old]], which reads
// the same in Obsidian.

// rewriteLinks points the links to the memories merged away (moved: from
// path to the path of the memory each went into) at those memories, in
// every note but those of skip, each note in one write, and returns the
// new hash of each note written. In a dry run it only reports the notes
// it would change.
func (d *Dreamer) rewriteLinks(ctx context.Context, moved map[string]string, skip map[string]bool, dryRun bool, rep *Report) (map[string]string, error) {
	written := map[string]string{}
	seen := map[string]bool{}
	var sources []string
	for from := range moved {
		srcs, err := d.ix.Backlinks(ctx, from)
		if err != nil {
			return nil, err
		}
		for _, s := range srcs {
			if !skip[s] && !seen[s] {
				seen[s] = true
				sources = append(sources, s)
			}
		}
	}
	slices.Sort(sources)
	targets := map[string]string{}
	for _, to := range moved {
		if _, ok := targets[to]; !ok {
			targets[to] = d.ix.LinkText(ctx, to)
		}
	}
	blocks := d.newBlockRenames()
	for _, src := range sources {
		content, hash, err := d.w.Read(src)
		if err != nil {
			rep.skip(src, 0, "links to merged memories not rewritten: %v", err)
			continue
		}
		n := markdown.Parse(src, content)
		edges, err := d.ix.Edges(ctx, index.EdgeFilter{From: src})
		if err != nil {
			return nil, err
		}
		next, ok := relink(n, edges, moved, targets, blocks.rename)
		if !ok {
			rep.skip(src, 0, "links to merged memories not rewritten: the note changed since it was indexed; the next run does it")
			continue
		}
		if next == nil {
			continue
		}
		if !dryRun {
			h, err := d.w.Write(ctx, src, next, hash)
			if errors.Is(err, vault.ErrConflict) {
				rep.skip(src, 0, "links to merged memories not rewritten: the note changed while Dream ran; the next run does it")
				continue
			}
			if err != nil {
				return nil, err
			}
			written[src] = h
		}
		rep.wrote(src)
		rep.LinksRewritten = append(rep.LinksRewritten, src)
	}
	return written, nil
}

// relink returns n's content with its links to the notes moved points
// from pointed at those it points to (which wikilinks name as targets
// says), nil when it has none; edges are the note's links as the index
// resolved them, in order. It reports false when the note no longer
// matches them (changed since the last sync).
func relink(n *markdown.Note, edges []index.Edge, moved, targets map[string]string, block blockRenamer) ([]byte, bool) {
	if len(edges) != len(n.Links) {
		return nil, false
	}
	var at []int
	for i, e := range edges {
		l := n.Links[i]
		if e.Line != l.Line || e.Label != l.Label || l.End <= l.Start {
			return nil, false
		}
		if _, ok := moved[e.Target]; ok && e.Resolved {
			if !names(n.Path, l, e.Target) {
				return nil, false // the note changed: another link sits there now
			}
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		return nil, true
	}
	out := slices.Clone(n.Content)
	for _, i := range slices.Backward(at) {
		l := n.Links[i]
		from := edges[i].Target
		to := moved[from]
		repl := retarget(n, l, to, targets[to], block(from, to, l.Block))
		out = slices.Concat(out[:l.Start], []byte(repl), out[l.End:])
	}
	return out, true
}

// retarget returns link l of note n pointed at the note at vault path to
// (linkText: what a wikilink to it says), its block id now block, its
// text as it was.
func retarget(n *markdown.Note, l markdown.Link, to, linkText, block string) string {
	written := string(n.Content[l.Start:l.End])
	if l.Markdown {
		repl := markdownLink(written, path.Dir(n.Path), to)
		if block != l.Block {
			if i := strings.LastIndex(repl, "#^"+l.Block); i >= 0 {
				repl = repl[:i] + "#^" + block + repl[i+2+len(l.Block):]
			}
		}
		return repl
	}
	repl := wikilink(written, linkText, inTable(n.Content, l.Start))
	if block != l.Block {
		repl = strings.Replace(repl, "#^"+l.Block, "#^"+block, 1)
	}
	return repl
}

// blockRenamer returns the block id a link to block id of the memory at
// vault path from, merged into the one at to, names there.
type blockRenamer func(from, to, id string) string

// blockRenames knows the block ids of the memories merges went into, as
// they are on disk.
type blockRenames struct {
	d   *Dreamer
	ids map[string]map[string]bool // by winner path
}

func (d *Dreamer) newBlockRenames() *blockRenames {
	return &blockRenames{d: d, ids: map[string]map[string]bool{}}
}

// rename is a blockRenamer: a paragraph merged from another memory whose
// block id the winner already had carries the id renamed (see
// renamedBlock); a link to it names that.
func (b *blockRenames) rename(from, to, id string) string {
	if id == "" {
		return id
	}
	ids, ok := b.ids[to]
	if !ok {
		ids = map[string]bool{}
		if content, _, err := b.d.w.Read(to); err == nil {
			for _, bl := range markdown.Parse(to, content).Blocks {
				ids[bl.ID] = true
			}
		}
		b.ids[to] = ids
	}
	if r := renamedBlock(id, from); ids[r] {
		return r
	}
	return id
}

// names reports whether link l, written in the note at vault path src,
// can name the note at vault path target: by its name or a path ending in
// it (a wikilink), or by a path from src's folder or the vault's root (a
// markdown link); the index resolved it so when it last read the note.
func names(src string, l markdown.Link, target string) bool {
	t := strings.ToLower(strings.TrimSuffix(target, markdown.Ext))
	w := strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(l.Target, "/"), markdown.Ext))
	if l.Markdown {
		rel := strings.ToLower(strings.TrimSuffix(path.Join(path.Dir(src), l.Target), markdown.Ext))
		if w == t || rel == t {
			return true
		}
		// Obsidian resolves a markdown link that names no file from the
		// note's folder by its name, as it does a wikilink: [t](x.md).
	}
	rel := strings.ToLower(path.Join(path.Dir(src), w))
	return w != "" && (w == t || strings.HasSuffix(t, "/"+w) || rel == t)
}

// inTable reports whether byte at of content lies on a table row: a line
// that starts with "|", where a link's "|" must be written "\|".
func inTable(content []byte, at int) bool {
	start := bytes.LastIndexByte(content[:at], '\n') + 1
	return strings.HasPrefix(strings.TrimLeft(string(content[start:at]), " \t>"), "|")
}

// wikilink rewrites [[old#frag|label]] (or ![[...]]) to name target,
// keeping the fragment and the text shown: the label, else what Obsidian
// shows for the link as written ("old", "old > Heading"). In a table the
// pipe is escaped ("\|").
func wikilink(written, target string, table bool) string {
	embed := strings.HasPrefix(written, "!")
	inner := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(written, "!"), "[["), "]]")
	pipe := "|"
	if table || strings.Contains(inner, `\|`) {
		pipe = `\|`
	}
	dest, label, hasLabel := strings.Cut(strings.Replace(inner, `\|`, "|", 1), "|")
	frag := ""
	if i := strings.IndexByte(dest, '#'); i >= 0 {
		frag = dest[i:]
	}
	if !hasLabel {
		label = strings.TrimSpace(strings.ReplaceAll(dest, "#", " > "))
	}
	out := "[[" + target + frag + pipe + label + "]]"
	if embed {
		return "!" + out
	}
	return out
}

// markdownLink rewrites [text](old.md#frag) to the note at vault path to,
// relative to dir (the linking note's folder), keeping text and fragment.
func markdownLink(written, dir, to string) string {
	i := strings.LastIndex(written, "](")
	if i < 0 || !strings.HasSuffix(written, ")") {
		return written
	}
	dest := written[i+2 : len(written)-1]
	frag := ""
	if j := strings.IndexByte(dest, '#'); j >= 0 {
		frag = dest[j:]
	}
	rel := to
	if dir != "." {
		if r, ok := strings.CutPrefix(to, dir+"/"); ok {
			rel = r
		} else {
			rel = strings.Repeat("../", strings.Count(dir, "/")+1) + to
		}
	}
	return written[:i+2] + (&url.URL{Path: rel}).EscapedPath() + frag + ")"
}

// relinkWinners points the links of each winner, as planned, that name a
// memory this run merges away (its own text, or a paragraph it got from
// another memory) at the memory that one goes into. The index has not
// read the winners' planned text, so rewriteLinks cannot: links are
// resolved here by name (wikilinks, and markdown links that name no file
// from the winner's folder) or by path.
func (d *Dreamer) relinkWinners(ctx context.Context, p *plan) {
	moved := map[string]string{}
	for _, mg := range p.merges {
		for _, l := range mg.losers {
			moved[l.Path] = mg.winner.Path
		}
	}
	if len(moved) == 0 {
		return
	}
	targets := map[string]string{}
	ids := map[string]map[string]bool{} // the block ids of each winner, as planned
	for _, mg := range p.merges {
		ids[mg.winner.Path] = map[string]bool{}
		for _, b := range mg.winner.Parsed().Blocks {
			ids[mg.winner.Path][b.ID] = true
		}
	}
	block := func(from, to, id string) string {
		if r := renamedBlock(id, from); ids[to][r] {
			return r
		}
		return id
	}
	for _, mg := range p.merges {
		w := mg.winner
		n := w.Parsed()
		out := slices.Clone(n.Content)
		changed := false
		for _, l := range slices.Backward(n.Links) {
			if l.End <= l.Start || l.Target == "" {
				continue
			}
			from := d.resolveWritten(ctx, n.Path, l)
			to, ok := moved[from]
			if !ok || !names(n.Path, l, from) {
				continue
			}
			if _, ok := targets[to]; !ok {
				targets[to] = d.ix.LinkText(ctx, to)
			}
			repl := retarget(n, l, to, targets[to], block(from, to, l.Block))
			out = slices.Concat(out[:l.Start], []byte(repl), out[l.End:])
			changed = true
		}
		if changed {
			w.Set(out)
		}
	}
}

// resolveWritten is the vault path the link l of the note at vault path
// src names, as far as the index knows the notes: a markdown link's path
// from src's folder when a note is there, else the note of its name.
func (d *Dreamer) resolveWritten(ctx context.Context, src string, l markdown.Link) string {
	if l.Markdown {
		rel := path.Join(path.Dir(src), l.Target)
		if got, err := d.ix.Lookup(ctx, rel); err == nil && strings.EqualFold(got, rel) {
			return got
		}
	}
	got, err := d.ix.Lookup(ctx, strings.TrimSuffix(l.Target, markdown.Ext))
	if err != nil {
		return ""
	}
	return got
}
