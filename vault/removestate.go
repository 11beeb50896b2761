package vault

import (
	"context"
	"fmt"
	"path/filepath"
)

// RemoveState deletes vaultmem's own state file name (see
// [Writer.ReadState]) if it still has the hash expected ([AnyHash] for
// whatever is there): a state file that records work in progress (Dream's
// journal) goes once the work is done. A file already gone is no error.
//
// Errors: a *ConflictError (ErrConflict) when the file changed since it
// was read; a *PathError (ErrInvalidPath) for a name that is not a path
// under the state folder; the I/O error otherwise.
func (w *Writer) RemoveState(ctx context.Context, name, expected string) (err error) {
	rel, err := statePath(name)
	if err != nil {
		return err
	}
	l, err := w.begin(ctx, "remove", rel)
	if err != nil {
		return err
	}
	defer release(l.unlock, &err)
	if !l.found {
		return nil
	}
	if err := compare(rel, l.cur, l.found, expected); err != nil {
		return err
	}
	if err := w.v.root.Remove(filepath.FromSlash(l.at)); err != nil {
		return fmt.Errorf("remove %s: %w", rel, err)
	}
	return nil
}
