package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// noteView is the JSON of `vaultmem show`.
type noteView struct {
	Path        string             `json:"path"`
	Name        string             `json:"name"`
	Type        string             `json:"type"`
	Title       string             `json:"title"`
	Aliases     []string           `json:"aliases"`
	Tags        []string           `json:"tags"`
	Frontmatter map[string]any     `json:"frontmatter"`
	Headings    []markdown.Heading `json:"headings"`
	Blocks      []markdown.Block   `json:"blocks"`
	Links       []index.Edge       `json:"links"`
	Backlinks   []index.Edge       `json:"backlinks"`
	Hash        string             `json:"hash"`
	Warnings    []string           `json:"warnings"`
}

func (a *app) showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show a note: its frontmatter, headings, tags, links and backlinks",
		ArgsUsage: "NOTE",
		Description: "NOTE is a vault path (\"memory/pnpm.md\", .md optional) or a note name as a [[wikilink]]\n" +
			"would name it (\"pnpm\"), case-insensitive.",
		Flags: []cli.Flag{jsonFlag()},
		Action: a.withIndex(func(ctx context.Context, cmd *cli.Command, s *session, ix *index.Index) error {
			arg, err := oneArg(cmd, "a NOTE (path or name)")
			if err != nil {
				return err
			}
			view, err := showNote(ctx, s, ix, arg)
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return a.printJSON(view)
			}
			a.printNote(view)
			return nil
		}),
	}
}

// showNote gathers what show prints: the note's own content (headings,
// blocks, frontmatter, as read now) and what the index knows of it (its
// type, title, tags, links and backlinks, as the MCP server gives them).
func showNote(ctx context.Context, s *session, ix *index.Index, arg string) (noteView, error) {
	p, err := ix.Lookup(ctx, arg)
	if err != nil {
		return noteView{}, err
	}
	n, err := vault.ReadNote(s.v.FS(), p, s.cfg.MaxNoteSize)
	if err != nil {
		return noteView{}, err
	}
	found, err := ix.List(ctx, index.Query{Paths: []string{p}})
	if err != nil {
		return noteView{}, err
	}
	if len(found) == 0 {
		return noteView{}, fmt.Errorf("%s: %w", p, vault.ErrNotFound)
	}
	info := found[0]
	view := noteView{
		Path: p, Name: info.Name, Type: info.Type, Title: info.Title, Aliases: info.Aliases, Tags: info.Tags,
		Frontmatter: n.Frontmatter.JSON(), Headings: nonNil(n.Headings), Blocks: nonNil(n.Blocks), Hash: n.Hash, Warnings: []string{},
	}
	if view.Links, err = ix.Edges(ctx, index.EdgeFilter{From: p}); err != nil {
		return noteView{}, err
	}
	if view.Backlinks, err = ix.Edges(ctx, index.EdgeFilter{To: p}); err != nil {
		return noteView{}, err
	}
	for _, w := range n.Warnings {
		view.Warnings = append(view.Warnings, w.Error())
	}
	return view, nil
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
func edgeTarget(e index.Edge) string {
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
