// Package runstate is the record Dream's runs keep of themselves in the
// vault's state files (.vaultmem/state): the checkpoint (CheckpointFile,
// committed), what the last run that changed anything saw, so that the
// next run looks only at the memories changed since, with the merge git
// runs for it when two clones each rewrote it (MergeCheckpoint); and the
// journal (JournalFile, one machine's), what a run is about to write,
// written before its first write and removed after its last, so that a
// run that stops half way is finished by the next.
//
// It reads and writes through the small States interface it declares (a
// *vault.Writer has it), and decides nothing of a run: package dream
// plans the journal, finishes an interrupted run and says which memories
// the checkpoint lists; mergedriver calls MergeCheckpoint. It imports
// markdown (its parse errors), vault, and dream/proposal (the short form
// of a hash); never dream.
package runstate
