package graph

import (
	"strings"

	"github.com/vaultmem/vaultmem/vault"
)

// Resolver resolves links against the files of a vault: notes and the
// other files links may name (images, PDFs, unparsed notes). It is built
// once from the paths and never changes, so it is safe for concurrent use.
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

func (r *Resolver) add(p string) {
	if _, ok := r.byPath[strings.ToLower(p)]; ok {
		return
	}
	r.byPath[strings.ToLower(p)] = p
	k := FileKey(p)
	r.byKey[k] = append(r.byKey[k], p)
}

// Resolve returns the file a link in note source points to, by Obsidian's
// rules (see the package doc); ok is false when no file matches.
func (r *Resolver) Resolve(source string, l vault.Link) (target string, ok bool) {
	return r.resolve(source, l)
}

// Lookup finds a note from what a user typed: a vault path (".md"
// optional, case-insensitive) or a note name as a wikilink would name it.
func (r *Resolver) Lookup(nameOrPath string) (string, bool) {
	p, ok := r.resolve("", vault.Link{Target: nameOrPath})
	return p, ok && r.notes[p]
}
