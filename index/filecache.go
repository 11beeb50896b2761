package index

import (
	"crypto/rand"
	"encoding/hex"
	"maps"
)

// metaFilesVersion names the meta row that every sync changing the
// stored file list sets to a new random value. A process that knows the
// list at that version keeps it in memory (see cacheFiles), so its next
// sync need not read every row again: what a watcher does after each save.
const metaFilesVersion = "files_version"

// newVersion is a random version string.
func newVersion() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// cachedFiles returns the in-memory file list if it is at version gen;
// nil otherwise. The caller must not change it.
func (ix *Index) cachedFiles(gen string) map[string]fileState {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if gen == "" || gen != ix.filesGen {
		return nil
	}
	return ix.files
}

// cacheFiles keeps base, with changes applied (nil: the path is gone), as
// the file list at version gen. base is not modified.
func (ix *Index) cacheFiles(gen string, base map[string]fileState, changes map[string]*fileState) {
	m := base
	if len(changes) > 0 {
		m = maps.Clone(base)
		for p, s := range changes {
			if s == nil {
				delete(m, p)
			} else {
				m[p] = *s
			}
		}
	}
	ix.mu.Lock()
	ix.files, ix.filesGen = m, gen
	ix.mu.Unlock()
}
