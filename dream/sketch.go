package dream

import (
	"github.com/vaultmem/vaultmem/dream/similar"
	"github.com/vaultmem/vaultmem/vault"
)

// An incremental run compares the changed memories with every other
// through their sketches (see similar.Sketch), kept between runs in the
// cache, and reads from disk only the changed memories and those a sketch
// says may pair with one.

// sketchFile is the cache of sketches (git-ignored, rebuildable).
const sketchFile = vault.CacheDir + "/dream-sketches.gob"

// keptSketches are the sketches to cache after a run: those of the live
// memories it leaves unchanged on disk (a memory it wrote is sketched
// again when next read), made now or, for a memory it did not read, from
// old (the cache it read).
func keptSketches(p *plan, old map[string]similar.Sketch) map[string]similar.Sketch {
	out := map[string]similar.Sketch{}
	for _, im := range p.indexed {
		switch m := p.by[im.Path]; {
		case m != nil && !m.archived && m.Next() == nil && m.Hash == im.Hash:
			out[im.Path] = similar.SketchOf(m.Memory)
		case m == nil && old[im.Path].Hash == im.Hash:
			out[im.Path] = old[im.Path]
		}
	}
	return out
}

// sketchPaths returns, by path, the sketches of the live indexed memories:
// the loaded ones made now, the others from the cache.
func sketchPaths(p *plan, cached map[string]similar.Sketch) ([]string, []similar.Sketch) {
	var paths []string
	var sks []similar.Sketch
	for _, im := range p.indexed {
		if p.gone[im.Path] {
			continue
		}
		if m := p.by[im.Path]; m != nil {
			paths, sks = append(paths, im.Path), append(sks, similar.SketchOf(m.Memory))
		} else if sk, ok := cached[im.Path]; ok && sk.Hash == im.Hash {
			paths, sks = append(paths, im.Path), append(sks, sk)
		}
	}
	return paths, sks
}
