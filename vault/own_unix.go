//go:build unix

package vault

import (
	"io/fs"
	"syscall"
)

// nonBlock opens a file without waiting: a FIFO put where a file of
// vaultmem's should be never blocks the open.
const nonBlock = syscall.O_NONBLOCK

// otherNames reports whether the file fi has more than one name (hard
// links).
func otherNames(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}
