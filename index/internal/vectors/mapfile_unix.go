//go:build unix

package vectors

import (
	"os"

	"golang.org/x/sys/unix"
)

// MapFile maps the file at p into memory, read-only, and returns its
// bytes and the function that unmaps them. The file must not be changed
// in place while it is mapped: the caches mapped are only ever replaced
// by a rename (see vault.WriteCacheFile), which leaves the mapped file intact.
func MapFile(p string) ([]byte, func() error, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if info.Size() == 0 {
		return nil, func() error { return nil }, nil
	}
	b, err := unix.Mmap(int(f.Fd()), 0, int(info.Size()), unix.PROT_READ, unix.MAP_SHARED|mapPopulate)
	if err != nil {
		return nil, nil, err
	}
	return b, func() error { return unix.Munmap(b) }, nil
}
