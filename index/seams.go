package index

import "database/sql"

// The Index owns the database (one *sql.DB, its lock and lifecycle, its
// in-memory caches under one mutex) and syncs it with the vault; each
// other job over the same database is a type of its own, reached from the
// Index, so that a consumer is handed the part it asks for: the link
// graph, the search side, the rows of the note kinds, the key-value
// cache, and (inside the package) the embedder, the vectors and their
// packs. Each holds nothing but the Index it reads: a value of one is
// valid while its Index is open.

// Graph answers from the links between notes and from their names:
// links, backlinks and edges, walks, orphans, the notes linked to or
// labelled like others, the notes naming people, and name resolution.
// Get it with [Index.Graph].
type Graph struct{ ix *Index }

// Searcher answers from the chunks of note text: keyword, vector and
// hybrid search, word frequencies, the listing and dating of notes, and
// the chunks around a hit. Get it with [Index.Searcher].
type Searcher struct{ ix *Index }

// Kinds answers from the rows the note kinds' packages read (memory,
// task, lesson): memories, proposals and session notes, tasks and their
// links, lessons and their versions, and notes whose frontmatter does not
// parse. Get it with [Index.Kinds].
type Kinds struct{ ix *Index }

// Cache is the index's key-value store of small derived facts that may
// vanish at any time (Get, Put), and the stored file list a sync keeps in
// memory for the next one. Get it with [Index.Cache].
type Cache struct{ ix *Index }

// vectorStore is the embedder (the configured one, or LSA fitted on the
// vault), the vectors in memory and the pack files other processes load
// them from.
type vectorStore struct{ ix *Index }

// Graph returns the index's link graph.
func (ix *Index) Graph() *Graph { return ix.graph }

// Searcher returns the index's search side.
func (ix *Index) Searcher() *Searcher { return ix.searcher }

// Kinds returns the index's rows of the note kinds.
func (ix *Index) Kinds() *Kinds { return ix.kinds }

// Cache returns the index's key-value cache.
func (ix *Index) Cache() *Cache { return ix.cache }

// newIndex is an Index over db, with its parts.
func newIndex(db *sql.DB, p string, opts Options, memory bool) *Index {
	ix := &Index{db: db, path: p, opts: opts, memory: memory, stmts: &statements{db: db}}
	ix.graph = &Graph{ix}
	ix.searcher = &Searcher{ix}
	ix.kinds = &Kinds{ix}
	ix.cache = &Cache{ix}
	ix.vstore = &vectorStore{ix}
	return ix
}
