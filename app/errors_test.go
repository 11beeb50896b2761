package app_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/vaultmem/vaultmem/app"
)

// TestErrorKinds: each sentinel a front end meets has one class (the
// CLI's exit code) and one label (the MCP tool error's first words),
// wrapped or not.
func TestErrorKinds(t *testing.T) {
	for _, tc := range []struct {
		err   error
		class app.Class
		label string
	}{
		{app.ErrNotFound, app.NotFound, "not found"},
		{app.ErrInvalidPath, app.Invalid, "invalid name"},
		{app.ErrOutside, app.Failure, "outside the vault"},
		{app.ErrTooLarge, app.Failure, "too large"},
		{app.ErrBadFrontmatter, app.Failure, "bad frontmatter"},
		{app.ErrNameTaken, app.Conflict, "conflict"},
		{app.ErrMemoryInvalid, app.Invalid, ""},
		{app.ErrTaskInvalid, app.Invalid, "invalid"},
		{app.ErrTaskState, app.Conflict, "conflict"},
		{app.ErrNoFocus, app.Failure, "no focus"},
		{app.ErrNotTask, app.Failure, "not a task"},
		{app.ErrNoQuery, app.Invalid, "invalid query"},
		{app.ErrBadBudget, app.Invalid, "invalid argument"},
		{app.ErrBadPage, app.Invalid, "invalid argument"},
		{app.ErrBadQuery, app.Invalid, "invalid argument"},
		{app.ErrLockTimeout, app.Conflict, "busy"},
		{context.Canceled, app.Canceled, "canceled"},
		{context.DeadlineExceeded, app.Failure, "canceled"},
		{errors.New("disk on fire"), app.Failure, ""},
		{&app.ClassError{Class: app.Invalid, Err: app.ErrNotFound}, app.Invalid, "not found"},
	} {
		for _, err := range []error{tc.err, fmt.Errorf("open x.md: %w", tc.err)} {
			if c := app.ClassOf(err); c != tc.class {
				t.Errorf("ClassOf(%v) = %v, want %v", err, c, tc.class)
			}
			if l := app.Label(err); l != tc.label {
				t.Errorf("Label(%v) = %q, want %q", err, l, tc.label)
			}
		}
	}
}
