//go:build !unix

package vault

import (
	"os"
	"strconv"
)

// lockFlag opens the lock file as the flock package does.
func lockFlag() int { return os.O_CREATE | os.O_RDONLY }

// noteHolder writes this process's pid into the lock file, for a writer
// that has to wait to say whom it waits for (best effort).
func (w *Writer) noteHolder() {
	_ = os.WriteFile(w.lock.Path(), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644)
}
