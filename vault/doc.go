// Package vault is an Obsidian vault on disk: its notes (every .md file
// outside dot-folders, read through one os.Root so that no path leads out
// of the folder), the folders vaultmem keeps in it (.vaultmem: config,
// state, cache, locks) and the one safe way to change a note: the
// [Writer], atomic, serialised across processes by a lock file, and
// refusing to overwrite a note that changed since it was read.
//
// A vault is shared, so any file in it may be someone else's: the files
// vaultmem keeps for itself (.gitattributes, .vaultmem and everything in
// it, the views) are never written through a symbolic link anywhere on
// their path ([Vault.CheckLinks], a [LinkError]); a .vaultmem that
// another user owns or may change is refused until the user trusts the
// vault ([CheckOwner], [Trust]); and a write waits for the lock another
// process holds only so long ([DefaultLockTimeout]), then fails with a
// [LockError] naming the holder.
//
// Reads go through an [fs.FS] with slash-separated, vault-relative paths,
// so tests run on [testing/fstest.MapFS]. A note's text is read by package
// markdown, the only vaultmem package vault imports (.ci/run checks it).
package vault
