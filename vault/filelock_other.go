//go:build !unix

package vault

import (
	"os"
	"strconv"
)

// lockFlag opens the lock file as the flock package does.
func lockFlag() int { return os.O_CREATE | os.O_RDONLY }

// NoteHolder writes this process's pid into the lock file, for the next
// process that has to wait to say whom it waits for (best effort).
func (l *FileLock) NoteHolder() {
	_ = os.WriteFile(l.Path(), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644)
}
