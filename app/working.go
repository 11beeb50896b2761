package app

import (
	"slices"
	"sync"

	"github.com/vaultmem/vaultmem/recall"
)

// WorkingMemory is L1, one agent session's working memory: the context
// recall gave it and the notes it read or wrote, kept by a front end
// that lives as long as the session (an MCP server; the hooks keep the
// same in the session's state). Recall through it gives nothing the
// agent was given already, searching on for what it does not have, and
// ranks the notes it just wrote a little higher (see recall.Request's
// Given and Recent). It is in memory only, bounded, and safe for
// concurrent use; the zero value is empty and ready.
type WorkingMemory struct {
	mu     sync.Mutex
	given  []string // recall.ItemKey keys and note paths, oldest first
	recent []string // note paths, oldest first
}

// The bounds of a WorkingMemory: what a session is given over a long
// day, and the notes that count as "just written".
const (
	maxWorkingGiven  = 2000
	maxWorkingRecent = 16
)

// Request returns req with the session's working memory in it: what the
// agent has (Given) and the notes it just wrote (Recent).
func (w *WorkingMemory) Request(req RecallRequest) RecallRequest {
	w.mu.Lock()
	defer w.mu.Unlock()
	req.Given = append(slices.Clone(req.Given), w.given...)
	req.Recent = append(slices.Clone(req.Recent), w.recent...)
	return req
}

// Gave records the items of res as given to the agent.
func (w *WorkingMemory) Gave(res *RecallResult) {
	if res == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, it := range res.Items {
		if it.Path != "" {
			w.given = keep(w.given, recall.ItemKey(it.Path, it.Heading, it.Block), maxWorkingGiven)
		}
	}
}

// Read records that the agent read the note at path whole: none of its
// chunks is given to it again.
func (w *WorkingMemory) Read(path string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.given = keep(w.given, path, maxWorkingGiven)
}

// Wrote records that the agent wrote the note at path: a note it works
// on, ranked a little higher. It is still given (a note written in part,
// a memory the agent may no longer hold after its context was compacted).
func (w *WorkingMemory) Wrote(path string) {
	if path == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.recent = keep(w.recent, path, maxWorkingRecent)
}

// keep appends s to list (moving it to the end when there), dropping the
// oldest entries past max.
func keep(list []string, s string, max int) []string {
	list = slices.DeleteFunc(list, func(x string) bool { return x == s })
	list = append(list, s)
	if len(list) > max {
		list = slices.Delete(list, 0, len(list)-max)
	}
	return list
}
