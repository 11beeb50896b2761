package graph

import (
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
)

// Resolver resolves links against the files of a vault: notes and the
// other files links may name (images, PDFs, unparsed notes). Lookups are
// safe for concurrent use; [Resolver.Add] and [Resolver.Remove], which keep
// it up to date as files appear and go, are not safe alongside anything
// else.
type Resolver struct {
	// byPath maps lower-cased paths of every file to their paths.
	byPath map[string]string
	// byKey maps a lower-cased name to the files that have it.
	byKey map[string][]string
	notes map[string]bool
}

// New returns the resolver of a vault whose notes and other files are at
// the given vault-relative slash paths.
func New(notes, others []string) *Resolver {
	r := &Resolver{
		byPath: make(map[string]string, len(notes)+len(others)),
		byKey:  make(map[string][]string, len(notes)+len(others)),
		notes:  make(map[string]bool, len(notes)),
	}
	for _, p := range notes {
		r.add(p)
		r.notes[p] = true
	}
	for _, p := range others {
		r.add(p)
	}
	return r
}

// add adds the file at p, which must not be known yet.
func (r *Resolver) add(p string) {
	k := FileKey(p)
	r.byKey[k] = append(r.byKey[k], p)
	// Of paths differing only in case, the first in path order answers
	// exact lookups, whatever the order they came in.
	lower := strings.ToLower(p)
	if q, ok := r.byPath[lower]; !ok || p < q {
		r.byPath[lower] = p
	}
}

// Add makes the file at p known (a note when note is set), as if New had
// been given it.
func (r *Resolver) Add(p string, note bool) {
	if !slices.Contains(r.byKey[FileKey(p)], p) {
		r.add(p)
	}
	if note {
		r.notes[p] = true
	}
}

// Remove forgets the file at p, as if New had not been given it.
func (r *Resolver) Remove(p string) {
	k := FileKey(p)
	i := slices.Index(r.byKey[k], p)
	if i < 0 {
		return
	}
	r.byKey[k] = slices.Delete(r.byKey[k], i, i+1)
	if len(r.byKey[k]) == 0 {
		delete(r.byKey, k)
	}
	delete(r.notes, p)
	lower := strings.ToLower(p)
	if r.byPath[lower] != p {
		return
	}
	delete(r.byPath, lower)
	for _, q := range r.byKey[k] { // another file differing only in case
		if strings.ToLower(q) == lower && (r.byPath[lower] == "" || q < r.byPath[lower]) {
			r.byPath[lower] = q
		}
	}
}

// Resolve returns the file a link in note source points to, by Obsidian's
// rules (see the package doc); ok is false when no file matches.
func (r *Resolver) Resolve(source string, l markdown.Link) (target string, ok bool) {
	return r.resolve(source, l)
}

// Lookup finds a note from what a user typed: a vault path (".md"
// optional, case-insensitive) or a note name as a wikilink would name it.
func (r *Resolver) Lookup(nameOrPath string) (string, bool) {
	p, ok := r.resolve("", markdown.Link{Target: nameOrPath})
	return p, ok && r.notes[p]
}
