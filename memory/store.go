package memory

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
	"go.yaml.in/yaml/v3"
)

// Index is what a Store needs of the index: the live memories it holds,
// and the proposals (notes Dream proposed, not yet accepted).
// index.Stores is one, and a TextSums too.
type Index interface {
	Memories(ctx context.Context) ([]Live, error)
	Proposed(ctx context.Context) ([]Proposal, error)
}

// TextSums is an Index that keeps each live memory's TextSum, by path:
// a listing then reads no note to know which contradictions an edit
// settled. Without it, the flagged notes are read.
type TextSums interface {
	TextSums(ctx context.Context) (map[string]string, error)
}

// StoreOptions configure a Store. The zero value works.
type StoreOptions struct {
	// Folder is where new memories are written; "" means "memory".
	Folder string
	// ListFile is MEMORY.md's vault path; "" means vault.MemoryListFile.
	ListFile string
	// ReportFile is the vault path of Dream's report (its log note); when
	// set and the note exists, MEMORY.md's "Needs review" links to it
	// whenever it lists anything to review.
	ReportFile string
	// Now is the clock of created and updated dates; nil means time.Now.
	Now func() time.Time
	// Owner names the person the store writes and reads for (see
	// OwnerKey): written as the owner of a new user memory, and whose
	// user memories a shared vault gives them. It is asked when a memory
	// is written and when a shared vault's personal memories are sorted,
	// not by a vault one person keeps that is only read (finding out may
	// run git); nil, or "", is nobody known.
	Owner func() string
	// Sharing is how the store tells a vault shared by several people.
	Sharing Sharing
	// Reviews, if set, gives more to list under "Needs review" at each
	// listing (the lessons that keep failing, Review.Lesson): asked before
	// MEMORY.md is locked, never under its lock.
	Reviews func(ctx context.Context) []Review
}

// Store writes memories through a Writer and keeps MEMORY.md listing the
// live ones. It is safe for concurrent use; the Writer's lock orders its
// writes with every other process's.
type Store struct {
	w          *vault.Writer
	ix         Index
	folder     string
	listFile   string
	reportFile string
	now        func() time.Time
	ownerOf    func() string
	sharing    Sharing
	reviews    func(context.Context) []Review
}

