package vault

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// DefaultMaxNoteSize is the size above which a markdown file is not parsed
// (it is listed in Vault.Skipped instead), when Options.MaxNoteSize is 0.
const DefaultMaxNoteSize = 10 << 20

// Options configure Load. The zero value works.
type Options struct {
	// MaxNoteSize is the largest markdown file, in bytes, that is parsed;
	// 0 means DefaultMaxNoteSize.
	MaxNoteSize int64
}

func (o Options) maxSize() int64 {
	if o.MaxNoteSize > 0 {
		return o.MaxNoteSize
	}
	return DefaultMaxNoteSize
}

// Vault is every note of a vault, read at one moment.
type Vault struct {
	// Notes are the parsed notes, sorted by path.
	Notes []*Note
	// Attachments are the files that are link targets but not parsed notes:
	// non-markdown files, and markdown files that were skipped (too large,
	// binary). Sorted.
	Attachments []string
	// Skipped lists the files that could not be read as notes, each a
	// *ParseError naming the file and the reason. They never stop a load.
	Skipped []error
}

// IsHidden reports whether a vault-relative path lies in a dot-folder
// (.obsidian, .git, .vaultmem, .trash, ...) or is a dot-file: such paths
// are never notes.
func IsHidden(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if strings.HasPrefix(part, ".") && part != "." {
			return true
		}
	}
	return false
}

// Walk calls fn for every file of the vault that is not hidden (see
// [IsHidden]), in lexical order. Symbolic links are reported as they are
// (fn sees d.Type()&fs.ModeSymlink) and never followed into folders, so a
// symlink loop cannot make Walk run forever. An error reading a folder is
// passed to fn with that folder's path; fn's non-nil error stops the walk.
func Walk(ctx context.Context, fsys fs.FS, fn func(p string, d fs.DirEntry, err error) error) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if p != "." && strings.HasPrefix(path.Base(p), ".") {
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if err != nil {
			if p == "." {
				return err
			}
			return fn(p, d, err)
		}
		if d.IsDir() {
			return nil
		}
		return fn(p, d, nil)
	})
}

// ReadNote reads and parses the note at p. Errors: a *ParseError naming p
// (wrapping ErrNotFound when the file does not exist) when the file cannot
// be read, is a folder, is larger than maxSize (0: DefaultMaxNoteSize) or is
// binary. Problems that leave the note readable are in Note.Warnings.
func ReadNote(fsys fs.FS, p string, maxSize int64) (*Note, error) {
	content, err := readNoteFile(fsys, p, Options{MaxNoteSize: maxSize}.maxSize())
	if err != nil {
		return nil, err
	}
	return Parse(p, content), nil
}

// readNoteFile reads a markdown file, refusing what is not a note.
func readNoteFile(fsys fs.FS, p string, maxSize int64) ([]byte, error) {
	info, err := fs.Stat(fsys, p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &ParseError{Path: p, Err: ErrNotFound}
		}
		return nil, &ParseError{Path: p, Err: unwrapPathError(err)}
	}
	if !info.Mode().IsRegular() {
		return nil, &ParseError{Path: p, Err: errors.New("not a regular file")}
	}
	if info.Size() > maxSize {
		return nil, &ParseError{Path: p, Err: fmt.Errorf("file is %s, over the %s note size limit", byteSize(info.Size()), byteSize(maxSize))}
	}
	content, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, &ParseError{Path: p, Err: unwrapPathError(err)}
	}
	if int64(len(content)) > maxSize { // grew since the stat
		return nil, &ParseError{Path: p, Err: fmt.Errorf("file is over the %s note size limit", byteSize(maxSize))}
	}
	if bytes.IndexByte(content[:min(len(content), 8000)], 0) >= 0 {
		return nil, &ParseError{Path: p, Err: errors.New("binary file (contains NUL bytes), not a markdown note")}
	}
	return content, nil
}

// unwrapPathError drops the *fs.PathError layer, whose path the
// ParseError already names.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// Load reads every note of the vault in fsys, parsing in parallel. Files
// that cannot be read as notes are listed in Vault.Skipped and never stop
// the load; Load fails only when the vault root cannot be read or ctx ends.
func Load(ctx context.Context, fsys fs.FS, opts Options) (*Vault, error) {
	v := &Vault{}
	var paths []string
	err := Walk(ctx, fsys, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			v.Skipped = append(v.Skipped, &ParseError{Path: p, Err: unwrapPathError(err)})
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			info, err := fs.Stat(fsys, p)
			switch {
			case err != nil:
				v.Skipped = append(v.Skipped, &ParseError{Path: p, Err: fmt.Errorf("symbolic link: %w", unwrapPathError(err))})
				return nil
			case info.IsDir():
				v.Skipped = append(v.Skipped, &ParseError{Path: p, Err: errors.New("symbolic link to a folder: not followed")})
				return nil
			}
		}
		if IsNotePath(p) {
			paths = append(paths, p)
		} else {
			v.Attachments = append(v.Attachments, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk vault: %w", err)
	}

	notes := make([]*Note, len(paths))
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				notes[i], errs[i] = ReadNote(fsys, paths[i], opts.maxSize())
			}
		})
	}
feed:
	for i := range paths {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, n := range notes {
		if errs[i] != nil {
			v.Skipped = append(v.Skipped, errs[i])
			if !errors.Is(errs[i], ErrNotFound) { // gone since the walk
				v.Attachments = append(v.Attachments, paths[i])
			}
			continue
		}
		v.Notes = append(v.Notes, n)
	}
	sort.Strings(v.Attachments)
	return v, nil
}
