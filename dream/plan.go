package dream

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// mem is one live memory as a run sees it: read from disk, whatever the
// index last saw.
type mem struct {
	path    string
	kind    vault.Kind
	name    string // the frontmatter name (the file name when none)
	note    *vault.Note
	hash    string // of the content as read
	next    []byte // the content as planned; nil while unchanged
	changed bool   // since the checkpoint
	// archived says the plan archives it (merged into another, or
	// superseded).
	archived bool
	// supersedes are the memories its frontmatter supersedes.
	supersedes []*mem
	// fixes are the relative dates made absolute in next.
	fixes []DateFix
	entry memory.Entry // its line in MEMORY.md
}

// current is the memory's content as planned so far.
func (m *mem) current() []byte {
	if m.next != nil {
		return m.next
	}
	return m.note.Content
}

// created is the memory's frontmatter created date (YYYY-MM-DD), "" when
// it has none.
func (m *mem) created() string {
	s, _ := m.note.Frontmatter.String("created")
	if len(s) >= 10 {
		return s[:10]
	}
	return ""
}

// plan is what a run will do.
type plan struct {
	now   time.Time
	today string
	mems  []*mem // by path
	by    map[string]*mem
	// gone are the memories the index lists that are no longer live
	// memories on disk.
	gone  map[string]bool
	cp    *checkpoint
	cpSum string // the checkpoint file's hash
	// merges are the duplicates to merge; superseded the memories a newer
	// one supersedes, with it.
	merges     []*merge
	superseded []*archival
	// flags are the flagged pairs after the run, fresh those it found;
	// flagsSum is the state file's hash, flagsChanged says it must be
	// written.
	flags        []memory.Flag
	fresh        map[pair]bool
	flagsSum     string
	flagsChanged bool
}

// merge is a group of duplicates: losers go into winner.
type merge struct {
	winner    *mem
	losers    []*mem
	reason    string
	before    string // the winner's body before the merge
	rewritten bool   // the winner's text is the LLM's
}

// archival is a memory superseded by another.
type archival struct {
	m, by *mem
}

// pair is two memories by path, in order.
type pair [2]string

func pairOf(a, b string) pair {
	if b < a {
		a, b = b, a
	}
	return pair{a, b}
}

// plan reads the memories and decides what the run does.
func (d *Dreamer) plan(ctx context.Context, ro RunOptions, now time.Time, rep *Report) (*plan, error) {
	p := &plan{now: now, today: now.Format(time.DateOnly), by: map[string]*mem{}, gone: map[string]bool{}, fresh: map[pair]bool{}}
	cp, sum, problem, err := d.readCheckpoint()
	if err != nil {
		return nil, err
	}
	if problem != nil {
		rep.skip(vault.StateDir+"/"+CheckpointFile, 0, "%v", problem)
	}
	p.cp, p.cpSum = cp, sum
	if err := d.load(ctx, p, rep); err != nil {
		return nil, err
	}
	for _, m := range p.mems {
		m.changed = ro.Full || cp == nil || cp.Memories[m.path] != shortHash(m.hash)
		if m.changed {
			rep.Examined++
		}
	}
	rep.Memories = len(p.mems)
	d.fixDates(ctx, p, rep)
	d.supersede(ctx, p, rep)
	d.duplicates(p, rep)
	merges := p.merges[:0]
	for _, mg := range p.merges {
		if d.mergeTexts(ctx, mg, p.today, rep); len(mg.losers) > 0 {
			merges = append(merges, mg)
		}
	}
	p.merges = merges
	if err := d.contradictions(p); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d.rewriteMerges(ctx, p, rep)
	return p, nil
}

// load reads the live memories from disk, and reports the notes of the
// memory folder whose frontmatter does not parse.
func (d *Dreamer) load(ctx context.Context, p *plan, rep *Report) error {
	bad, err := d.ix.BadFrontmatter(ctx, d.opts.Folder)
	if err != nil {
		return err
	}
	for _, b := range bad {
		rep.skip(b.Path, b.Line, "its frontmatter does not parse, so Dream never merges, rewrites or archives it: %s", b.Message)
	}
	indexed, err := d.ix.Memories(ctx)
	if err != nil {
		return err
	}
	for _, im := range indexed {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := d.read(im)
		switch {
		case errors.Is(err, vault.ErrNotFound):
			p.gone[im.Path] = true // deleted since the index saw it
			continue
		case err != nil:
			rep.skip(im.Path, 0, "%v", err)
			continue
		case m == nil:
			p.gone[im.Path] = true // no longer a live memory on disk
			continue
		}
		p.mems = append(p.mems, m)
		p.by[m.path] = m
	}
	slices.SortFunc(p.mems, func(a, b *mem) int { return strings.Compare(a.path, b.path) })
	return nil
}

// read reads the memory the index holds as im: nil when, on disk, it is no
// longer a live memory (the index lags behind a write).
func (d *Dreamer) read(im index.Memory) (*mem, error) {
	content, hash, err := d.w.Read(im.Path)
	if err != nil {
		return nil, err
	}
	n := vault.Parse(im.Path, content)
	for _, w := range n.Warnings {
		var pe *vault.ParseError
		if errors.As(w, &pe) && strings.Contains(pe.Error(), "invalid frontmatter") {
			return nil, w
		}
	}
	fm := n.Frontmatter.JSON()
	_, archived := fm["archived"]
	_, merged := fm["merged_into"]
	if !n.Kind().IsMemory() || archived || merged {
		return nil, nil
	}
	name, _ := n.Frontmatter.String("name")
	if name = strings.TrimSpace(name); name == "" {
		name = n.Title()
	}
	entry := memory.EntryOf(im)
	entry.Type, entry.Title = n.Kind(), name
	entry.Hook, _ = n.Frontmatter.String("description")
	return &mem{path: im.Path, kind: n.Kind(), name: name, note: n, hash: hash, entry: entry}, nil
}
