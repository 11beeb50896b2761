package app

import (
	"context"
	"errors"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
)

// Class says how a front end should take an error: a mistake in what was
// asked (the CLI's exit 2), a clash with the vault as it is (exit 3), the
// caller's cancellation (exit 130), something named that is not there
// (exit 1, with the CLI's hint), or anything else (exit 1). A server's
// answer carries its error's class, so a front end words it the same
// whether it answered in process or not.
type Class int

// The classes of errors.
const (
	Failure  Class = iota // anything else
	Invalid               // the request is wrong: a bad argument, a name that is no note
	Conflict              // the vault is not as the request assumed: a note changed, exists, is taken or archived, or another process holds its lock past the wait
	Canceled              // the caller's context ended
	NotFound              // what the request names is not there: a note, a task, a lesson (the CLI's exit 1)
)

// kinds is the one classification of errors: each sentinel a package
// below app returns, the class a front end takes it as, and the word an
// agent is told it is (Label), "" when the error's own message says so.
// The first row an error matches is its kind.
var kinds = []struct {
	err   error
	class Class
	label string
}{
	{vault.ErrConflict, Conflict, "conflict"},
	{vault.ErrExists, Conflict, ""},
	{lesson.ErrArchived, Conflict, ""},
	{vault.ErrOutside, Failure, "outside the vault"},
	{vault.ErrInvalidPath, Invalid, "invalid name"},
	{vault.ErrNotFound, NotFound, "not found"},
	{vault.ErrTooLarge, Failure, "too large"},
	{markdown.ErrBadFrontmatter, Failure, "bad frontmatter"},
	{memory.ErrNameTaken, Conflict, "conflict"},
	{memory.ErrInvalid, Invalid, ""}, // "invalid memory: <field> <why>"
	{task.ErrInvalid, Invalid, "invalid"},
	{task.ErrState, Conflict, "conflict"}, // it names the holder or the open children
	{task.ErrNoFocus, Failure, "no focus"},
	{task.ErrNotTask, Failure, "not a task"},
	{lesson.ErrInvalid, Invalid, ""},
	{ErrNoQuery, Invalid, "invalid query"},
	{recall.ErrBadBudget, Invalid, "invalid argument"},
	{index.ErrBadPage, Invalid, "invalid argument"},
	{index.ErrBadQuery, Invalid, "invalid argument"},
	{vault.ErrLockTimeout, Conflict, "busy"}, // it names the process holding the vault's lock
	{context.Canceled, Canceled, "canceled"},
	{context.DeadlineExceeded, Failure, "canceled"},
}

// kindOf returns the row of kinds err matches; ok is false for none.
func kindOf(err error) (class Class, label string, ok bool) {
	for _, k := range kinds {
		if errors.Is(err, k.err) {
			return k.class, k.label, true
		}
	}
	return Failure, "", false
}

// ClassOf returns the class of err: a ClassError's own, else its kind's
// (see kinds), else Failure.
func ClassOf(err error) Class {
	var ce *ClassError
	if errors.As(err, &ce) {
		return ce.Class
	}
	c, _, _ := kindOf(err)
	return c
}

// Label is the word that says what kind of failure err is, for an agent
// that reads the error ("not found", "conflict", "invalid argument"); ""
// when err's own message says it.
func Label(err error) string {
	_, l, _ := kindOf(err)
	return l
}

// ClassError is an error of a known class: one a front end makes of an
// error message and class from elsewhere (a server's answer), or a
// mistake in a request that no package names.
type ClassError struct {
	Class Class
	Err   error
}

func (e *ClassError) Error() string { return e.Err.Error() }
func (e *ClassError) Unwrap() error { return e.Err }

// invalid classes err as Invalid: the request, not the vault, is at fault.
func invalid(err error) error { return &ClassError{Class: Invalid, Err: err} }
