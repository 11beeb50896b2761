package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/vault"
)

// sessionsRule is the .gitignore rule (relative to .vaultmem) that keeps
// the agent sessions' state out of git: it holds their prompts and cwd,
// one machine's running work.
var sessionsRule = strings.TrimPrefix(vault.StateDir, vault.DotDir+"/") + "/" + session.StateFolder + "/"

// checkGitignore reports a .vaultmem/.gitignore that does not ignore the
// sessions' state, and with fix appends the rule to it (or writes the
// whole file when there is none), keeping every line it has.
func (a *App) checkGitignore(fix bool, rep *Checkup) error {
	name := filepath.FromSlash(vault.GitignoreFile)
	b, err := a.Vault.Root().ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("doctor: %w", err)
	}
	if ignores(string(b), strings.TrimSuffix(sessionsRule, "/")) {
		return nil
	}
	rep.GitignoreLacks = sessionsRule
	if !fix {
		return nil
	}
	if err != nil { // no .gitignore at all
		if err := a.Vault.EnsureDir(vault.DotDir); err != nil {
			return fmt.Errorf("doctor: %w", err)
		}
		rep.GitignoreFixed = true
		return nil
	}
	add := "# vaultmem: agents' session state (prompts, cwd) stays on this machine\n" + sessionsRule + "\n"
	if len(b) > 0 && b[len(b)-1] != '\n' {
		add = "\n" + add
	}
	f, err := a.Vault.Root().OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err == nil {
		_, err = f.WriteString(add)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("doctor: add %s to %s: %w", sessionsRule, a.Vault.Abs(vault.GitignoreFile), err)
	}
	rep.GitignoreFixed = true
	return nil
}

// ignores reports whether gitignore text keeps folder dir (relative to
// the .gitignore, slash-separated) out of git: a line naming it or a
// folder above it (with or without a leading or trailing slash, or a
// trailing /* or /**), or "*", not undone by a later "!" line.
func ignores(text, dir string) bool {
	ignored := false
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		negated := strings.HasPrefix(line, "!")
		line = strings.TrimPrefix(line, "!")
		line = strings.TrimSuffix(strings.TrimSuffix(line, "/**"), "/*")
		line = strings.Trim(line, "/")
		if line == "*" || line == "**" || line == dir || strings.HasPrefix(dir, line+"/") {
			ignored = !negated
		}
	}
	return ignored
}
