package app

import (
	"container/list"
	"io/fs"
	"os"
	"sync"
	"time"
)

// noteCache is the App's read cache: the notes this App read or wrote lately (Notes.Read,
// Notes.Write), kept in memory and served again while the file keeps the
// size and time it had. A long-running server reads the same notes over
// and over; a one-shot command reads each once and never hits it.
type noteCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *cacheEntry, most recent first
	byKey map[string]*list.Element
}

type cacheEntry struct {
	n     NoteText
	size  int64
	mtime time.Time
}

func newNoteCache(max int) *noteCache {
	return &noteCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

// get returns the note at p if it is cached and the file, as info says,
// is unchanged.
func (r *noteCache) get(p string, info fs.FileInfo) (NoteText, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	el, ok := r.byKey[p]
	if !ok {
		return NoteText{}, false
	}
	e := el.Value.(*cacheEntry)
	if e.size != info.Size() || !e.mtime.Equal(info.ModTime()) {
		r.order.Remove(el)
		delete(r.byKey, p)
		return NoteText{}, false
	}
	r.order.MoveToFront(el)
	return e.n, true
}

// put caches n, with the file's current size and time.
func (r *noteCache) put(n NoteText, root *os.Root) {
	info, err := root.Stat(n.Path)
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if el, ok := r.byKey[n.Path]; ok {
		r.order.Remove(el)
	}
	r.byKey[n.Path] = r.order.PushFront(&cacheEntry{n, info.Size(), info.ModTime()})
	for r.order.Len() > r.max {
		last := r.order.Back()
		r.order.Remove(last)
		delete(r.byKey, last.Value.(*cacheEntry).n.Path)
	}
}
