//go:build !linux

package vault

import "io/fs"

// kernelHolder is 0 here: no portable way to ask the kernel who holds a
// lock; the pid written in the lock file is used.
func kernelHolder(fs.FileInfo) int { return 0 }

// processUser is "" here: the lock file's owner stands for the holder's
// user.
func processUser(int) string { return "" }
