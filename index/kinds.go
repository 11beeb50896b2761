package index

import (
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/task"
)

// The index holds the rows of the note kinds, each read by its own
// package (memory.Read, task.Read, lesson.Read), and answers the stores of
// those packages through the interfaces they declare.
var (
	_ memory.Index = (*Index)(nil)
	_ task.Index   = (*Index)(nil)
	_ lesson.Index = (*Index)(nil)
)
