package dream

import (
	"context"
	"errors"

	"github.com/vaultmem/vaultmem/gitrepo"
)

// commit makes the run's changes one git commit of exactly the files it
// wrote (whatever else is staged stays staged, uncommitted), and returns
// its id. It is an error when the vault is in no git repository or git
// fails; the run's writes stand either way.
func (d *Dreamer) commit(ctx context.Context, rep *Report) (string, error) {
	id, err := gitrepo.Commit(ctx, d.v.Dir, rep.Changed, commitMessage(rep))
	if errors.Is(err, gitrepo.ErrNoRepository) {
		return "", errors.New("dream.commit is set, but the vault is in no git repository")
	}
	return id, err
}
