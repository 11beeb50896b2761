package dream

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/dream/runstate"
	"github.com/vaultmem/vaultmem/dream/similar"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/meaning"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/vault"
)

// mem is one live memory as a run sees it: read from disk, whatever the
// index last saw.
type mem struct {
	// Memory is what comparing it needs and reads (see similar.Memory):
	// its path, type, name, note as read, content as planned, whether it
	// changed since the checkpoint, what it is a conflict copy of.
	*similar.Memory
	// archived says the plan archives it (merged into another, or
	// superseded).
	archived bool
	// supersedes are the memories its frontmatter supersedes.
	supersedes []*mem
	// fixes are the relative dates made absolute in next.
	fixes []DateFix
}

// entry is the memory's line in MEMORY.md, as planned.
func (m *mem) entry() memory.Entry { return memory.NoteEntry(m.Parsed()) }

// plan is what a run will do.
type plan struct {
	now   time.Time
	today string
	mems  []*mem // by path
	by    map[string]*mem
	// indexed are the live memories the index holds; gone those of them
	// no longer live memories on disk.
	indexed []memory.Live
	inIndex map[string]bool
	// common are the terms too common to pair contradictions (see
	// similar.CommonTerms), over every memory.
	common map[string]bool
	// sketches are the cached sketches an incremental run read.
	sketches map[string]similar.Sketch
	gone     map[string]bool
	// bad are the notes of the memory folder whose frontmatter does not
	// parse: never written.
	bad   map[string]bool
	cp    *runstate.Checkpoint
	cpSum string // the checkpoint file's hash
	// merges are the duplicates to merge; superseded the memories a newer
	// one supersedes, with it.
	merges     []*merge
	superseded []*archival
	// flags are the flagged pairs after the run, fresh those it found;
	// flagsSum is the state file's hash, flagsChanged says it must be
	// written.
	flags []memory.Flag
	fresh map[pair]bool
	// opposed are the pairs found near the same words but of opposite
	// meaning: contradictions, never duplicates.
	opposed []opposition
	// similar are the pairs alike but not provably the same: possible
	// duplicates, for review. judged counts the pairs the LLM was asked
	// about; judgedFlags are the flags its verdicts make.
	similar     []similarPair
	judged      int
	judgedFlags []memory.Flag
	// cycles are the pairs of memories that supersede each other.
	cycles map[pair]bool
	// finished is what the run finished of an interrupted one, nil when
	// there was none.
	finished *finished
	// proposals are the notes the run proposed from session notes, which
	// the index has not seen yet.
	proposals    []memory.Proposal
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

// opposition is two memories alike in words (why says how) whose
// meaning is opposite (diff says where).
type opposition struct {
	a, b *mem
	why  string
	diff meaning.Difference
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

// live reports whether the memory at path is live after the plan: the
// index holds it, it is live on disk (as far as the run read it), and the
// plan does not archive it.
func (p *plan) live(path string) bool {
	if m := p.by[path]; m != nil {
		return !m.archived
	}
	return p.inIndex[path] && !p.gone[path]
}

// plan reads the memories and decides what the run does.
func (d *Dreamer) plan(ctx context.Context, ro RunOptions, now time.Time, rep *Report) (*plan, error) {
	// A MEMORY.md with broken markers stops the run before it writes
	// anything: a human fixes it first.
	if err := d.store.CheckList(); err != nil {
		return nil, err
	}
	p := &plan{now: now, today: now.Format(time.DateOnly), by: map[string]*mem{}, gone: map[string]bool{}, bad: map[string]bool{}, fresh: map[pair]bool{}, cycles: map[pair]bool{}}
	cp, sum, problem, err := runstate.ReadCheckpoint(d.w)
	if err != nil {
		return nil, err
	}
	if problem != nil {
		rep.skip(vault.StateDir+"/"+CheckpointFile, 0, "%v", problem)
	}
	p.cp, p.cpSum = cp, sum
	if err := d.load(ctx, p, rep, ro.Full || cp == nil); err != nil {
		return nil, err
	}
	for _, m := range p.mems {
		m.Changed = ro.Full || cp == nil || cp.Memories[m.Path] != runstate.ShortHash(m.Hash)
		if m.Changed {
			rep.Examined++
		}
	}
	rep.Memories = len(p.indexed) - len(p.gone)
	if err := d.breakCycles(ctx, p, rep); err != nil {
		return nil, err
	}
	d.supersede(ctx, p, rep)
	d.duplicates(ctx, p, rep)
	merges := p.merges[:0]
	for _, mg := range p.merges {
		if d.mergeTexts(ctx, mg, p.today, rep); len(mg.losers) > 0 {
			merges = append(merges, mg)
		}
	}
	p.merges = merges
	d.fixDates(ctx, p, rep)
	if err := d.contradictions(p); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d.rewriteMerges(ctx, p, rep)
	relinkWinners(ctx, d.ix, p)
	return p, nil
}

// load reads the memories a run looks at from disk: all of them on a full
// run; else those changed since the checkpoint and their neighbours (the
// memories the index finds nearest their words, those of the same name,
// those they supersede, those flagged with them). It reports the notes of
// the memory folder whose frontmatter does not parse.
func (d *Dreamer) load(ctx context.Context, p *plan, rep *Report, full bool) error {
	bad, err := d.ix.BadFrontmatter(ctx, d.opts.Folder)
	if err != nil {
		return err
	}
	for _, b := range bad {
		rep.skip(b.Path, b.Line, "its frontmatter does not parse, so Dream never merges, rewrites or archives it: %s", b.Message)
		p.bad[b.Path] = true
	}
	if p.indexed, err = d.ix.Memories(ctx); err != nil {
		return err
	}
	byPath := make(map[string]memory.Live, len(p.indexed))
	p.inIndex = make(map[string]bool, len(p.indexed))
	for _, im := range p.indexed {
		byPath[im.Path], p.inIndex[im.Path] = im, true
	}
	readAll := func(paths []string) error {
		for _, path := range paths {
			if err := ctx.Err(); err != nil {
				return err
			}
			im, ok := byPath[path]
			if !ok || p.by[path] != nil || p.gone[path] {
				continue
			}
			m, err := d.read(im)
			switch {
			case errors.Is(err, vault.ErrNotFound), err == nil && m == nil:
				p.gone[path] = true // deleted, or no longer a live memory, since the index saw it
			case err != nil:
				rep.skip(path, 0, "%v", err)
			default:
				p.mems = append(p.mems, m)
				p.by[path] = m
			}
		}
		return nil
	}
	var changed []string
	for _, im := range p.indexed {
		if full || p.cp.Memories[im.Path] != runstate.ShortHash(im.Hash) {
			changed = append(changed, im.Path)
		}
	}
	if err := readAll(changed); err != nil {
		return err
	}
	if !full {
		// The others through their sketches: those not cached (a wiped
		// cache) are read once to make them.
		cached := similar.ReadSketches(d.v.Abs(sketchFile))
		p.sketches = cached
		var unsketched []string
		for _, im := range p.indexed {
			if cached[im.Path].Hash != im.Hash {
				unsketched = append(unsketched, im.Path)
			}
		}
		if err := readAll(unsketched); err != nil {
			return err
		}
		near, err := d.neighbours(ctx, p, cached, changed)
		if err != nil {
			return err
		}
		if err := readAll(near); err != nil {
			return err
		}
	}
	slices.SortFunc(p.mems, func(a, b *mem) int { return strings.Compare(a.Path, b.Path) })
	return nil
}

// neighbours returns the memories a run must read beside the changed ones
// (by path): those whose sketches may pair with a changed memory's (near
// duplicates, contradictions), those of the same name, those a changed
// memory supersedes, and those flagged with one.
func (d *Dreamer) neighbours(ctx context.Context, p *plan, cached map[string]similar.Sketch, changed []string) ([]string, error) {
	isChanged := map[string]bool{}
	for _, c := range changed {
		isChanged[c] = true
	}
	paths, sks := sketchPaths(p, cached)
	focus := func(i int) bool { return isChanged[paths[i]] }
	p.common = similar.CommonTerms(sks)
	var out []string
	for _, c := range slices.Concat(similar.NearCandidates(sks, focus), similar.PolarCandidates(sks, focus, p.common)) {
		out = append(out, paths[c[0]], paths[c[1]])
	}
	sameText := map[string][]string{}
	for i, sk := range sks {
		if sk.TextKey != "" {
			sameText[sk.TextKey] = append(sameText[sk.TextKey], paths[i])
		}
	}
	names := map[string][]string{}
	for _, im := range p.indexed {
		name := im.Name
		if name == "" {
			name = im.Title
		}
		names[similar.NormName(name)] = append(names[similar.NormName(name)], im.Path)
	}
	flags, _, err := d.store.Flags()
	if err != nil {
		return nil, err
	}
	// A sync service's copy and its original are compared whatever
	// their words (see similar.Find).
	copies := map[string][]string{}
	for _, im := range p.indexed {
		if orig, _, ok := vault.ConflictCopy(im.Path, func(q string) bool { return q != im.Path && p.inIndex[q] }); ok {
			copies[orig] = append(copies[orig], im.Path)
			copies[im.Path] = append(copies[im.Path], orig)
		}
	}
	for _, path := range changed {
		out = append(out, copies[path]...)
		m := p.by[path]
		if m == nil {
			continue
		}
		out = append(out, names[similar.NormName(m.Name)]...)
		out = append(out, sameText[similar.TextKey(m.Memory)]...)
		for _, v := range m.Note.Frontmatter.Strings("supersedes") {
			if target, err := d.ix.Lookup(ctx, linkTarget(v)); err == nil {
				out = append(out, target)
			}
		}
		for _, f := range flags {
			if f.A == path {
				out = append(out, f.B)
			} else if f.B == path {
				out = append(out, f.A)
			}
		}
	}
	return out, nil
}

// read reads the memory the index holds as im: nil when, on disk, it is no
// longer a live memory (the index lags behind a write).
func (d *Dreamer) read(im memory.Live) (*mem, error) {
	content, hash, err := d.w.Read(im.Path)
	if err != nil {
		return nil, err
	}
	n := markdown.Parse(im.Path, content)
	for _, w := range n.Warnings {
		var pe *markdown.ParseError
		if errors.As(w, &pe) && strings.Contains(pe.Error(), "invalid frontmatter") {
			return nil, w
		}
	}
	fm := n.Frontmatter.JSON()
	_, archived := fm["archived"]
	_, merged := fm["merged_into"]
	if !memory.IsType(n.Type()) || archived || merged || vault.IsProposed(n) {
		return nil, nil
	}
	e := memory.NoteEntry(n)
	return &mem{Memory: &similar.Memory{Path: im.Path, Kind: memory.Type(n.Type()), Name: e.Title, Note: n, Hash: hash}}, nil
}
