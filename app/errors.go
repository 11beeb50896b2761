package app

import (
	"context"
	"errors"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
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

// ClassOf returns the class of err.
func ClassOf(err error) Class {
	var ce *ClassError
	switch {
	case err == nil:
		return Failure
	case errors.As(err, &ce):
		return ce.Class
	case errors.Is(err, context.Canceled):
		return Canceled
	case errors.Is(err, vault.ErrConflict), errors.Is(err, vault.ErrExists), errors.Is(err, lesson.ErrArchived),
		errors.Is(err, memory.ErrNameTaken), errors.Is(err, task.ErrState), errors.Is(err, vault.ErrLockTimeout):
		return Conflict
	case errors.Is(err, ErrNoQuery), errors.Is(err, index.ErrBadQuery), errors.Is(err, recall.ErrBadBudget),
		errors.Is(err, index.ErrBadPage), errors.Is(err, task.ErrInvalid),
		errors.Is(err, lesson.ErrInvalid), errors.Is(err, memory.ErrInvalid), errors.Is(err, vault.ErrInvalidPath):
		return Invalid
	case errors.Is(err, vault.ErrNotFound):
		return NotFound
	}
	return Failure
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
