package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/index"
)

func (a *app) linksCommand() *cli.Command {
	return &cli.Command{
		Name:  "links",
		Usage: "list every link of the vault (resolved and unresolved)",
		Description: "With --json: {\"edges\": [{source, target, resolved, heading, block, label, embed,\n" +
			"frontmatter, markdown, line}], total, more, next_offset}. source and target are vault-relative\n" +
			"paths; an unresolved link has target = the link text as written and resolved false.",
		Flags: pageFlags(jsonFlag()),
		Action: a.withIndex(func(ctx context.Context, cmd *cli.Command, s *session, ix *index.Index) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			return a.printEdges(ctx, cmd, ix, map[string]any{}, index.EdgeFilter{})
		}),
	}
}

func (a *app) backlinksCommand() *cli.Command {
	return &cli.Command{
		Name:      "backlinks",
		Usage:     "list the links that point to a note",
		ArgsUsage: "NOTE",
		Flags:     pageFlags(jsonFlag()),
		Action: a.withIndex(func(ctx context.Context, cmd *cli.Command, s *session, ix *index.Index) error {
			arg, err := oneArg(cmd, "a NOTE (path or name)")
			if err != nil {
				return err
			}
			p, err := ix.Lookup(ctx, arg)
			if err != nil {
				return err
			}
			return a.printEdges(ctx, cmd, ix, map[string]any{"note": p}, index.EdgeFilter{To: p})
		}),
	}
}

func (a *app) unresolvedCommand() *cli.Command {
	return &cli.Command{
		Name:  "unresolved",
		Usage: "list links that match no file",
		Flags: pageFlags(jsonFlag()),
		Action: a.withIndex(func(ctx context.Context, cmd *cli.Command, s *session, ix *index.Index) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			return a.printEdges(ctx, cmd, ix, map[string]any{}, index.EdgeFilter{Unresolved: true})
		}),
	}
}

// printEdges prints a page of the links f chooses, one per line, or as
// JSON {..., "edges": [...], total, more, next_offset}.
func (a *app) printEdges(ctx context.Context, cmd *cli.Command, ix *index.Index, head map[string]any, f index.EdgeFilter) error {
	if cmd.Int("limit") < 1 {
		return usagef("--limit must be from 1 to %d", index.MaxLimit)
	}
	edges, info, err := ix.EdgePage(ctx, f, index.Page{Offset: int(cmd.Int("offset")), Limit: int(cmd.Int("limit"))})
	if err != nil {
		if errors.Is(err, index.ErrBadPage) {
			return usageError{err}
		}
		return err
	}
	if cmd.Bool("json") {
		head["edges"] = edges
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
		Flags: pageFlags(jsonFlag()),
		Action: a.withIndex(func(ctx context.Context, cmd *cli.Command, s *session, ix *index.Index) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			all, err := ix.Orphans(ctx)
			if err != nil {
				return err
			}
			orphans, info, err := paginate(cmd, all)
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return a.printJSON(withPage(map[string]any{"orphans": orphans}, info))
			}
			for _, p := range orphans {
				fmt.Fprintln(a.stdout, p)
			}
			a.printMore(info)
			return nil
		}),
	}
}
