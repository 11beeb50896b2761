package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/index"
)

// listItem is one note in `vaultmem list --json`.
type listItem struct {
	Path        string   `json:"path"`
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
}

func (a *app) listCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list notes, optionally of one type or with one tag",
		Description: "--type matches the frontmatter type: (user, feedback, project, reference, task, lesson, or\n" +
			"any other); --type none lists notes without one. --tag matches frontmatter and inline tags,\n" +
			"case-insensitively; a parent tag matches its nested tags (--tag a matches #a/b).",
		Flags: pageFlags(
			jsonFlag(),
			&cli.StringFlag{Name: "type", Usage: "only notes whose frontmatter type is `T`"},
			&cli.StringFlag{Name: "tag", Usage: "only notes tagged `T`"},
		),
		Action: a.withIndex(func(ctx context.Context, cmd *cli.Command, s *session, ix *index.Index) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			if cmd.Int("limit") < 1 {
				return usagef("--limit must be from 1 to %d", index.MaxLimit)
			}
			notes, info, err := ix.ListPage(ctx, index.Query{Type: strings.ToLower(strings.TrimSpace(cmd.String("type"))), Tag: cmd.String("tag")},
				index.Page{Offset: int(cmd.Int("offset")), Limit: int(cmd.Int("limit"))})
			if errors.Is(err, index.ErrBadPage) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			items := make([]listItem, len(notes))
			for i, n := range notes {
				items[i] = listItem{Path: n.Path, Name: n.Name, Type: n.Type, Title: n.Title, Description: n.Description, Tags: n.Tags}
			}
			if cmd.Bool("json") {
				return a.printJSON(withPage(map[string]any{"notes": items}, info))
			}
			for _, it := range items {
				line := it.Path
				if it.Type != "" {
					line += "  [" + it.Type + "]"
				}
				if it.Description != "" {
					line += "  " + it.Description
				}
				fmt.Fprintln(a.stdout, line)
			}
			a.printMore(info)
			return nil
		}),
	}
}
