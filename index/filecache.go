package index

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/vaultmem/vaultmem/graph"
)

// metaFilesVersion names the meta row that every sync changing the
// stored file list sets to a new random value. A process that knows the
// list at that version keeps it in memory (see fileCache), so its next
// sync need not read every row again nor build the link resolver anew:
// what a watcher does after each save, and a writer after each write.
const metaFilesVersion = "files_version"

// newVersion is a random version string.
func newVersion() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// fileCache is what a process keeps of the stored file list between
// syncs: every file the index holds at version gen, and a resolver over
// their paths (nil until a sync needs one). A sync takes it, changes it as
// it writes, and gives it back once its transaction is committed; one that
// fails drops it, and the next sync reads the list from the cache again.
type fileCache struct {
	gen      string
	files    map[string]fileState
	resolver *graph.Resolver
	// partial says files holds only the paths syncs of a few paths
	// looked at (see apply), those in looked, not every file of the
	// index; it has no resolver.
	partial bool
	looked  map[string]bool
}

// takeFiles hands the caller the cached file list if it is at version
// gen; nil otherwise. Until keepFiles, no other caller gets it.
func (ca *Cache) takeFiles(gen string) *fileCache {
	ca.ix.mu.Lock()
	defer ca.ix.mu.Unlock()
	c := ca.ix.files
	ca.ix.files = nil
	if c == nil || gen == "" || c.gen != gen {
		return nil
	}
	return c
}

// keepFiles makes c the cached file list.
func (ca *Cache) keepFiles(c *fileCache) {
	ca.ix.mu.Lock()
	ca.ix.files = c
	ca.ix.mu.Unlock()
}

// applyChanges brings c to version gen: changes are the new states of
// the paths a sync wrote (nil: gone).
func (c *fileCache) applyChanges(gen string, changes map[string]*fileState) {
	c.gen = gen
	for p, s := range changes {
		if s == nil {
			delete(c.files, p)
		} else {
			c.files[p] = *s
		}
	}
}

// resolverFor returns c's resolver with the files at paths added and
// those at removed gone, building it over every file of c when it has
// none yet.
func (c *fileCache) resolverFor(added, removed []string) resolver {
	if c.resolver == nil {
		gone := make(map[string]bool, len(removed))
		for _, p := range removed {
			gone[p] = true
		}
		files := make([]seen, 0, len(c.files)+len(added))
		for p, s := range c.files {
			if !gone[p] {
				files = append(files, seen{path: p, note: s.note})
			}
		}
		for _, p := range added {
			files = append(files, seen{path: p})
		}
		c.resolver = newResolver(files, nil).g
		return resolver{g: c.resolver}
	}
	for _, p := range removed {
		c.resolver.Remove(p)
	}
	for _, p := range added {
		c.resolver.Add(p, false)
	}
	return resolver{g: c.resolver}
}
