package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/graph"
	"github.com/vaultmem/vaultmem/vault"
)

func (a *app) linksCommand() *cli.Command {
	return &cli.Command{
		Name:  "links",
		Usage: "list every link of the vault (resolved and unresolved)",
		Description: "With --json: {\"edges\": [{source, target, resolved, heading, block, label, embed,\n" +
			"frontmatter, markdown, line}]}. source and target are vault-relative paths; an unresolved\n" +
			"link has target = the link text as written and resolved false.",
		Flags: pageFlags(jsonFlag),
		Action: a.withVault(func(ctx context.Context, cmd *cli.Command, s *session, v *vault.Vault, g *graph.Graph) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			return a.printEdges(cmd, map[string]any{}, g.Edges())
		}),
	}
}

func (a *app) backlinksCommand() *cli.Command {
	return &cli.Command{
		Name:      "backlinks",
		Usage:     "list the links that point to a note",
		ArgsUsage: "NOTE",
		Flags:     pageFlags(jsonFlag),
		Action: a.withVault(func(ctx context.Context, cmd *cli.Command, s *session, v *vault.Vault, g *graph.Graph) error {
			arg, err := oneArg(cmd, "a NOTE (path or name)")
			if err != nil {
				return err
			}
			n, err := findNote(v, g, arg)
			if err != nil {
				return err
			}
			return a.printEdges(cmd, map[string]any{"note": n.Path}, g.Backlinks(n.Path))
		}),
	}
}

func (a *app) unresolvedCommand() *cli.Command {
	return &cli.Command{
		Name:  "unresolved",
		Usage: "list links that match no file",
		Flags: pageFlags(jsonFlag),
		Action: a.withVault(func(ctx context.Context, cmd *cli.Command, s *session, v *vault.Vault, g *graph.Graph) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			return a.printEdges(cmd, map[string]any{}, g.Unresolved())
		}),
	}
}

// printEdges prints a page of edges one per line, or as JSON {...,
// "edges": [...], total, more, next_offset}.
func (a *app) printEdges(cmd *cli.Command, head map[string]any, edges []graph.Edge) error {
	edges, info, err := paginate(cmd, edges)
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		head["edges"] = nonNil(edges)
		return a.printJSON(withPage(head, info))
	}
	for _, e := range edges {
		fmt.Fprintf(a.stdout, "%s:%d -> %s\n", e.Source, e.Line, edgeTarget(e))
	}
	a.printMore(info)
	return nil
}

func (a *app) orphansCommand() *cli.Command {
	return &cli.Command{
		Name:  "orphans",
		Usage: "list notes with no links to or from another file",
		Flags: pageFlags(jsonFlag),
		Action: a.withVault(func(ctx context.Context, cmd *cli.Command, s *session, v *vault.Vault, g *graph.Graph) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			orphans, info, err := paginate(cmd, g.Orphans())
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return a.printJSON(withPage(map[string]any{"orphans": nonNil(orphans)}, info))
			}
			for _, p := range orphans {
				fmt.Fprintln(a.stdout, p)
			}
			a.printMore(info)
			return nil
		}),
	}
}