// NewStore returns the Store of the vault w writes, whose memories ix
// lists (it must be current with the vault: synced, or kept so by a
// watcher).
func NewStore(w *vault.Writer, ix Index, o StoreOptions) *Store {
	s := &Store{w: w, ix: ix, folder: o.Folder, listFile: o.ListFile, reportFile: o.ReportFile, now: o.Now, ownerOf: o.Owner, sharing: o.Sharing, reviews: o.Reviews}
	if s.folder == "" {
		s.folder = "memory"
	}
	if s.listFile == "" {
		s.listFile = vault.MemoryListFile
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

// ListFile is MEMORY.md's vault path.
func (s *Store) ListFile() string { return s.listFile }

// today is the date of created and updated.
func (s *Store) today() string { return s.now().Format(time.DateOnly) }

// live is a memory the index holds.
type live struct {
	Entry
	name string // the frontmatter name, the memory's identity
}

// EntryOf is the entry MEMORY.md lists for a memory the index holds: its
// title is its name (its file name when it has none).
func EntryOf(m Live) Entry {
	name := m.Name
	if name == "" {
		name = m.Title
	}
	return Entry{Path: m.Path, Type: Type(m.Type), Title: name, Hook: m.Description, Pinned: m.Pinned, Date: m.Date, Owner: m.Owner}
}

// NoteEntry is the entry MEMORY.md lists for memory note n, read from its
// frontmatter as the index reads it (see EntryOf).
func NoteEntry(n *markdown.Note) Entry {
	name, _ := n.Frontmatter.String("name")
	if name = strings.TrimSpace(name); name == "" {
		name = n.Title()
	}
	hook, _ := n.Frontmatter.String("description")
	return Entry{Path: n.Path, Type: Type(n.Type()), Title: name, Hook: hook, Pinned: n.Pinned(), Date: n.Written(), Owner: OwnerOf(n), TextSum: TextSum(n)}
}

// memories lists the live memories (not archived) the index holds.
func (s *Store) memories(ctx context.Context) ([]live, error) {
	ms, err := s.ix.Memories(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]live, 0, len(ms))
	for _, m := range ms {
		e := EntryOf(m)
		out = append(out, live{Entry: e, name: e.Title})
	}
	return out, nil
}

// Relist rewrites MEMORY.md's region from the live memories the index
// holds and the reviews Dream left; nothing is written when it is
// current. It returns what the file holds. Errors: a *markdown.ParseError
// naming MEMORY.md and the line when its markers are broken (nothing is
// written), and the Writer's.
func (s *Store) Relist(ctx context.Context) (ListStats, error) {
	live, err := s.memories(ctx)
	if err != nil {
		return ListStats{}, err
	}
	return s.render(ctx, entries(live, Entry{}))
}

// relistWith rewrites MEMORY.md with live, but with e as given (a memory
// just written, which the index may not hold yet).
func (s *Store) relistWith(ctx context.Context, live []live, e Entry) error {
	_, err := s.render(ctx, entries(live, e))
	return err
}

// entries are the live memories as MEMORY.md lists them, e (when set) in
// place of the memory at its path, or added.
func entries(live []live, e Entry) []Entry {
	out := make([]Entry, 0, len(live)+1)
	for _, l := range live {
		if l.Path != e.Path {
			out = append(out, l.Entry)
		}
	}
	if e.Path != "" {
		out = append(out, e)
	}
	return out
}

// render writes MEMORY.md's region listing es, the reviews that still
// hold (both of their memories live) and the proposals.
func (s *Store) render(ctx context.Context, es []Entry) (ListStats, error) {
	flags, _, err := s.Flags()
	if err != nil {
		return ListStats{}, err
	}
	sums, err := s.textSums(ctx, es, flags)
	if err != nil {
		return ListStats{}, err
	}
	flags = s.unsettled(flags, sums)
	proposals, err := s.ix.Proposed(ctx)
	if err != nil {
		return ListStats{}, err
	}
	st, _, err := s.RelistEntries(ctx, es, flags, proposals, RelistOptions{})
	return st, err
}

// RelistOptions are the options of RelistEntries.
type RelistOptions struct {
	// DryRun writes nothing.
	DryRun bool
	// ReportComing says Dream's report is being written with this listing
	// (by the run that found what is to review), so that it is linked
	// before the file exists.
	ReportComing bool
}

// RelistEntries writes MEMORY.md's region listing entries, under "Needs
// review" the pairs of flags whose memories are both listed and the
// proposals: what Dream does after its changes, which the index has not
// seen yet. It reads and writes MEMORY.md under the Writer's lock, so that
// two processes listing a memory each keep both: a memory the file lists
// that entries lack but that is a live memory on disk stays listed, and
// so does a proposal the file lists that proposals lack but that is still
// proposed on disk. In a shared vault (see Sharing) the personal memories
// and proposals are left out, whoever wrote them. With dryRun nothing is written (nor
// read but MEMORY.md). It returns what the file holds (or would hold) and
// whether it changed. Errors: a *markdown.ParseError naming MEMORY.md and the
// line when its markers are broken (nothing is written), and the
// Writer's.
func (s *Store) RelistEntries(ctx context.Context, entries []Entry, flags []Flag, proposals []Proposal, o RelistOptions) (ListStats, bool, error) {
	dryRun := o.DryRun
	var st ListStats
	changed, nothing := false, false
	var more []Review
	if s.reviews != nil {
		more = s.reviews(ctx)
	}
	list := func(current []byte) ([]byte, error) {
		es, ps := entries, proposals
		if !dryRun {
			es = slices.Concat(entries, s.unindexed(current, entries))
			ps = slices.Concat(proposals, s.unlistedProposals(current, proposals))
		}
		es, ps = s.listable(es, ps)
		reviews := append(reviewsOf(es, flags), more...)
		listed := make(map[string]bool, len(es))
		for _, e := range es {
			listed[e.Path] = true
		}
		seen := map[string]bool{}
		for _, p := range ps {
			if !listed[p.Path] && !seen[p.Path] { // accepted since the index saw it: listed as a memory
				seen[p.Path] = true
				reviews = append(reviews, ReviewOf(p))
			}
		}
		if len(reviews) > 0 && s.reportFile != "" {
			if ok, err := s.w.Exists(s.reportFile); o.ReportComing || err == nil && ok {
				reviews = append(reviews, Review{A: Entry{Path: s.reportFile, Title: ReportTitle}, Report: true})
			}
		}
		next, stats, err := Render(s.listFile, current, es, reviews)
		st, changed = stats, err == nil && (current == nil || !bytes.Equal(next, current))
		nothing = len(es) == 0 && len(reviews) == 0
		return next, err
	}
	if dryRun {
		current, _, err := s.w.Read(s.listFile)
		if errors.Is(err, vault.ErrNotFound) {
			current, err = nil, nil
		}
		if err != nil {
			return st, false, err
		}
		_, err = list(current)
		return st, changed && !(current == nil && nothing), err
	}
	var err error
	for range 2 {
		_, err = s.w.Update(ctx, s.listFile, list)
		var pe *markdown.ParseError
		if errors.As(err, &pe) {
			return st, false, pe // it names MEMORY.md and the line already
		}
		if !errors.Is(err, vault.ErrNotFound) {
			return st, changed, err
		}
		var next []byte
		if next, err = list(nil); err != nil {
			return st, false, err
		}
		if nothing {
			// Nothing to list: a vault of a person's own notes gets no
			// MEMORY.md until it holds a memory.
			return st, false, nil
		}
		if _, err = s.w.Write(ctx, s.listFile, next, ""); !errors.Is(err, vault.ErrExists) {
			return st, err == nil, err
		}
		// Another process wrote the first MEMORY.md meanwhile: update it.
	}
	return st, false, err
}

// unindexed returns the memories MEMORY.md lists that es lacks but that
// are still live memories on disk, read from their notes: the index may
// lag behind the notes (a watcher syncs a moment after a write; another
// process may have remembered one just now), and a memory it has not seen
// yet must not drop out of MEMORY.md.
func (s *Store) unindexed(current []byte, es []Entry) []Entry {
	have := make(map[string]bool, len(es))
	for _, e := range es {
		have[e.Path] = true
	}
	var out []Entry
	for _, p := range regionPaths(s.listFile, current) {
		if have[p] {
			continue
		}
		b, _, err := s.w.Read(p)
		if err != nil {
			continue // gone
		}
		n := markdown.Parse(p, b)
		if !IsLive(n) || !InFolder(p, s.folder) {
			continue
		}
		out = append(out, NoteEntry(n))
		have[p] = true
	}
	return out
}

// unlistedProposals returns the proposals MEMORY.md lists (current is the
// file) that ps lacks but that are still proposed on disk: the index may
// lag behind Dream's or another process's write.
func (s *Store) unlistedProposals(current []byte, ps []Proposal) []Proposal {
	if current == nil {
		return nil
	}
	v, err := parseVersion(s.listFile, "current", current)
	if err != nil {
		return nil
	}
	have := make(map[string]bool, len(ps))
	for _, p := range ps {
		have[p.Path] = true
	}
	var out []Proposal
	for _, k := range v.reviews.keys {
		r := v.reviews.by[k]
		if !r.Proposed || have[r.A.Path] {
			continue
		}
		b, _, err := s.w.Read(r.A.Path)
		if err != nil {
			continue // gone
		}
		if p, ok := ProposalOf(markdown.Parse(r.A.Path, b)); ok {
			out = append(out, p)
			have[p.Path] = true
		}
	}
	return out
}

// listed reports whether MEMORY.md already lists e as it would be listed.
func (s *Store) listed(ctx context.Context, e Entry) bool {
	current, _, err := s.w.Read(s.listFile)
	return err == nil && bytes.Contains(current, []byte(Line(path.Dir(s.listFile), e)+"\n"))
}

// CheckList returns a *markdown.ParseError naming MEMORY.md and the line
// when its markers are broken (then nothing may rewrite it), nil when they
// are whole or the file does not exist.
func (s *Store) CheckList() error {
	current, _, err := s.w.Read(s.listFile)
	if errors.Is(err, vault.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	_, _, err = splitRegion(s.listFile, current)
	return err
}

// ReviewsFile is the state file where Dream keeps the pairs of memories
// it flagged as contradicting, under .vaultmem/state (committed with the
// vault, so every machine lists the same).
const ReviewsFile = "reviews.yaml"

// Flag is a pair of memories, by vault path, flagged for a human, or a
// pair settled apart (see Distinct).
type Flag struct {
	A      string `yaml:"a" json:"a"`
	B      string `yaml:"b" json:"b"`
	Reason string `yaml:"reason" json:"reason"`
	// Kind says what the pair may be; "" (a Contradiction) in files of
	// earlier versions.
	Kind FlagKind `yaml:"kind,omitempty" json:"kind,omitempty"`
	// Found is the day (YYYY-MM-DD) Dream found the pair: possible
	// duplicates are listed newest first.
	Found string `yaml:"found,omitempty" json:"found,omitempty"`
	// TextA and TextB fingerprint the text of A and of B (see TextSum)
	// as it was when the pair was last written (SetFlags records them):
	// a contradiction whose memory's text a person changed since is
	// settled for MEMORY.md at once, before Dream looks at the pair
	// again. "" in files of earlier versions: such a pair stands.
	TextA string `yaml:"text_a,omitempty" json:"text_a,omitempty"`
	TextB string `yaml:"text_b,omitempty" json:"text_b,omitempty"`
}

// TextSum fingerprints what a memory note says: its description and its
// body, not the rest of its frontmatter (pinning a memory, or git's
// merge of a date, changes nothing it says).
func TextSum(n *markdown.Note) string {
	desc, _ := n.Frontmatter.String("description")
	h := sha256.New()
	h.Write([]byte(strings.TrimSpace(desc)))
	h.Write([]byte{0})
	h.Write(bytes.TrimSpace(n.Body()))
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// FlagKind is what a flagged pair may be.
type FlagKind string

// The kinds of flagged pairs.
const (
	// Contradiction: the memories may say opposite things.
	Contradiction FlagKind = ""
	// Duplicate: the memories are alike but not provably the same (see
	// docs/merge-rules.md); a person settles it by archiving one, or by
	// same_as or not_same_as in one's frontmatter.
	Duplicate FlagKind = "duplicate"
	// Distinct: the pair was settled as saying different things (by the
	// LLM Dream asked); kept so that it is not asked again while both stay
	// as they are, and never listed.
	Distinct FlagKind = "distinct"
)

// Listed reports whether MEMORY.md lists a pair of this kind under "Needs
// review".
func (k FlagKind) Listed() bool { return k != Distinct }

// Phrase is what MEMORY.md and the hooks say of a pair of this kind.
func (k FlagKind) Phrase() string {
	if k == Duplicate {
		return "may be duplicates"
	}
	return "may contradict each other"
}

// Flags returns the pairs Dream flagged (none when it never ran).
func (s *Store) Flags() ([]Flag, string, error) {
	b, hash, err := s.w.ReadState(ReviewsFile)
	if errors.Is(err, vault.ErrNotFound) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	flags, err := parseFlags(b)
	if err != nil {
		return nil, "", fmt.Errorf("%s/%s: %w", vault.StateDir, ReviewsFile, err)
	}
	// Two machines' lists merged by git's union driver may hold a pair
	// twice: the first line of a pair is its flag.
	seen := make(map[[2]string]bool, len(flags))
	flags = slices.DeleteFunc(flags, func(f Flag) bool {
		k := [2]string{min(f.A, f.B), max(f.A, f.B)}
		dup := seen[k]
		seen[k] = true
		return dup
	})
	return flags, hash, nil
}

// parseFlags reads the review list: a line of JSON a pair, as SetFlags
// writes it (read without a YAML parser, which costs ten times more on a
// long list), else any YAML list of pairs (earlier versions, a person's
// edit).
func parseFlags(b []byte) ([]Flag, error) {
	var flags []Flag
	for line := range bytes.Lines(b) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' || markdown.IsConflictMarker(string(line)) {
			continue // a merge without the union driver: both sides' lines are the list
		}
		var f Flag
		obj, ok := bytes.CutPrefix(line, []byte("- "))
		if !ok || json.Unmarshal(obj, &f) != nil {
			flags = nil
			if err := yaml.Unmarshal(b, &flags); err != nil {
				return nil, err
			}
			return flags, nil
		}
		flags = append(flags, f)
	}
	return flags, nil
}

// reviewsHeader opens the review list: a comment, the same on every
// machine, so that git's union merge keeps it once.
const reviewsHeader = "# Pairs of memories Dream listed for review, one a line (vaultmem dream writes it).\n"

// SetFlags replaces the flagged pairs (expected is the hash Flags gave),
// each contradiction with the fingerprints of its memories' text (see
// Flag.TextA): as given (see Fingerprinted), else as the notes are now,
// read: whoever writes a pair vouches for it as the notes stand. The
// file holds one pair a line (a YAML sequence of JSON objects), so that
// git merges two machines' lists line by line (see docs/git.md).
func (s *Store) SetFlags(ctx context.Context, flags []Flag, expected string) error {
	b := []byte(reviewsHeader)
	sums := map[string]string{}
	for _, f := range flags {
		if f.Kind == Contradiction && (f.TextA == "" || f.TextB == "") {
			f.TextA, f.TextB = s.cachedSum(sums, f.A), s.cachedSum(sums, f.B)
		}
		line, err := json.Marshal(f)
		if err != nil {
			return err
		}
		b = append(append(append(b, "- "...), line...), '\n')
	}
	if expected == "" {
		expected = vault.AnyHash
	}
	_, err := s.w.WriteState(ctx, ReviewsFile, b, expected)
	return err
}

// Fingerprinted returns a copy of flags, each contradiction with the
// fingerprints of its memories' text as the notes are now (see
// Flag.TextA; the other kinds with none), as SetFlags writes them: a
// writer compares it with Flags to know whether the file is current (a
// pair it vouches for again after an edit, by a person or its own, must
// be written anew). The fingerprints are the index's (see TextSums),
// but for the notes at the paths written since it was synced, which are
// read, as are all when the index keeps none. Errors: the index's.
func (s *Store) Fingerprinted(ctx context.Context, flags []Flag, written []string) ([]Flag, error) {
	sums := map[string]string{}
	if ts, ok := s.ix.(TextSums); ok && slices.ContainsFunc(flags, func(f Flag) bool { return f.Kind == Contradiction }) {
		var err error
		if sums, err = ts.TextSums(ctx); err != nil {
			return nil, err
		}
	}
	for _, p := range written {
		delete(sums, p)
	}
	out := slices.Clone(flags)
	for i := range out {
		if out[i].Kind != Contradiction {
			// Only a contradiction is settled by an edit (see unsettled).
			out[i].TextA, out[i].TextB = "", ""
			continue
		}
		out[i].TextA, out[i].TextB = s.cachedSum(sums, out[i].A), s.cachedSum(sums, out[i].B)
	}
	return out, nil
}

// cachedSum is sums[p], read from the note at p (and kept in sums) when
// sums lacks it: a memory is in many pairs.
func (s *Store) cachedSum(sums map[string]string, p string) string {
	v, ok := sums[p]
	if !ok {
		v = s.textSum(p)
		sums[p] = v
	}
	return v
}

// textSum is TextSum of the note at vault path p, "" when it cannot be
// read.
func (s *Store) textSum(p string) string {
	b, _, err := s.w.Read(p)
	if err != nil {
		return ""
	}
	return TextSum(markdown.Parse(p, b))
}

// Standing returns the flagged pairs that still stand for a person to
// review: Flags without those a person settled since they were written
// (see unsettled), as the index holds the memories. Errors: Flags' and
// the index's.
func (s *Store) Standing(ctx context.Context) ([]Flag, error) {
	flags, _, err := s.Flags()
	if err != nil {
		return nil, err
	}
	sums, err := s.textSums(ctx, nil, flags)
	if err != nil {
		return nil, err
	}
	return s.unsettled(flags, sums), nil
}

// textSums are the TextSums of the memories of flags' contradictions, by
// path: those of es that know theirs (a memory just written), else the
// index's (see TextSums), else read from the notes.
func (s *Store) textSums(ctx context.Context, es []Entry, flags []Flag) (map[string]string, error) {
	sums := map[string]string{}
	if !slices.ContainsFunc(flags, func(f Flag) bool { return f.Kind == Contradiction }) {
		return sums, nil
	}
	if ts, ok := s.ix.(TextSums); ok {
		var err error
		if sums, err = ts.TextSums(ctx); err != nil {
			return nil, err
		}
	} else {
		for _, f := range flags {
			if f.Kind == Contradiction {
				s.cachedSum(sums, f.A)
				s.cachedSum(sums, f.B)
			}
		}
	}
	for _, e := range es {
		if e.TextSum != "" {
			sums[e.Path] = e.TextSum
		}
	}
	return sums, nil
}

// unsettled returns flags without the pairs a person settled since they
// were written: a contradiction whose memory's text changed (by sums: see
// Flag.TextA: the edit is the person's answer, and the next Dream checks
// the pair again), and a possible duplicate settled with same_as or
// not_same_as (see settled). Of the duplicates only the newest are read,
// until MaxDuplicateLines stand: the list shows no more, and a listing
// runs with every write of a memory, so its cost stays that of a few
// notes however long the review list grows (the next Dream drops the
// others that were settled).
func (s *Store) unsettled(flags []Flag, sums map[string]string) []Flag {
	order := make([]int, 0, len(flags))
	drop := map[int]bool{}
	for i, f := range flags {
		switch {
		case f.Kind == Duplicate:
			order = append(order, i)
		case f.Kind == Contradiction && edited(f, sums):
			drop[i] = true
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(flags[b].Found, flags[a].Found) })
	standing := 0
	for _, i := range order {
		if standing == MaxDuplicateLines {
			break
		}
		if s.settled(flags[i]) {
			drop[i] = true
		} else {
			standing++
		}
	}
	out := flags[:0:0]
	for i, f := range flags {
		if !drop[i] {
			out = append(out, f)
		}
	}
	return out
}

// edited reports whether the text of one of f's memories changed since f
// was written, by sums, the memories' fingerprints now (see textSums). A
// pair without fingerprints never has; a memory without a sum (gone) is
// left to the listing, which lists no pair whose memory it does not
// list.
func edited(f Flag, sums map[string]string) bool {
	for _, m := range [2]struct{ path, sum string }{{f.A, f.TextA}, {f.B, f.TextB}} {
		if now := sums[m.path]; m.sum != "" && now != "" && now != m.sum {
			return true
		}
	}
	return false
}

// settled reports whether f is a possible duplicate that a person has
// settled since Dream listed it: one of the two names the other with
// same_as (the next Dream merges them) or not_same_as.
func (s *Store) settled(f Flag) bool {
	var notes [2]*markdown.Note
	for i, p := range []string{f.A, f.B} {
		b, _, err := s.w.Read(p)
		if err != nil {
			return false
		}
		notes[i] = markdown.Parse(p, b)
	}
	for _, key := range []string{SameAsKey, NotSameAsKey} {
		if Names(notes[0], key, f.B, NoteEntry(notes[1]).Title) || Names(notes[1], key, f.A, NoteEntry(notes[0]).Title) {
			return true
		}
	}
	return false
}

// reviewsOf are the flagged pairs whose memories are both in es.
func reviewsOf(es []Entry, flags []Flag) []Review {
	byPath := make(map[string]Entry, len(es))
	for _, e := range es {
		byPath[strings.ToLower(e.Path)] = e
	}
	var out []Review
	for _, f := range flags {
		a, okA := byPath[strings.ToLower(f.A)]
		b, okB := byPath[strings.ToLower(f.B)]
		if okA && okB && f.Kind.Listed() {
			out = append(out, Review{A: a, B: b, Reason: f.Reason, Duplicate: f.Kind == Duplicate, Found: f.Found})
		}
	}
	return out
}

// ListText is MEMORY.md as an agent should read it: the whole file, the
// human's text and the list, without the region's marker lines; "" when
// there is none.
func (s *Store) ListText() (string, error) {
	current, _, err := s.w.Read(s.listFile)
	if errors.Is(err, vault.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	begins, ends := markerLines(current)
	cut := append(begins, ends...)
	slices.Sort(cut)
	var b bytes.Buffer
	from := 0
	for _, off := range cut {
		if off < from {
			continue // the end marker on the begin marker's line
		}
		b.Write(current[from:off])
		// Skip the marker itself and the rest of its line.
		if nl := bytes.IndexByte(current[off:], '\n'); nl >= 0 {
			from = off + nl + 1
		} else {
			from = len(current)
		}
	}
	if from < len(current) {
		b.Write(current[from:])
	}
	return strings.TrimSpace(b.String()), nil
}
