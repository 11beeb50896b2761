package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vaultmem/vaultmem/gitrepo"
	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
)

// machineRules are the .gitignore rules (relative to .vaultmem) that keep
// one machine's state out of git, each with why: an older vault's
// .gitignore may lack them, and vaultmem never rewrites it on its own.
var machineRules = []struct{ rule, why string }{
	{stateRule(session.StateFolder), "agents' session state (prompts, cwd) stays on this machine"},
	{stateRule(task.FocusDir), "each agent's focus is this machine's (who holds a task is the task note's assignee)"},
}

// stateRule is the .gitignore rule, relative to .vaultmem, of the folder
// dir under .vaultmem/state.
func stateRule(dir string) string {
	return strings.TrimPrefix(vault.StateDir, vault.DotDir+"/") + "/" + dir + "/"
}

// checkGitignore reports the rules of machineRules that
// .vaultmem/.gitignore lacks, and with fix appends them to it (or writes
// the whole file when there is none), keeping every line it has. It also
// reports what git still tracks under a per-machine folder (committed
// before the rule), with the command that stops it: vaultmem does not
// change git's index on its own.
func (d doctor) checkGitignore(ctx context.Context, fix bool, rep *Checkup) error {
	a := d.a
	name := filepath.FromSlash(vault.GitignoreFile)
	b, err := a.Vault.Root().ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("doctor: %w", err)
	}
	var lacks []string
	add := ""
	for _, r := range machineRules {
		if ignores(string(b), strings.TrimSuffix(r.rule, "/")) {
			continue
		}
		lacks = append(lacks, r.rule)
		add += "# vaultmem: " + r.why + "\n" + r.rule + "\n"
	}
	d.checkTracked(ctx, rep)
	if len(lacks) == 0 {
		return nil
	}
	rep.GitignoreLacks = strings.Join(lacks, " ")
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
		return fmt.Errorf("doctor: add %s to %s: %w", rep.GitignoreLacks, a.Vault.Abs(vault.GitignoreFile), err)
	}
	rep.GitignoreFixed = true
	return nil
}

// checkTracked reports the per-machine folders git still tracks in a git
// vault (committed before they were ignored), each with the command that
// stops tracking them and keeps the files. Outside git, or when git
// cannot say, it reports nothing.
func (d doctor) checkTracked(ctx context.Context, rep *Checkup) {
	a := d.a
	for _, r := range machineRules {
		dir := vault.DotDir + "/" + strings.TrimSuffix(r.rule, "/")
		out, err := gitrepo.Run(ctx, a.Vault.Dir, "ls-files", "--", dir)
		if err != nil || strings.TrimSpace(out) == "" {
			continue
		}
		rep.Tracked = append(rep.Tracked, TrackedState{Path: dir, Fix: "git rm -r --cached " + dir + " && git commit -m 'vaultmem: " + dir + " is per machine'"})
	}
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
