package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/graph"
	"github.com/vaultmem/vaultmem/vault"
)

// noteView is the JSON of `vaultmem show`.
type noteView struct {
	Path        string          `json:"path"`
	Name        string          `json:"name"`
	Type        string          `json:"type"`
	Title       string          `json:"title"`
	Aliases     []string        `json:"aliases"`
	Tags        []string        `json:"tags"`
	Frontmatter map[string]any  `json:"frontmatter"`
	Headings    []vault.Heading `json:"headings"`
	Blocks      []vault.Block   `json:"blocks"`
	Links       []graph.Edge    `json:"links"`
	Backlinks   []graph.Edge    `json:"backlinks"`
	Hash        string          `json:"hash"`
	Warnings    []string        `json:"warnings"`
}

func (a *app) showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show a note: its frontmatter, headings, tags, links and backlinks",
		ArgsUsage: "NOTE",
		Description: "NOTE is a vault path (\"memory/pnpm.md\", .md optional) or a note name as a [[wikilink]]\n" +
			"would name it (\"pnpm\"), case-insensitive.",
		Flags: []cli.Flag{jsonFlag},
		Action: a.withVault(func(ctx context.Context, cmd *cli.Command, s *session, v *vault.Vault, g *graph.Graph) error {
			arg, err := oneArg(cmd, "a NOTE (path or name)")
			if err != nil {
				return err
			}
			n, err := findNote(v, g, arg)
			if err != nil {
				return err
			}
			view := noteView{
				Path: n.Path, Name: n.Name, Type: string(n.Kind()), Title: n.Title(),
				Aliases: nonNil(n.Aliases), Tags: nonNil(n.Tags), Headings: nonNil(n.Headings),
				Blocks: nonNil(n.Blocks), Links: nonNil(g.Outgoing(n.Path)), Backlinks: nonNil(g.Backlinks(n.Path)),
				Hash: n.Hash, Warnings: []string{},
			}
			view.Frontmatter = n.Frontmatter.JSON()
			for _, w := range n.Warnings {
				view.Warnings = append(view.Warnings, w.Error())
			}
			if cmd.Bool("json") {
				return a.printJSON(view)
			}
			a.printNote(view)
			return nil
		}),
	}
}

// findNote resolves a user's NOTE argument.
func findNote(v *vault.Vault, g *graph.Graph, arg string) (*vault.Note, error) {
	p, ok := g.Lookup(arg)
	if !ok {
		return nil, fmt.Errorf("%s: %w (give a vault path or a note name; 'vaultmem list' shows them)", arg, vault.ErrNotFound)
	}
	for _, n := range v.Notes {
		if n.Path == p {
			return n, nil
		}
	}
	return nil, fmt.Errorf("%s: %w", arg, vault.ErrNotFound)
}

func (a *app) printNote(v noteView) {
	w := a.stdout
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
func edgeTarget(e graph.Edge) string {
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

// nonNil makes JSON print [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
