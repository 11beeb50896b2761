package vault

import (
	"context"
	"errors"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// listFast is Files for the vault folder dir (see listFolders).
var listFast = listFolders

// listFolders is Files for the vault folder dir: each folder is opened
// relative to its parent without following links (O_NOFOLLOW), as
// os.Root would, listed with getdents and its entries stat'ed relative
// to it, on as many goroutines as there are CPUs.
func listFolders(ctx context.Context, dir string) ([]File, error) {
	fd, err := openDir(unix.AT_FDCWD, dir)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: ".", Err: err}
	}
	l := &lister{ctx: ctx, spare: make(chan struct{}, runtime.GOMAXPROCS(0)-1)}
	root := &folder{}
	l.list(root, fd, "")
	l.wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if root.err != nil {
		return nil, root.err
	}
	out := make([]File, 0, root.count())
	root.flatten(&out)
	return out, nil
}

// lister lists folders; spare holds a token for each goroutine that may
// list a subfolder beside the one listing its parent.
type lister struct {
	ctx   context.Context
	spare chan struct{}
	wg    sync.WaitGroup
}

// folder is what listing one folder found, in name order: files and
// subfolders (whose own lists are filled in, maybe by another goroutine).
type folder struct {
	items []item
	err   error // the folder could not be opened or read
}

type item struct {
	file File
	sub  *folder // a subfolder at file.Path, instead of a file
}

// count is how many files flatten appends: a slice grown by appending,
// with its pointers copied under the collector's write barriers, cost
// more than the listing's getdents calls.
func (f *folder) count() int {
	n := 0
	for _, it := range f.items {
		switch {
		case it.sub == nil:
			n++
		default:
			if it.sub.err != nil {
				n++
			}
			n += it.sub.count()
		}
	}
	return n
}

// flatten appends the files of f and its subfolders in lexical order: a
// subfolder that could not be read is listed with its error.
func (f *folder) flatten(out *[]File) {
	for _, it := range f.items {
		if it.sub == nil {
			*out = append(*out, it.file)
			continue
		}
		if it.sub.err != nil {
			*out = append(*out, File{Path: it.file.Path, Err: it.sub.err})
		}
		it.sub.flatten(out)
	}
}

// list fills f with the entries of the open folder fd, at prefix in the
// vault, and closes fd.
func (l *lister) list(f *folder, fd int, prefix string) {
	defer unix.Close(fd)
	names, err := readNames(fd)
	if err != nil {
		f.err = &fs.PathError{Op: "readdirent", Path: strings.TrimSuffix(prefix, "/"), Err: err}
	}
	slices.Sort(names)
	f.items = make([]item, 0, len(names))
	for _, name := range names {
		if strings.HasPrefix(name, ".") {
			continue
		}
		if l.ctx.Err() != nil {
			return
		}
		p := prefix + name
		var st unix.Stat_t
		err := ignoringEINTR(func() error { return unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) })
		switch {
		case errors.Is(err, unix.ENOENT): // vanished mid-walk: simply gone
			continue
		case err != nil:
			f.items = append(f.items, item{file: File{Path: p, Err: &fs.PathError{Op: "lstat", Path: p, Err: err}}})
			continue
		case st.Mode&unix.S_IFMT == unix.S_IFDIR:
			sub := &folder{}
			f.items = append(f.items, item{file: File{Path: p}, sub: sub})
			subfd, err := openDir(fd, name)
			if err != nil {
				if !errors.Is(err, unix.ENOENT) {
					sub.err = &fs.PathError{Op: "open", Path: p, Err: err}
				}
				continue
			}
			select {
			case l.spare <- struct{}{}:
				l.wg.Go(func() {
					defer func() { <-l.spare }()
					l.list(sub, subfd, p+"/")
				})
			default:
				l.list(sub, subfd, p+"/")
			}
			continue
		}
		if IsEditorTemp(name) {
			continue
		}
		f.items = append(f.items, item{file: File{Path: p, Size: st.Size, ModTime: st.Mtim.Nano(), Symlink: st.Mode&unix.S_IFMT == unix.S_IFLNK}})
	}
}

// openDir opens the folder name in the folder dirfd, not following a
// symbolic link.
func openDir(dirfd int, name string) (int, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		return err
	})
	return fd, err
}

// readNames returns the names in the open folder fd, "." and ".." left
// out; with an error, those read before it.
func readNames(fd int) ([]string, error) {
	buf := make([]byte, 32<<10)
	var names []string
	for {
		var n int
		err := ignoringEINTR(func() (err error) {
			n, err = unix.Getdents(fd, buf)
			return err
		})
		if err != nil {
			return names, err
		}
		if n <= 0 {
			return names, nil
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
}

func ignoringEINTR(fn func() error) error {
	for {
		if err := fn(); err != unix.EINTR {
			return err
		}
	}
}
