package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/vault"
)

func (a *app) rememberCommand() *cli.Command {
	return &cli.Command{
		Name:      "remember",
		Usage:     "write a memory note (user, feedback, project or reference)",
		ArgsUsage: "[BODY...]",
		Description: "Writes <memory folder>/<safe name>.md in the format of Claude Code's memory files:\n" +
			"frontmatter name, description and type, then the body (the arguments, or standard input\n" +
			"with --stdin). Prints the note's path. A different memory already stored under the same\n" +
			"name is not replaced unless --update is given; --update keeps the note's other\n" +
			"frontmatter keys as they are.",
		Flags: []cli.Flag{
			jsonFlag,
			&cli.StringFlag{Name: "type", Required: true, Usage: "the memory's `TYPE`: user, feedback, project or reference"},
			&cli.StringFlag{Name: "name", Required: true, Usage: "a short `NAME` for the memory (also its file name)"},
			&cli.StringFlag{Name: "description", Required: true, Usage: "a one-line `DESCRIPTION`: what the memory is, to judge its relevance later"},
			&cli.BoolFlag{Name: "stdin", Usage: "read the body from standard input"},
			&cli.BoolFlag{Name: "update", Usage: "replace an existing memory of the same name"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			m := memoryInput{
				kind:        vault.Kind(strings.ToLower(strings.TrimSpace(cmd.String("type")))),
				name:        strings.TrimSpace(cmd.String("name")),
				description: strings.TrimSpace(cmd.String("description")),
				body:        strings.Join(cmd.Args().Slice(), " "),
			}
			if cmd.Bool("stdin") {
				if cmd.Args().Len() > 0 {
					return usagef("give the body as arguments or with --stdin, not both")
				}
				b, err := io.ReadAll(a.stdin)
				if err != nil {
					return fmt.Errorf("read body from stdin: %w", err)
				}
				m.body = string(b)
			}
			if err := m.validate(); err != nil {
				return err
			}
			s, err := a.open()
			if err != nil {
				return err
			}
			defer s.Close()
			w, err := vault.NewWriter(s.dir)
			if err != nil {
				return err
			}
			res, err := remember(ctx, w, s.cfg.Folders.Memory, m, cmd.Bool("update"))
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return a.printJSON(res)
			}
			fmt.Fprintln(a.stdout, res.Path)
			return nil
		},
	}
}

// memoryInput is what `remember` was asked to store.
type memoryInput struct {
	kind              vault.Kind
	name, description string
	body              string
}

func (m memoryInput) validate() error {
	if !m.kind.IsMemory() {
		return usagef("--type must be one of user, feedback, project, reference; got %q", m.kind)
	}
	if m.name == "" {
		return usagef("--name must not be empty")
	}
	if strings.ContainsAny(m.name, "\n\r") || strings.ContainsAny(m.description, "\n\r") {
		return usagef("--name and --description must be one line each")
	}
	if m.description == "" {
		return usagef("--description must not be empty")
	}
	return nil
}

// rememberResult is the JSON of `remember`.
type rememberResult struct {
	Path string `json:"path"`
	// Status is "created", "updated" or "unchanged".
	Status string `json:"status"`
	Hash   string `json:"hash"`
}

// remember writes memory m to folder/<safe name>.md. An existing note
// there is replaced only with update, only if it holds the memory of the
// same name, and keeping its other frontmatter keys.
func remember(ctx context.Context, w *vault.Writer, folder string, m memoryInput, update bool) (rememberResult, error) {
	slug, err := vault.SafeName(m.name)
	if err != nil {
		return rememberResult{}, usagef("--name %q: %v", m.name, err)
	}
	p := path.Join(folder, slug+vault.Ext)
	content := vault.Format([]vault.Field{
		{Key: "name", Value: m.name},
		{Key: "description", Value: m.description},
		{Key: "type", Value: string(m.kind)},
	}, m.body)

	hash, err := w.Write(ctx, p, content, "")
	if err == nil {
		return rememberResult{Path: p, Status: "created", Hash: hash}, nil
	}
	if !errors.Is(err, vault.ErrConflict) && !errors.Is(err, vault.ErrExists) {
		return rememberResult{}, err
	}
	status := "unchanged"
	hash, err = w.Update(ctx, p, func(current []byte) ([]byte, error) {
		if bytes.Equal(current, content) {
			return current, nil
		}
		old := vault.Parse(p, current)
		oldName, _ := old.Frontmatter.String("name")
		if len(old.Warnings) > 0 {
			return nil, fmt.Errorf("%w; fix it by hand before updating this memory", old.Warnings[0])
		}
		if !strings.EqualFold(strings.TrimSpace(oldName), m.name) {
			return nil, codedError{fmt.Errorf("%s already holds another note (name %q); choose a different --name", p, oldName), exitConflict}
		}
		if !update {
			return nil, codedError{fmt.Errorf("%s already holds a different memory named %q; pass --update to replace it", p, oldName), exitConflict}
		}
		next, err := vault.SetFrontmatter(p, current, "description", m.description)
		if err != nil {
			return nil, err
		}
		if next, err = vault.SetFrontmatter(p, next, "type", string(m.kind)); err != nil {
			return nil, err
		}
		status = "updated"
		return vault.SetBody(next, m.body), nil
	})
	if err != nil {
		return rememberResult{}, err
	}
	return rememberResult{Path: p, Status: status, Hash: hash}, nil
}
