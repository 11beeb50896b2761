package graph

import (
	"slices"
	"sync"

	"github.com/vaultmem/vaultmem/vault"
)

// Edge is one link of the graph. Source and Target are vault-relative slash
// paths; an unresolved edge has Target set to the link's target as written
// and Resolved false.
type Edge struct {
	Source   string `json:"source"`
	Target   string `json:"target"`
	Resolved bool   `json:"resolved"`
	// Heading is the heading fragment ("H1#H2" when nested), Block the block
	// id without '^', Label the display text ("" when none).
	Heading     string `json:"heading"`
	Block       string `json:"block"`
	Label       string `json:"label"`
	Embed       bool   `json:"embed"`
	Frontmatter bool   `json:"frontmatter"`
	Markdown    bool   `json:"markdown"`
	Line        int    `json:"line"`
	// key is the lower-cased name the link uses, for re-resolution.
	key  string
	link vault.Link
}

// Graph is the link graph of a vault. Its methods are safe for concurrent
// use.
type Graph struct {
	mu sync.RWMutex
	// byPath maps lower-cased paths of every file (notes and attachments)
	// to their paths.
	byPath map[string]string
	// byKey maps a lower-cased name to the files that have it.
	byKey map[string][]string
	notes map[string]bool
	out   map[string][]Edge
	// in maps a resolved target to the sources that link to it.
	in map[string]map[string]struct{}
	// naming maps a link key to the sources with a link that uses it.
	naming map[string]map[string]struct{}
}

// New builds the graph of notes; attachments are the other files that
// links may name (images, PDFs, unparsed notes).
func New(notes []*vault.Note, attachments []string) *Graph {
	g := &Graph{
		byPath: make(map[string]string, len(notes)+len(attachments)),
		byKey:  make(map[string][]string, len(notes)+len(attachments)),
		notes:  make(map[string]bool, len(notes)),
		out:    make(map[string][]Edge, len(notes)),
		in:     make(map[string]map[string]struct{}),
		naming: make(map[string]map[string]struct{}),
	}
	for _, n := range notes {
		g.addFile(n.Path)
		g.notes[n.Path] = true
	}
	for _, a := range attachments {
		g.addFile(a)
	}
	for _, n := range notes {
		g.setLinks(n.Path, n.Links)
	}
	return g
}

// FromVault builds the graph of a loaded vault.
func FromVault(v *vault.Vault) *Graph { return New(v.Notes, v.Attachments) }

func (g *Graph) addFile(p string) {
	if _, ok := g.byPath[lower(p)]; ok {
		return
	}
	g.byPath[lower(p)] = p
	k := FileKey(p)
	g.byKey[k] = append(g.byKey[k], p)
}

func (g *Graph) removeFile(p string) {
	delete(g.byPath, lower(p))
	k := FileKey(p)
	g.byKey[k] = slices.DeleteFunc(g.byKey[k], func(s string) bool { return s == p })
	if len(g.byKey[k]) == 0 {
		delete(g.byKey, k)
	}
}

// setLinks replaces the outgoing edges of source.
func (g *Graph) setLinks(source string, links []vault.Link) {
	g.clearLinks(source)
	edges := make([]Edge, len(links))
	for i, l := range links {
		e := Edge{
			Source: source, Heading: l.Heading, Block: l.Block, Label: l.Label,
			Embed: l.Embed, Frontmatter: l.Frontmatter, Markdown: l.Markdown, Line: l.Line,
			key: LinkKey(l.Target), link: l,
		}
		g.resolveEdge(&e)
		edges[i] = e
		addTo(g.naming, e.key, source)
	}
	g.out[source] = edges
}

func (g *Graph) clearLinks(source string) {
	for _, e := range g.out[source] {
		removeFrom(g.naming, e.key, source)
		if e.Resolved {
			removeFrom(g.in, e.Target, source)
		}
	}
	delete(g.out, source)
}

// resolveEdge sets Target and Resolved and keeps the backlink index right.
// The caller removes the old backlink entry first if the edge had one.
func (g *Graph) resolveEdge(e *Edge) {
	if p, ok := g.resolve(e.Source, e.link); ok {
		e.Target, e.Resolved = p, true
		addTo(g.in, p, e.Source)
		return
	}
	e.Target, e.Resolved = e.link.Target, false
}

// reresolve resolves again every link that uses key, after a file with
// that key appeared or went.
func (g *Graph) reresolve(key string) {
	for source := range g.naming[key] {
		edges := g.out[source]
		for i := range edges {
			if edges[i].key == key && edges[i].Resolved {
				removeFrom(g.in, edges[i].Target, source)
			}
		}
		// Re-add backlinks for every resolved edge of the source: removal
		// above dropped the source from targets other edges may share.
		for i := range edges {
			if edges[i].key == key {
				g.resolveEdge(&edges[i])
			} else if edges[i].Resolved {
				addTo(g.in, edges[i].Target, source)
			}
		}
	}
}

// Add adds or replaces a note; links of other notes that name it are
// resolved again.
func (g *Graph) Add(n *vault.Note) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, exists := g.byPath[lower(n.Path)]; !exists {
		g.addFile(n.Path)
		g.reresolve(FileKey(n.Path))
	}
	g.notes[n.Path] = true
	g.setLinks(n.Path, n.Links)
}

// AddFile adds an attachment (a file that is not a parsed note).
func (g *Graph) AddFile(p string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, exists := g.byPath[lower(p)]; !exists {
		g.addFile(p)
		g.reresolve(FileKey(p))
	}
}

// Remove removes a note or attachment; links to it from other notes are
// resolved again (to another file of the same name, or left unresolved).
func (g *Graph) Remove(p string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.clearLinks(p)
	delete(g.notes, p)
	if _, exists := g.byPath[lower(p)]; exists {
		g.removeFile(p)
		g.reresolve(FileKey(p))
	}
}

func addTo(m map[string]map[string]struct{}, k, v string) {
	s := m[k]
	if s == nil {
		s = make(map[string]struct{})
		m[k] = s
	}
	s[v] = struct{}{}
}

func removeFrom(m map[string]map[string]struct{}, k, v string) {
	if s := m[k]; s != nil {
		delete(s, v)
		if len(s) == 0 {
			delete(m, k)
		}
	}
}
