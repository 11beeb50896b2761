package rank

// Scored is a chunk with a similarity or rank score.
type Scored struct {
	ID    int64
	Score float64
}

// Better orders ranked chunks: higher score first, then lower id.
func Better(a, b Scored) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return a.ID < b.ID
}

// Heap keeps the k best scores seen: with container/heap it is a
// min-heap, the worst of them at h[0].
type Heap []Scored

// Len is the number of chunks in h.
func (h Heap) Len() int { return len(h) }

// Less reports whether chunk i is worse than chunk j.
func (h Heap) Less(i, j int) bool { return Better(h[j], h[i]) }

// Swap swaps chunks i and j.
func (h Heap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

// Push appends x, a Scored.
func (h *Heap) Push(x any) { *h = append(*h, x.(Scored)) }

// Pop removes and returns the last chunk.
func (h *Heap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Filter is the notes a query keeps: those of Only (every note when nil),
// but those in Hide; and of their chunks, those not in Chunks.
type Filter struct {
	Only map[int64]bool
	Hide map[int64]bool
	// Chunks are chunks no query matches, whichever note holds them (the
	// index's boilerplate).
	Chunks map[int64]bool
}

// KeepChunk reports whether f keeps the chunk with the id chunk of the
// note with the id note.
func (f Filter) KeepChunk(note, chunk int64) bool { return f.Keep(note) && !f.Chunks[chunk] }

// Keep reports whether f keeps the note with the id note.
func (f Filter) Keep(note int64) bool { return (f.Only == nil || f.Only[note]) && !f.Hide[note] }

// All reports whether f keeps every chunk of every note.
func (f Filter) All() bool { return f.Only == nil && len(f.Hide) == 0 && len(f.Chunks) == 0 }
