package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/graph"
	"github.com/vaultmem/vaultmem/vault"
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
			jsonFlag,
			&cli.StringFlag{Name: "type", Usage: "only notes whose frontmatter type is `T`"},
			&cli.StringFlag{Name: "tag", Usage: "only notes tagged `T`"},
		),
		Action: a.withVault(func(ctx context.Context, cmd *cli.Command, s *session, v *vault.Vault, g *graph.Graph) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			typ := strings.ToLower(strings.TrimSpace(cmd.String("type")))
			tag := cmd.String("tag")
			items := []listItem{}
			for _, n := range v.Notes {
				if typ != "" && !(typ == "none" && n.Kind() == "") && string(n.Kind()) != typ {
					continue
				}
				if tag != "" && !n.HasTag(tag) {
					continue
				}
				desc, _ := n.Frontmatter.String("description")
				items = append(items, listItem{Path: n.Path, Name: n.Name, Type: string(n.Kind()),
					Title: n.Title(), Description: desc, Tags: nonNil(n.Tags)})
			}
			items, info, err := paginate(cmd, items)
			if err != nil {
				return err
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
