package app

import (
	"errors"
	"io/fs"
	"syscall"
)

// readOnly reports whether err says the vault's disk or folder may not be
// written (a mounted backup, a read-only share): what a reader of the
// vault works around, where a writer fails.
func readOnly(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}
