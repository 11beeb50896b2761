// Package gitrepo is vaultmem's one caller of git: the commit of a Dream
// run, the day git first saw a note (what a relative date in it counts
// from), the line merge of the note merge driver, the root of the
// repository a project is in (where setup writes), and the email address
// of the person committing (whose a user memory is). git must be on the
// PATH; a vault in no repository gets an error, never a crash.
//
// It imports no other vaultmem package.
package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Run runs git with args in folder dir and returns its output, trimmed.
// Errors name the git command and say what git printed.
//
// git runs without the repository's hooks and file-system monitor (see
// [safeArgs]): a vault is shared, and a hook in a .git that another user
// can change would otherwise run as whoever's vaultmem commits.
func Run(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append(safeArgs(), args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}

// safeArgs are the options vaultmem puts before every git command it
// runs on its own initiative: no hook of the repository's runs
// (core.hooksPath is the null device), nor the command that
// core.fsmonitor may name.
func safeArgs() []string {
	return []string{"-c", "core.hooksPath=" + os.DevNull, "-c", "core.fsmonitor=false"}
}

// ErrNoRepository is returned when a folder is in no git repository.
var ErrNoRepository = errors.New("gitrepo: not in a git repository")

// Commit makes one commit, with message msg, of exactly the files (paths
// relative to dir) given, whatever else is staged staying staged and
// uncommitted, and returns its id. Errors: ErrNoRepository; git's.
func Commit(ctx context.Context, dir string, files []string, msg string) (string, error) {
	if _, err := Run(ctx, dir, "rev-parse", "--is-inside-work-tree"); err != nil {
		return "", ErrNoRepository
	}
	specs := make([]string, len(files))
	for i, p := range files {
		specs[i] = ":(literal)" + p
	}
	if _, err := Run(ctx, dir, append([]string{"add", "--"}, specs...)...); err != nil {
		return "", err
	}
	if _, err := Run(ctx, dir, append([]string{"commit", "--quiet", "--only", "-m", msg, "--"}, specs...)...); err != nil {
		return "", err
	}
	return Run(ctx, dir, "rev-parse", "HEAD")
}

// FirstAdded is the day (YYYY-MM-DD) git first recorded the file at path
// (relative to dir) across renames, "" when dir is in no repository or git
// never saw the file.
func FirstAdded(ctx context.Context, dir, path string) string {
	out, err := Run(ctx, dir, "log", "--diff-filter=A", "--follow", "--format=%as", "--", path)
	if fields := strings.Fields(out); err == nil && len(fields) > 0 {
		return fields[len(fields)-1] // the oldest
	}
	return ""
}

// MergeFile merges ours and theirs from their common base line by line, as
// git merge-file does; clean is false when both changed the same lines
// (merged then holds git's conflict markers, labelled ours and theirs).
func MergeFile(ctx context.Context, base, ours, theirs []byte) (merged []byte, clean bool, err error) {
	dir, err := os.MkdirTemp("", "vaultmem-merge-")
	if err != nil {
		return nil, false, err
	}
	defer os.RemoveAll(dir)
	var paths [3]string
	for i, b := range [][]byte{ours, base, theirs} {
		paths[i] = filepath.Join(dir, []string{"ours", "base", "theirs"}[i])
		if err := os.WriteFile(paths[i], b, 0o600); err != nil {
			return nil, false, err
		}
	}
	c := exec.CommandContext(ctx, "git", append(safeArgs(), "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", paths[0], paths[1], paths[2])...)
	var stderr bytes.Buffer
	c.Stderr = &stderr
	out, err := c.Output()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out, true, nil
	case errors.As(err, &ee) && ee.ExitCode() > 0 && ee.ExitCode() < 128:
		return out, false, nil // that many conflicts
	}
	return nil, false, fmt.Errorf("git merge-file: %v %s", err, strings.TrimSpace(stderr.String()))
}

// TopLevel is the root folder of the git work tree holding dir. Errors:
// ErrNoRepository (also when git is missing).
func TopLevel(ctx context.Context, dir string) (string, error) {
	out, err := Run(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil || out == "" {
		return "", ErrNoRepository
	}
	return filepath.FromSlash(out), nil
}

// Email is the email address git commits with in folder dir (git config
// user.email: the repository's, else the person's own), "" when git sets
// none or is missing. Whose a user memory is comes from it when the
// person's own vaultmem config names no owner.
func Email(ctx context.Context, dir string) string {
	out, err := Run(ctx, dir, "config", "--get", "user.email")
	if err != nil {
		return "" // git exits 1 when the key is unset
	}
	return out
}
