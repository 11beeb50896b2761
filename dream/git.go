package dream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// commit makes the run's changes one git commit of exactly the files it
// wrote (whatever else is staged stays staged, uncommitted), and returns
// its id. It is an error when the vault is in no git repository or git
// fails; the run's writes stand either way.
func (d *Dreamer) commit(ctx context.Context, rep *Report) (string, error) {
	if _, err := d.git(ctx, "rev-parse", "--is-inside-work-tree"); err != nil {
		return "", errors.New("dream.commit is set, but the vault is in no git repository")
	}
	specs := make([]string, len(rep.Changed))
	for i, p := range rep.Changed {
		specs[i] = ":(literal)" + p
	}
	if _, err := d.git(ctx, append([]string{"add", "--"}, specs...)...); err != nil {
		return "", err
	}
	args := append([]string{"commit", "--quiet", "--only", "-m", commitMessage(rep), "--"}, specs...)
	if _, err := d.git(ctx, args...); err != nil {
		return "", err
	}
	return d.git(ctx, "rev-parse", "HEAD")
}

// git runs git in the vault's folder and returns its trimmed output.
func (d *Dreamer) git(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = d.v.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return strings.TrimSpace(string(out)), nil
}
