package relink

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
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

// Index is what relinking asks the vault's index: the notes linking to a
// note, a note's links as resolved, the note a name or path finds, and
// the text a wikilink names a note by. index.Stores has them.
type Index interface {
	Backlinks(ctx context.Context, path string) ([]string, error)
	Edges(ctx context.Context, f index.EdgeFilter) ([]index.Edge, error)
	Lookup(ctx context.Context, nameOrPath string) (string, error)
	LinkText(ctx context.Context, p string) string
}

var _ Index = index.Stores{}

// Notes is what relinking reads and writes notes with: a *vault.Writer,
// compare-before-write.
type Notes interface {
	Read(p string) ([]byte, string, error)
	Write(ctx context.Context, p string, content []byte, expected string) (string, error)
}

var _ Notes = (*vault.Writer)(nil)

// Result is what Rewrite did.
type Result struct {
	// Written is the new hash of each note written, by path.
	Written map[string]string
	// Rewritten are the notes whose links it pointed elsewhere (in a dry
	// run: would), in order of path.
	Rewritten []string
	// Skipped are the notes it left as they are, with why.
	Skipped []Skip
}

// Skip is a note Rewrite left as it is.
type Skip struct {
	Path, Reason string
}

// Rewrite points the links to the memories merged away (moved: from path
// to the path of the memory each went into) at those memories, in every
// note but those of skip, each note in one write. A note that cannot be
// read, or that changed since the index read it or while Rewrite ran, is
// skipped (the next run does it). In a dry run it writes nothing and
// reports the notes it would change. Errors are the index's and the
// writer's but a conflict; what was done before one is in the Result.
func Rewrite(ctx context.Context, ix Index, w Notes, moved map[string]string, skip map[string]bool, dryRun bool) (*Result, error) {
	res := &Result{Written: map[string]string{}}
	seen := map[string]bool{}
	var sources []string
	for from := range moved {
		srcs, err := ix.Backlinks(ctx, from)
		if err != nil {
			return res, err
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
			targets[to] = ix.LinkText(ctx, to)
		}
	}
	blocks := &blockRenames{w: w, ids: map[string]map[string]bool{}}
	for _, src := range sources {
		content, hash, err := w.Read(src)
		if err != nil {
			res.Skipped = append(res.Skipped, Skip{src, fmt.Sprintf("links to merged memories not rewritten: %v", err)})
			continue
		}
		n := markdown.Parse(src, content)
		edges, err := ix.Edges(ctx, index.EdgeFilter{From: src})
		if err != nil {
			return res, err
		}
		next, ok := relink(n, edges, moved, targets, blocks.rename)
		if !ok {
			res.Skipped = append(res.Skipped, Skip{src, "links to merged memories not rewritten: the note changed since it was indexed; the next run does it"})
			continue
		}
		if next == nil {
			continue
		}
		if !dryRun {
			h, err := w.Write(ctx, src, next, hash)
			if errors.Is(err, vault.ErrConflict) {
				res.Skipped = append(res.Skipped, Skip{src, "links to merged memories not rewritten: the note changed while Dream ran; the next run does it"})
				continue
			}
			if err != nil {
				return res, err
			}
			res.Written[src] = h
		}
		res.Rewritten = append(res.Rewritten, src)
	}
	return res, nil
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
	w   Notes
	ids map[string]map[string]bool // by winner path
}

// rename is a blockRenamer: a paragraph merged from another memory whose
// block id the winner already had carries the id renamed (see
// RenamedBlock); a link to it names that.
func (b *blockRenames) rename(from, to, id string) string {
	if id == "" {
		return id
	}
	ids, ok := b.ids[to]
	if !ok {
		ids = map[string]bool{}
		if content, _, err := b.w.Read(to); err == nil {
			for _, bl := range markdown.Parse(to, content).Blocks {
				ids[bl.ID] = true
			}
		}
		b.ids[to] = ids
	}
	if r := RenamedBlock(id, from); ids[r] {
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

// Winners returns the content of each of winners (the memories merges
// go into, as planned, parsed) with its links that name a memory moved
// (from path to the path it goes into: its own text, or a paragraph it
// got from another memory) pointed at that one; nil for a winner with no
// such link. The index has not read the winners' planned text, so
// Rewrite cannot: links are resolved here by name (wikilinks, and
// markdown links that name no file from the winner's folder) or by path.
func Winners(ctx context.Context, ix Index, winners []*markdown.Note, moved map[string]string) [][]byte {
	out := make([][]byte, len(winners))
	if len(moved) == 0 {
		return out
	}
	targets := map[string]string{}
	ids := map[string]map[string]bool{} // the block ids of each winner, as planned
	for _, n := range winners {
		ids[n.Path] = map[string]bool{}
		for _, b := range n.Blocks {
			ids[n.Path][b.ID] = true
		}
	}
	block := func(from, to, id string) string {
		if r := RenamedBlock(id, from); ids[to][r] {
			return r
		}
		return id
	}
	for i, n := range winners {
		next := slices.Clone(n.Content)
		changed := false
		for _, l := range slices.Backward(n.Links) {
			if l.End <= l.Start || l.Target == "" {
				continue
			}
			from := resolveWritten(ctx, ix, n.Path, l)
			to, ok := moved[from]
			if !ok || !names(n.Path, l, from) {
				continue
			}
			if _, ok := targets[to]; !ok {
				targets[to] = ix.LinkText(ctx, to)
			}
			repl := retarget(n, l, to, targets[to], block(from, to, l.Block))
			next = slices.Concat(next[:l.Start], []byte(repl), next[l.End:])
			changed = true
		}
		if changed {
			out[i] = next
		}
	}
	return out
}

// resolveWritten is the vault path the link l of the note at vault path
// src names, as far as the index knows the notes: a markdown link's path
// from src's folder when a note is there, else the note of its name.
func resolveWritten(ctx context.Context, ix Index, src string, l markdown.Link) string {
	if l.Markdown {
		rel := path.Join(path.Dir(src), l.Target)
		if got, err := ix.Lookup(ctx, rel); err == nil && strings.EqualFold(got, rel) {
			return got
		}
	}
	got, err := ix.Lookup(ctx, strings.TrimSuffix(l.Target, markdown.Ext))
	if err != nil {
		return ""
	}
	return got
}

// RenamedBlock is the id a merge gives block id of the memory at vault
// path from when the winner has that id already: the id and the first
// hex digits of the path's hash, the same in every run. A link to the
// block names it so once the link is pointed at the winner.
func RenamedBlock(id, from string) string {
	return fmt.Sprintf("%s-%x", id, sha256.Sum256([]byte(from)))[:len(id)+7]
}
