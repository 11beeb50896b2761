package index

import (
	"context"
	"io/fs"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/task"
)

// Stores is the index as the note kinds' stores (memory, task, lesson)
// and Dream ask for it, through the interfaces they declare: the rows of
// the kinds (Kinds), names and links (Graph), and Refresh for the notes a
// store writes. The optional interfaces those packages look for
// (memory.TextSums, lesson.ChangeIndex, the lessons' heads) are Kinds'.
// Get it with [Index.Stores].
type Stores struct {
	*Kinds
	*Graph
	ix *Index
}

// Stores returns the index as the note kinds' stores and Dream ask for it;
// a nil Index gives a Stores whose every call panics, as the Index's
// would (a process that opened no index, whose stores are never asked).
func (ix *Index) Stores() Stores {
	if ix == nil {
		return Stores{}
	}
	return Stores{Kinds: ix.kinds, Graph: ix.graph, ix: ix}
}

// Refresh is [Index.Refresh]: the stores refresh the notes they write.
func (s Stores) Refresh(ctx context.Context, fsys fs.FS, paths ...string) error {
	return s.ix.Refresh(ctx, fsys, paths...)
}

// Recall is the index as recall asks for it (recall.Index): the search
// side (Searcher), the notes linked to, labelled like or naming others
// (Graph), and the cache of its classifications (Cache). Get it with
// [Index.Recall].
type Recall struct {
	*Searcher
	*Graph
	*Cache
}

// Recall returns the index as recall asks for it.
func (ix *Index) Recall() Recall {
	return Recall{Searcher: ix.searcher, Graph: ix.graph, Cache: ix.cache}
}

// The index holds the rows of the note kinds, each read by its own
// package (memory.Read, task.Read, lesson.Read), and answers the stores of
// those packages through the interfaces they declare; it brings a lesson
// Matcher up to date by the lessons a change touched (ChangeIndex).
var (
	_ memory.Index       = Stores{}
	_ memory.TextSums    = Stores{}
	_ task.Index         = Stores{}
	_ lesson.Index       = Stores{}
	_ lesson.ChangeIndex = Stores{}
	// lesson's review lists the lessons by their heads when its index can.
	_ interface {
		LessonHeads(ctx context.Context) ([]lesson.Lesson, error)
	} = Stores{}
)
