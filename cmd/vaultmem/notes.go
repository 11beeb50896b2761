package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

// The commands that read notes and links: show, links, backlinks,
// unresolved, orphans, list.

func showCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show a note: its frontmatter, headings, tags, links and backlinks",
		ArgsUsage: "NOTE",
		Description: "NOTE is a vault path (\"memory/pnpm.md\", .md optional) or a note name as a [[wikilink]]\n" +
			"would name it (\"pnpm\"), case-insensitive.",
		Flags: []cli.Flag{jsonFlag()},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			arg, err := oneArg(cmd, "a NOTE (path or name)")
			if err != nil {
				return err
			}
			view, err := query(ctx, sh, app.OpShow, app.NoteRequest{Note: arg}, 0)
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(view)
			}
			sh.printNote(view)
			return nil
		},
	}
}

func (sh *shell) printNote(v app.NoteView) {
	w := sh.stdout
	fmt.Fprintf(w, "%s\n", v.Path)
	fmt.Fprintf(w, "  title:    %s\n", v.Title)
	if v.Type != "" {
		fmt.Fprintf(w, "  type:     %s\n", v.Type)
	}
	if len(v.Aliases) > 0 {
		fmt.Fprintf(w, "  aliases:  %s\n", strings.Join(v.Aliases, ", "))
	}
	if len(v.Tags) > 0 {
		fmt.Fprintf(w, "  tags:     #%s\n", strings.Join(v.Tags, " #"))
	}
	fmt.Fprintf(w, "  hash:     %s\n", v.Hash)
	if len(v.Headings) > 0 {
		fmt.Fprintf(w, "headings:\n")
		for _, h := range v.Headings {
			fmt.Fprintf(w, "  %4d  %s %s\n", h.Line, strings.Repeat("#", h.Level), h.Text)
		}
	}
	fmt.Fprintf(w, "links (%d):\n", len(v.Links))
	for _, e := range v.Links {
		fmt.Fprintf(w, "  %4d  -> %s\n", e.Line, edgeTarget(e))
	}
	fmt.Fprintf(w, "backlinks (%d):\n", len(v.Backlinks))
	for _, e := range v.Backlinks {
		fmt.Fprintf(w, "        <- %s:%d\n", e.Source, e.Line)
	}
	for _, warn := range v.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
}

// edgeTarget renders an edge's target with its fragment and state.
func edgeTarget(e app.Edge) string {
	s := e.Target
	if e.Heading != "" {
		s += "#" + e.Heading
	}
	if e.Block != "" {
		s += "#^" + e.Block
	}
	var notes []string
	if e.Embed {
		notes = append(notes, "embed")
	}
	if e.Frontmatter {
		notes = append(notes, "frontmatter")
	}
	if !e.Resolved {
		notes = append(notes, "unresolved")
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, ", ") + ")"
	}
	return s
}

func linksCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:  "links",
		Usage: "list every link of the vault (resolved and unresolved)",
		Description: "A page holds at most 1,000 links (--limit, --offset; the rest is said on stderr); --all\n" +
			"gives every link from --offset on. With --json: {\"edges\": [{source, target, resolved, heading,\n" +
			"block, label, embed, frontmatter, markdown, line}], total, more, next_offset}. source and target\n" +
			"are vault-relative paths; an unresolved link has target = the link text as written and resolved\n" +
			"false.",
		Flags: pageFlags(jsonFlag(), allLinksFlag()),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			return sh.printLinks(ctx, cmd, app.LinksRequest{})
		},
	}
}

func backlinksCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:      "backlinks",
		Usage:     "list the links that point to a note",
		ArgsUsage: "NOTE",
		Flags:     pageFlags(jsonFlag(), allLinksFlag()),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			arg, err := oneArg(cmd, "a NOTE (path or name)")
			if err != nil {
				return err
			}
			return sh.printLinks(ctx, cmd, app.LinksRequest{Note: arg})
		},
	}
}

func unresolvedCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:  "unresolved",
		Usage: "list links that match no file",
		Flags: pageFlags(jsonFlag(), allLinksFlag()),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			return sh.printLinks(ctx, cmd, app.LinksRequest{Unresolved: true})
		},
	}
}

