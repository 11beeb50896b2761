package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

// The CLI's handling of arguments, pages and progress, shared by the
// commands.

// pageFlags adds --limit and --offset to a listing command's flags.
func pageFlags(flags ...cli.Flag) []cli.Flag {
	return append(flags,
		&cli.IntFlag{Name: "limit", Value: app.MaxLimit, Usage: fmt.Sprintf("at most `N` items, up to %d", app.MaxLimit)},
		&cli.IntFlag{Name: "offset", HideDefault: true, Usage: "skip the first `K` items (the next page)"})
}

// paginate returns the page of items --limit and --offset ask for.
func paginate[T any](cmd *cli.Command, items []T) ([]T, app.PageInfo, error) {
	limit := int(cmd.Int("limit"))
	if limit < 1 {
		return nil, app.PageInfo{}, usagef("--limit must be from 1 to %d", app.MaxLimit)
	}
	page, info, err := app.Paginate(items, app.Page{Offset: int(cmd.Int("offset")), Limit: limit})
	if err != nil {
		return nil, info, usageError{err}
	}
	return app.NonNil(page), info, nil
}

// withPage adds a page's place in its list to a JSON answer: total, more
// and next_offset (when there is a next page).
func withPage(out map[string]any, info app.PageInfo) map[string]any {
	out["total"], out["more"] = info.Total, info.More
	if info.More > 0 {
		out["next_offset"] = info.NextOffset
	}
	return out
}

// printMore says on stderr how to see the rest of a listing.
func (sh *shell) printMore(info app.PageInfo) {
	if info.More > 0 && !sh.quiet {
		fmt.Fprintf(sh.stderr, "%d more: --offset %d\n", info.More, info.NextOffset)
	}
}

// noArgs rejects stray arguments.
func noArgs(cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usagef("%s takes no arguments, got %q", cmd.Name, cmd.Args().First())
	}
	return nil
}

// oneArg returns the single required argument.
func oneArg(cmd *cli.Command, what string) (string, error) {
	switch cmd.Args().Len() {
	case 0:
		return "", usagef("%s needs %s", cmd.Name, what)
	case 1:
		return cmd.Args().First(), nil
	}
	return "", usagef("%s takes one %s, got %d arguments", cmd.Name, what, cmd.Args().Len())
}

// joinArgs is the command's arguments, joined by spaces (a query, a text).
func joinArgs(cmd *cli.Command) string {
	s := ""
	for i, a := range cmd.Args().Slice() {
		if i > 0 {
			s += " "
		}
		s += a
	}
	return s
}

// progress draws a one-line progress bar on a terminal; elsewhere it does
// nothing. Short runs draw nothing.
type progress struct {
	w       io.Writer
	label   string
	tty     bool
	start   time.Time
	drawn   bool
	lastErr time.Time
}

func newProgress(w io.Writer, label string) *progress {
	p := &progress{w: w, label: label, start: time.Now()}
	if f, ok := w.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

func (p *progress) update(done, total int) {
	if !p.tty || time.Since(p.start) < 300*time.Millisecond || time.Since(p.lastErr) < 100*time.Millisecond && done < total {
		return
	}
	p.lastErr = time.Now()
	const width = 30
	fill := width * done / max(total, 1)
	fmt.Fprintf(p.w, "\r%s %d/%d [%s%s] %3d%%", p.label, done, total, strings.Repeat("=", fill), strings.Repeat(" ", width-fill), 100*done/max(total, 1))
	p.drawn = true
}

func (p *progress) done() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// textInput is the text (what: "body", "text") of the command's
// arguments, or of stdin with --stdin (or when it is piped and there are
// no arguments).
func (sh *shell) textInput(cmd *cli.Command, what string) (string, error) {
	args := cmd.Args().Slice()
	if cmd.Bool("stdin") && len(args) > 0 {
		return "", usagef("give the %s as arguments or with --stdin, not both", what)
	}
	if cmd.Bool("stdin") || len(args) == 0 && !isTerminal(sh.stdin) {
		b, err := io.ReadAll(sh.stdin)
		if err != nil {
			return "", fmt.Errorf("read the %s from standard input: %w", what, err)
		}
		return string(b), nil
	}
	return strings.Join(args, " "), nil
}

// flagOrStdin is the value of the flag name, or standard input with
// --stdin; it refuses both.
func (sh *shell) flagOrStdin(cmd *cli.Command, name string) (string, error) {
	v := cmd.String(name)
	if !cmd.Bool("stdin") {
		return v, nil
	}
	if v != "" {
		return "", usagef("give the %s with --%s or --stdin, not both", name, name)
	}
	b, err := io.ReadAll(sh.stdin)
	if err != nil {
		return "", fmt.Errorf("read standard input: %w", err)
	}
	return string(b), nil
}

// vaultPath is the vault folder a --vault of flag means, seen from the
// folders dirs (the first tried first): an absolute flag as it is; a
// relative one, as the files `vaultmem setup` writes for a team name the
// vault (relative to the project, whatever folder the client runs a hook
// or the MCP server in), is looked for in each dir and the folders above
// it up to the top of the git repository holding it (the first folder
// with a .git), the first that is a vault winning. Found nowhere, it is
// flag unchanged: relative to the working folder, as before.
func vaultPath(flag string, dirs ...string) string {
	if flag == "" || filepath.IsAbs(flag) {
		return flag
	}
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		for d := dir; ; d = filepath.Dir(d) {
			if p := filepath.Join(d, flag); isVault(p) {
				return p
			}
			if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil || filepath.Dir(d) == d {
				break
			}
		}
	}
	return flag
}
