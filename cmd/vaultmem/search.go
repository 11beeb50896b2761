package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/index"
)

func (a *app) searchCommand() *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "search the notes: keyword, vector or hybrid",
		ArgsUsage: "QUERY...",
		Description: "Finds the chunks (sections and paragraphs) of notes that best match QUERY. keyword is\n" +
			"FTS5 BM25 over names, aliases, descriptions, tags, headings and text (Chinese and Japanese\n" +
			"included); vector uses the embedder; hybrid (the default) fuses both. The index is brought\n" +
			"up to date first. A vector hit needs a real similarity to QUERY: a query that no note holds a\n" +
			"word of or is near in meaning finds nothing. Archived memories and Dream's log (type: dream-log)\n" +
			"are left out unless --all. With --json: {\"results\": [{path, heading, block, line, score, snippet}]}.",
		Flags: []cli.Flag{
			jsonFlag(),
			&cli.StringFlag{Name: "mode", Value: "hybrid", Usage: "`MODE`: keyword, vector or hybrid"},
			&cli.IntFlag{Name: "limit", Value: 10, Usage: "at most `N` results, up to 1000"},
			&cli.IntFlag{Name: "offset", HideDefault: true, Usage: "skip the first `K` results (the next page)"},
			&cli.StringFlag{Name: "type", Usage: "only notes whose frontmatter type is `T` (none: untyped)"},
			&cli.StringFlag{Name: "tag", Usage: "only notes tagged `T` (or a tag nested under it)"},
			&cli.StringFlag{Name: "folder", Usage: "only notes under `DIR` (vault-relative)"},
			&cli.BoolFlag{Name: "all", Usage: "also search the notes left out otherwise: archived memories and Dream's log"},
			&cli.BoolFlag{Name: "no-sync", Usage: "search the index as it is, without bringing it up to date"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			text := joinArgs(cmd)
			if len(index.Terms(text)) == 0 {
				return usagef("search needs a QUERY with words to look for")
			}
			mode, err := index.ParseMode(cmd.String("mode"))
			if err != nil {
				return usageError{err}
			}
			limit, offset := int(cmd.Int("limit")), int(cmd.Int("offset"))
			if limit < 1 || limit > index.MaxLimit || offset < 0 || offset > index.MaxLimit {
				return usagef("--limit must be from 1 to %d, and --offset from 0 to %d", index.MaxLimit, index.MaxLimit)
			}
			q := index.Query{Text: text, Mode: mode, Limit: offset + limit + 1,
				Type: cmd.String("type"), Tag: cmd.String("tag"), Folder: cmd.String("folder"), All: cmd.Bool("all")}
			s, ix, err := a.openIndexed(ctx, false)
			if err != nil {
				return err
			}
			defer s.Close() // and the index
			search := func(ctx context.Context, _ bool) ([]index.Result, error) { return ix.Search(ctx, q) }
			var results []index.Result
			if cmd.Bool("no-sync") {
				if err := a.requireBuilt(ctx, ix); err != nil {
					return err
				}
				if results, err = search(ctx, false); err != nil {
					return err
				}
			} else {
				var st index.Stats
				if results, st, err = searchWhileSyncing(ctx, a, s, ix, search); err != nil {
					return err
				}
				if st.EmbedError != "" && mode != index.Keyword && !a.quiet {
					fmt.Fprintf(a.stderr, "warning: %s; results are keyword-only\n", st.EmbedError)
				}
			}
			more := len(results) > offset+limit
			results = results[min(offset, len(results)):min(offset+limit, len(results))]
			if cmd.Bool("json") {
				out := map[string]any{"results": results}
				if more {
					out["next_offset"] = offset + limit
				}
				return a.printJSON(out)
			}
			for _, r := range results {
				loc := fmt.Sprintf("%s:%d", r.Path, r.Line)
				if r.Heading != "" {
					loc += "  § " + r.Heading
				}
				fmt.Fprintf(a.stdout, "%s  (%.3f)\n    %s\n", loc, r.Score, r.Snippet)
			}
			if more && !a.quiet {
				fmt.Fprintf(a.stderr, "more results: --offset %d\n", offset+limit)
			}
			return nil
		},
	}
}

// joinArgs joins the command's arguments with spaces.
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