// allLinksFlag is --all of the link listings: every page, not one.
func allLinksFlag() cli.Flag {
	return &cli.BoolFlag{Name: "all", Usage: "every link from --offset on, --limit at a time, not one page"}
}

// printLinks prints the page of links req chooses, or with --all every
// page from --offset on.
func (sh *shell) printLinks(ctx context.Context, cmd *cli.Command, req app.LinksRequest) error {
	var err error
	if req.Page, err = pageOf(cmd); err != nil {
		return err
	}
	res, err := query(ctx, sh, app.OpLinks, req, 0)
	if err != nil {
		return err
	}
	if cmd.Bool("all") {
		// Page after page, as an agent pages: each page brings the index
		// up to date first, so a vault edited meanwhile gives its links
		// as they are when each page is read.
		for res.Page.More > 0 {
			req.Page.Offset = res.Page.NextOffset
			next, err := query(ctx, sh, app.OpLinks, req, 0)
			if err != nil {
				return err
			}
			res.Edges, res.Page = append(res.Edges, next.Edges...), next.Page
		}
	}
	if cmd.Bool("json") {
		head := map[string]any{"edges": res.Edges}
		if res.Note != "" {
			head["note"] = res.Note
		}
		return sh.printJSON(withPage(head, res.Page))
	}
	for _, e := range res.Edges {
		fmt.Fprintf(sh.stdout, "%s:%d -> %s\n", e.Source, e.Line, edgeTarget(e))
	}
	sh.printMore(res.Page)
	return nil
}

func orphansCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:  "orphans",
		Usage: "list notes with no links to or from another file",
		Flags: pageFlags(jsonFlag()),
		Action: sh.withFresh(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			all, err := a.Notes().Orphans(ctx, app.OrphansRequest{NoSync: true}) // withFresh synced
			if err != nil {
				return err
			}
			orphans, info, err := paginate(cmd, all)
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(withPage(map[string]any{"orphans": orphans}, info))
			}
			for _, p := range orphans {
				fmt.Fprintln(sh.stdout, p)
			}
			sh.printMore(info)
			return nil
		}),
	}
}

func listCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "list notes, optionally of one type, with one tag or in one folder",
		Description: "--type matches the frontmatter type: (user, feedback, project, reference, task, lesson, or\n" +
			"any other); --type none lists notes without one. --tag matches frontmatter and inline tags,\n" +
			"case-insensitively; a parent tag matches its nested tags (--tag a matches #a/b).",
		Flags: pageFlags(
			jsonFlag(),
			&cli.StringFlag{Name: "type", Usage: "only notes whose frontmatter type is `T`"},
			&cli.StringFlag{Name: "tag", Usage: "only notes tagged `T`"},
			&cli.StringFlag{Name: "folder", Usage: "only notes under the vault folder `DIR`"},
		),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			req := app.ListRequest{Type: cmd.String("type"), Tag: cmd.String("tag"), Folder: cmd.String("folder")}
			var err error
			if req.Page, err = pageOf(cmd); err != nil {
				return err
			}
			res, err := query(ctx, sh, app.OpList, req, 0)
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(withPage(map[string]any{"notes": res.Notes}, res.Page))
			}
			for _, it := range res.Notes {
				line := it.Path
				if it.Type != "" {
					line += "  [" + it.Type + "]"
				}
				if it.Description != "" {
					line += "  " + it.Description
				}
				fmt.Fprintln(sh.stdout, line)
			}
			sh.printMore(res.Page)
			return nil
		},
	}
}

// pageOf is the page --limit and --offset ask for.
func pageOf(cmd *cli.Command) (app.Page, error) {
	if cmd.Int("limit") < 1 {
		return app.Page{}, usagef("--limit must be from 1 to %d", app.MaxLimit)
	}
	p, err := app.Page{Offset: int(cmd.Int("offset")), Limit: int(cmd.Int("limit"))}.Check()
	if err != nil {
		return app.Page{}, usageError{err}
	}
	return p, nil
}
