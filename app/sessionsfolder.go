package app

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
)

// SessionsGitignore is the .gitignore vaultmem writes into the session
// notes' folder when it makes the folder: session notes stay with the
// person whose agent's sessions they record (see docs/git.md, "A team's
// vault over years": they are most of a shared vault's files and index,
// hold prompts, and a teammate needs the memories and lessons made from
// them, not the transcripts). A person who wants them shared deletes the
// file; vaultmem writes it only into a folder it makes.
const SessionsGitignore = "# vaultmem: session notes stay on this machine (delete this file to share them through git)\n*\n!.gitignore\n"

// ensureSessionsFolder makes the session notes' folder, its .gitignore
// first, when there is none; an existing folder is left as it is.
func (a *App) ensureSessionsFolder() error {
	dir := path.Clean(filepath.ToSlash(a.Config.Folders.Sessions))
	if dir == "." || dir == "" {
		return nil // session notes at the vault's top: nothing to keep apart
	}
	_, err := a.Vault.Root().Stat(filepath.FromSlash(dir))
	switch {
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("session notes: %w", err)
	}
	if _, err := a.Vault.WriteNew(dir+"/.gitignore", []byte(SessionsGitignore)); err != nil {
		return fmt.Errorf("session notes: %w", err)
	}
	return nil
}
