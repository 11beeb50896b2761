package vault

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
)

// DefaultMaxNoteSize is the size above which a markdown file is not read as
// a note, when no other limit is given.
const DefaultMaxNoteSize = 10 << 20

// IsHidden reports whether a vault-relative path lies in a dot-folder
// (.obsidian, .git, .vaultmem, .trash, ...), is a dot-file, or is an
// editor's temporary file (see IsEditorTemp): such paths are never notes,
// and the index does not hold them.
func IsHidden(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if strings.HasPrefix(part, ".") && part != "." {
			return true
		}
	}
	return IsEditorTemp(path.Base(p))
}

// IsEditorTemp reports whether a file name is an editor's temporary or
// backup file: "name~", "name.swp", "name.swx", "name.tmp", "#name#",
// vim's "4913" probe.
func IsEditorTemp(base string) bool {
	return strings.HasSuffix(base, "~") || strings.HasSuffix(base, ".swp") || strings.HasSuffix(base, ".swx") ||
		strings.HasSuffix(base, ".tmp") || strings.HasPrefix(base, "#") || base == "4913"
}

// ReadNote reads and parses the note at p. Errors: a *ParseError naming p
// (wrapping ErrNotFound when the file does not exist) when the file cannot
// be read, is a folder, is larger than maxSize (0: DefaultMaxNoteSize) or is
// binary. Problems that leave the note readable are in Note.Warnings.
func ReadNote(fsys fs.FS, p string, maxSize int64) (*markdown.Note, error) {
	if maxSize <= 0 {
		maxSize = DefaultMaxNoteSize
	}
	content, err := readNoteFile(fsys, p, maxSize)
	if err != nil {
		return nil, err
	}
	return markdown.Parse(p, content), nil
}

// readNoteFile reads a markdown file, refusing what is not a note.
func readNoteFile(fsys fs.FS, p string, maxSize int64) ([]byte, error) {
	info, err := fs.Stat(fsys, p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &markdown.ParseError{Path: p, Err: ErrNotFound}
		}
		return nil, &markdown.ParseError{Path: p, Err: unwrapPathError(err)}
	}
	if !info.Mode().IsRegular() {
		return nil, &markdown.ParseError{Path: p, Err: errors.New("not a regular file")}
	}
	if info.Size() > maxSize {
		return nil, &markdown.ParseError{Path: p, Err: fmt.Errorf("file is %s, over the %s note size limit", byteSize(info.Size()), byteSize(maxSize))}
	}
	content, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, &markdown.ParseError{Path: p, Err: unwrapPathError(err)}
	}
	if int64(len(content)) > maxSize { // grew since the stat
		return nil, &markdown.ParseError{Path: p, Err: fmt.Errorf("file is over the %s note size limit", byteSize(maxSize))}
	}
	if bytes.IndexByte(content[:min(len(content), 8000)], 0) >= 0 {
		return nil, &markdown.ParseError{Path: p, Err: errors.New("binary file (contains NUL bytes), not a markdown note")}
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
