package mcpserver

import (
	"container/list"
	"io/fs"
	"os"
	"sync"
	"time"
)

// recent is L1: the notes this server read or wrote lately, kept in
// memory and served again while the file keeps the size and time it had.
type recent struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *entry, most recent first
	byKey map[string]*list.Element
}

type entry struct {
	n     note
	size  int64
	mtime time.Time
}

func newRecent(max int) *recent {
	return &recent{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

// get returns the note at p if it is cached and the file, as info says,
// is unchanged.
func (r *recent) get(p string, info fs.FileInfo) (note, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	el, ok := r.byKey[p]
	if !ok {
		return note{}, false
	}
	e := el.Value.(*entry)
	if e.size != info.Size() || !e.mtime.Equal(info.ModTime()) {
		r.order.Remove(el)
		delete(r.byKey, p)
		return note{}, false
	}
	r.order.MoveToFront(el)
	return e.n, true
}

// put caches n, with the file's current size and time.
func (r *recent) put(n note, root *os.Root) {
	info, err := root.Stat(n.path)
	if err != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if el, ok := r.byKey[n.path]; ok {
		r.order.Remove(el)
	}
	r.byKey[n.path] = r.order.PushFront(&entry{n, info.Size(), info.ModTime()})
	for r.order.Len() > r.max {
		last := r.order.Back()
		r.order.Remove(last)
		delete(r.byKey, last.Value.(*entry).n.path)
	}
}
