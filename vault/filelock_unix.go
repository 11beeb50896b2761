//go:build unix

package vault

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
)

// lockFlag opens the lock file as the flock package does, but never
// through a symbolic link: one put there by whoever can change .vaultmem
// would have the lock file made where they chose; and without waiting, so
// that a FIFO put in its place never blocks the open.
func lockFlag() int {
	flag := os.O_CREATE | os.O_RDONLY
	switch runtime.GOOS {
	case "aix", "solaris", "illumos": // their exclusive locks need a file open for writing
		flag = os.O_CREATE | os.O_RDWR
	}
	return flag | syscall.O_NOFOLLOW | syscall.O_NONBLOCK
}

// NoteHolder writes this process's pid into the lock file, for the next
// process that has to wait to say whom it waits for (best effort). Whoever
// can change .vaultmem (another user, in a vault shared with them) can
// put a link there: so the pid goes only into a lock file opened without
// following a symbolic link, that is a regular file of this user's with
// no other name (no hard link to a note or to any file of theirs).
func (l *FileLock) NoteHolder() {
	f, err := l.v.root.OpenFile(filepath.FromSlash(l.rel), os.O_WRONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || st.Nlink != 1 || int(st.Uid) != os.Getuid() {
		return
	}
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
}
