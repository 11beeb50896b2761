// Package watch keeps a vault's index current while humans, git and
// agents edit the notes: it watches every folder of the vault with
// fsnotify, gathers bursts of events (an editor's atomic save, a branch
// switch of a thousand files) into one batch after a short quiet
// period, and brings the index up to date with one incremental sync per
// batch.
//
// Linux has no recursive watch, so the watcher keeps one watch per
// folder and reconciles that set with the folders on disk before every
// sync: a folder created (even by mkdir -p, with files written before its
// watch existed), renamed or removed is picked up, because the sync that
// follows walks the whole vault and reads every file whose size or time
// changed. An event queue overflow simply triggers such a sync.
//
// One watcher runs per vault: [New] takes a lock file in .vaultmem/tmp/,
// and [Running] tells readers (a CLI search) that a live watcher keeps
// the cache current so they can skip their own sync.
//
// It imports vault and index (through the small Index interface it
// declares); nothing but cmd/vaultmem imports it.
package watch
