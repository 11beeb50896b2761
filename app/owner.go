package app

import (
	"context"
	"time"

	"github.com/vaultmem/vaultmem/gitrepo"
)

// ownerTimeout bounds the git call that finds who the user is: a hook
// must answer in time even when git hangs on a broken repository.
const ownerTimeout = 2 * time.Second

// Owner is who the user is, as a user memory's owner (see
// memory.OwnerKey): owner in the user's own config, else git's
// user.email in the vault (the repository's, else the user's global),
// else "" (nobody known: a new user memory names no owner). It is found
// once per App, when first needed.
func (a *App) Owner() string {
	a.ownerOnce.Do(func() {
		if a.owner = a.Config.Owner; a.owner != "" {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), ownerTimeout)
		defer cancel()
		a.owner = gitrepo.Email(ctx, a.Vault.Dir)
	})
	return a.owner
}
