package vault

import (
	"errors"
	"fmt"
)

// Sentinel errors. Test for them with errors.Is.
var (
	// ErrNotFound is returned when a note does not exist.
	ErrNotFound = errors.New("vault: note not found")
	// ErrConflict is returned by the Writer when a note changed on disk since
	// it was read; the error is a *ConflictError.
	ErrConflict = errors.New("vault: note changed since it was read")
	// ErrExists is returned when creating a note that already exists.
	ErrExists = errors.New("vault: note already exists")
	// ErrInvalidPath is returned for a note path or name that is unsafe:
	// outside the vault, absolute, containing NUL, inside a dot-folder,
	// reserved or over-long. The error is a *PathError.
	ErrInvalidPath = errors.New("vault: invalid note path")
	// ErrOutside is returned for a note path that leads outside the vault's
	// notes: absolute, through "..", into a dot-folder (.obsidian, .git,
	// .vaultmem) or out through a symbolic link. The error is a *PathError
	// that also matches ErrInvalidPath.
	ErrOutside = errors.New("vault: path leads outside the vault")
	// ErrTooLarge is returned when a note to write is over the size limit
	// past which the index does not read notes.
	ErrTooLarge = errors.New("vault: note too large")
)

// PathError reports an unsafe or invalid note path.
type PathError struct {
	Path   string
	Reason string
	// Outside says the path leads outside the vault's notes (see
	// ErrOutside).
	Outside bool
	// link says the path is a symbolic link (which reads may follow).
	link bool
}

func (e *PathError) Error() string {
	return fmt.Sprintf("invalid note path %q: %s", e.Path, e.Reason)
}

// Is makes errors.Is(err, ErrInvalidPath) true, and errors.Is(err,
// ErrOutside) when the path leads outside the vault.
func (e *PathError) Is(target error) bool {
	return target == ErrInvalidPath || target == ErrOutside && e.Outside
}

// ConflictError reports that a note changed on disk since it was read.
type ConflictError struct {
	Path string
	// Expected is the hash the caller read; Actual is the hash on disk now
	// ("" when the file no longer exists or, on create, did not exist).
	Expected, Actual string
	// Other, on create, is the existing note or folder whose name differs
	// from Path's (or from one of its folders') only in case; "" when Path
	// itself exists.
	Other string
}

func (e *ConflictError) Error() string {
	switch {
	case e.Other != "":
		return fmt.Sprintf("%s: conflict: the vault has %s, whose name differs only in case; Obsidian (and macOS and Windows disks) take the two for one, so use that name", e.Path, e.Other)
	case e.Expected == "":
		return fmt.Sprintf("%s: conflict: the note already exists", e.Path)
	case e.Actual == "":
		return fmt.Sprintf("%s: conflict: the note was deleted since it was read", e.Path)
	}
	return fmt.Sprintf("%s: conflict: the note changed on disk since it was read (expected hash %.12s, found %.12s); re-read it and try again", e.Path, e.Expected, e.Actual)
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }
