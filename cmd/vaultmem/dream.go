package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

func dreamCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:  "dream",
		Usage: "consolidate the memories: merge duplicates, flag contradictions, date relative dates, rewrite MEMORY.md",
		Description: "Plans, then applies (with --dry-run, plans and prints only):\n" +
			"  - duplicates (same name, same text, or near: 0.4 x word Jaccard + 0.6 x LCS >= 0.85) among\n" +
			"    memories of one type that also say the same thing (no number, date, version, name,\n" +
			"    negation, opposite or replaced word between them) are merged into the most complete one;\n" +
			"    the others are never deleted: they stay notes with merged_into and archived, and links to\n" +
			"    them point at the merged one;\n" +
			"  - contradictions (feedback or user memories on the same thing, one 'always', the other\n" +
			"    'never'; memories of any type the same but for a negation) are flagged for you, in the\n" +
			"    report and under 'Needs review' in MEMORY.md; a memory with supersedes: \"[[other]]\"\n" +
			"    resolves the pair, archiving the other (two that supersede each other are flagged);\n" +
			"  - relative dates ('next Thursday') get the day they meant after them, unless it is in\n" +
			"    doubt ('next Friday' said on a Thursday: listed in skipped);\n" +
			"  - MEMORY.md's region is rewritten, and a dated entry is added to the dream log note;\n" +
			"  - with an LLM (dream.llm, else recall.classifier; dream.propose: false turns it off), the session\n" +
			"    notes that ended and were not read yet are read (10 a run), and the LLM's proposals of durable\n" +
			"    memories and lessons are written as notes with status: proposed: listed under 'Needs review'\n" +
			"    in MEMORY.md, not live until you remove status: proposed.\n" +
			"Runs are incremental (from .vaultmem/state/dream.yaml; --full looks at every memory) and one\n" +
			"at a time (a second exits 3, or waits with --wait). A note edited while Dream runs is skipped.\n" +
			"With dream.commit: true in the config, each run is one git commit of the files it wrote.\n" +
			"--json: {dry_run, merged: [{into, from, reason}], archived, contradictions: [{paths, reason,\n" +
			"new}], dates_fixed: [{path, line, from, to}], links_rewritten, memory_index: {path, lines,\n" +
			"bytes, omitted, changed}, changed, skipped: [{path, line, reason}], memories, examined, log,\n" +
			"commit, ms, proposed, sessions_read, warnings}.",
		Flags: []cli.Flag{
			jsonFlag(),
			&cli.BoolFlag{Name: "dry-run", Usage: "plan and report; write nothing"},
			&cli.BoolFlag{Name: "full", Usage: "look at every memory, not only those changed since the last run"},
			&cli.BoolFlag{Name: "wait", Usage: "wait for another Dream on this vault to end, instead of exiting 3"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			a, err := sh.open(ctx, app.Options{})
			if err != nil {
				return err
			}
			defer a.Close()
			rep, err := a.Dream(ctx, app.DreamOptions{DryRun: cmd.Bool("dry-run"), Full: cmd.Bool("full"), Wait: cmd.Bool("wait")})
			if errors.Is(err, app.ErrDreamRunning) {
				return codedError{err, exitConflict}
			}
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(rep)
			}
			sh.printDream(rep)
			return nil
		},
	}
}

// printDream prints a report for a human.
func (sh *shell) printDream(rep *app.DreamReport) {
	w := sh.stdout
	verb := "changed"
	if rep.DryRun {
		fmt.Fprintf(w, "Dry run: nothing written.\n")
		verb = "would change"
	}
	fmt.Fprintf(w, "%d memories, %d looked at (changed since the last run) in %d ms\n", rep.Memories, rep.Examined, rep.MS)
	for _, m := range rep.Merged {
		fmt.Fprintf(w, "merged    %s into %s (%s)\n", strings.Join(m.From, ", "), m.Into, m.Reason)
	}
	merged := map[string]bool{}
	for _, m := range rep.Merged {
		for _, f := range m.From {
			merged[f] = true
		}
	}
	for _, p := range rep.Archived {
		if !merged[p] {
			fmt.Fprintf(w, "archived  %s (superseded)\n", p)
		}
	}
	for _, c := range rep.Contradictions {
		state := "flagged "
		if !c.New {
			state = "standing"
		}
		fmt.Fprintf(w, "%s  %s and %s may contradict each other: %s\n", state, c.Paths[0], c.Paths[1], c.Reason)
		if c.Suggestion != "" {
			fmt.Fprintf(w, "          suggestion: %s\n", c.Suggestion)
		}
	}
	for _, c := range rep.PossibleDuplicates {
		state := "listed  "
		if !c.New {
			state = "standing"
		}
		fmt.Fprintf(w, "%s  %s and %s may be duplicates: %s\n", state, c.Paths[0], c.Paths[1], c.Reason)
	}
	for _, j := range rep.Judged {
		fmt.Fprintf(w, "judged    %s and %s %s by the LLM: %s\n", j.Paths[0], j.Paths[1], j.Verdict, j.Reason)
	}
	for _, f := range rep.DatesFixed {
		fmt.Fprintf(w, "dated     %s:%d %q as %s\n", f.Path, f.Line, f.From, f.To)
	}
	if len(rep.LinksRewritten) > 0 {
		fmt.Fprintf(w, "relinked  %s\n", strings.Join(rep.LinksRewritten, ", "))
	}
	for _, p := range rep.Proposed {
		fmt.Fprintf(w, "proposed  %s (status: proposed: accept it by removing the key, or delete it)\n", p)
	}
	if rep.DryRun && rep.Sessions > 0 {
		fmt.Fprintf(w, "would read %d session notes for proposals\n", rep.Sessions)
	}
	for _, s := range rep.Skipped {
		at := s.Path
		if s.Line > 0 {
			at = fmt.Sprintf("%s:%d", s.Path, s.Line)
		}
		fmt.Fprintf(w, "skipped   %s: %s\n", at, s.Reason)
	}
	mi := rep.MemoryIndex
	switch {
	case mi.Error != "":
		fmt.Fprintf(w, "%s not written: %s\n", mi.Path, mi.Error)
	default:
		fmt.Fprintf(w, "%s: %d lines, %d bytes", mi.Path, mi.Lines, mi.Bytes)
		if mi.Omitted > 0 {
			fmt.Fprintf(w, ", %d memories not listed (over the 200-line / 25 KB limit)", mi.Omitted)
		}
		fmt.Fprintln(w)
	}
	if len(rep.Changed) == 0 {
		fmt.Fprintln(w, "Nothing to change.")
	} else {
		fmt.Fprintf(w, "%s %d files: %s\n", verb, len(rep.Changed), strings.Join(rep.Changed, ", "))
	}
	if rep.Commit != "" {
		fmt.Fprintf(w, "committed %s\n", rep.Commit)
	}
	if rep.CommitError != "" {
		fmt.Fprintf(sh.stderr, "warning: not committed: %s\n", rep.CommitError)
	}
	if rep.LLMError != "" {
		sh.warnf("the LLM's help was not used: %s", rep.LLMError)
	}
	for _, wn := range rep.Warnings {
		sh.warnf("%s", wn)
	}
}
