package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
	"github.com/vaultmem/vaultmem/setup"
)

// situationFlags are the flags that describe a situation besides its text.
func situationFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "tool", Usage: "the `TOOL` the agent is about to call (matches trigger tool:TOOL)"},
		&cli.StringSliceFlag{Name: "path", Usage: "a file `PATH` involved (matches trigger globs; repeat for several)"},
	}
}

// lessonCommand is 'vaultmem lesson'. Its commands print what app's lesson
// use cases answer: the use cases bring the index up to date and check the
// requests, and their errors' classes (app.ClassOf) give the exit codes (a
// bad argument 2, an archived lesson 3).
func lessonCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:  "lesson",
		Usage: "intuition memory: lessons that strengthen when they help, fade when unused, and match in a millisecond",
		Description: "Lessons are notes (type: lesson) with a trigger (words, tool:NAME, path globs), an action_bias,\n" +
			"a strength 0..1 and a '## History' line per change. LESSON is a path or a name, resolved as a\n" +
			"[[wikilink]] is. Success +0.05, failure -0.1 (flagged for review below 0.3); unused for 30 days,\n" +
			"x0.99 a day (archived below 0.2); pinned: true never decays. Rules are set in the config under\n" +
			"lessons: (initial, success, failure, review_below, decay_after_days, decay_per_day,\n" +
			"archive_below). Outcomes are logged to .vaultmem/state/" + app.LessonLogFile + ". Every command takes --json.",
		Commands: []*cli.Command{
			lessonAddCommand(sh), lessonListCommand(sh), lessonMatchCommand(sh), lessonOutcomeCommand(sh), lessonDecayCommand(sh), lessonReviewCommand(sh), lessonContradictionsCommand(sh), lessonHistoryCommand(sh), lessonTrendsCommand(sh), lessonRouterCommand(sh), lessonStatsCommand(sh),
		},
	}
}

func lessonAddCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "add", Usage: "write a new lesson", ArgsUsage: "TITLE",
		Description: "Writes <lessons folder>/TITLE.md at the initial strength.\n" +
			"With --json: {path, name, trigger, action_bias, strength}.",
		Flags: []cli.Flag{jsonFlag(),
			&cli.StringSliceFlag{Name: "trigger", Usage: "when it applies: `WORDS`, tool:NAME or a path glob (repeat for several; required)"},
			&cli.StringFlag{Name: "action-bias", Usage: "what to do or avoid, `TEXT`"},
			&cli.StringFlag{Name: "domain", Usage: "its `DOMAIN` (testing, git, ...)"},
			&cli.StringSliceFlag{Name: "tag", Usage: "a `TAG` (repeat for several)"},
			&cli.StringSliceFlag{Name: "episode", Usage: "a `NOTE` it was learned from (a task, a memory; repeat)"},
			&cli.StringSliceFlag{Name: "derived-from", Usage: "a `LESSON` it refines (repeat)"},
			&cli.StringFlag{Name: "body", Usage: "what it says and why, `TEXT`"},
			&cli.BoolFlag{Name: "stdin", Usage: "read the body from standard input"},
		},
		Action: sh.withApp(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			title, err := oneArg(cmd, "TITLE")
			if err != nil {
				return err
			}
			body, err := sh.flagOrStdin(cmd, "body")
			if err != nil {
				return err
			}
			added, err := a.Lessons().Add(ctx, app.LessonAddRequest{Title: title, Trigger: cmd.StringSlice("trigger"), ActionBias: cmd.String("action-bias"),
				Domain: cmd.String("domain"), Tags: cmd.StringSlice("tag"), Episodes: cmd.StringSlice("episode"),
				DerivedFrom: cmd.StringSlice("derived-from"), Body: body})

			if err != nil {
				return err
			}
			return sh.out(cmd, added, fmt.Sprintf("added %s (strength %v)", added.Path, added.Strength))
		}),
	}
}

func lessonListCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "list", Usage: "the lessons, strongest first: of a domain, at least so strong, learned from or applied in an episode",
		Description: "Archived and proposed lessons are listed too (marked). --episode names a note: the lessons whose\n" +
			"source_episodes link it, and those an outcome was logged for with it as the episode.\n" +
			"With --json: [{path, name, domain, trigger, action_bias, strength, confidence, version,\n" +
			"application_count, archived, proposed, episodes}].",
		Flags: []cli.Flag{jsonFlag(),
			&cli.StringFlag{Name: "domain", Usage: "only this `DOMAIN`"},
			&cli.FloatFlag{Name: "min-strength", Usage: "only lessons at least this strong (`X`, 0 to 1)"},
			&cli.StringFlag{Name: "episode", Usage: "only lessons learned from or applied in this `NOTE`"},
		},
		Action: sh.withApp(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			ls, err := a.Lessons().List(ctx, app.LessonListRequest{Domain: cmd.String("domain"), MinStrength: cmd.Float("min-strength"), Episode: cmd.String("episode")})
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(ls)
			}
			for _, l := range ls {
				mark := ""
				switch {
				case l.Archived:
					mark = " (archived)"
				case l.Proposed:
					mark = " (proposed)"
				}
				fmt.Fprintf(sh.stdout, "%.2f  %s — %s%s\n      %s (domain %s, confidence %v, version %d, %d applications)\n",
					l.Strength, l.Name, l.ActionBias, mark, l.Path, orNone(l.Domain), l.Confidence, l.Version, l.Applications)
			}
			if len(ls) == 0 {
				fmt.Fprintln(sh.stdout, "no lesson")
			}
			return nil
		}),
	}
}

// orNone is s, or "(none)" when it is empty.
func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func lessonMatchCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "match", Usage: "the lessons for what you are about to do, strongest and most relevant first", ArgsUsage: "[TEXT...]",
		Description: "Ranks by relevance (trigger words, tool and path globs matched exactly, keywords over the\n" +
			"lesson's trigger, action bias and text, and meaning: the vault's embedder over the lesson and the\n" +
			"notes around it) x strength. With --json: {lessons: [{path, name, trigger, action_bias, strength,\n" +
			"confidence, relevance, score, on, why, about, suggested_adjustment}], ms, cached}.\n" +
			"--hook is 'vaultmem hook --client claude-code' (kept for hooks set up by hand): it reads any\n" +
			"Claude Code hook event on standard input and never blocks the agent.",
		Flags: append(situationFlags(), jsonFlag(),
			&cli.IntFlag{Name: "k", Value: app.DefaultLessons, Usage: fmt.Sprintf("return at most `K` lessons (1 to %d; 0: %d)", app.MaxLessons, app.DefaultLessons)},
			&cli.BoolFlag{Name: "hook", Usage: "act as 'vaultmem hook --client claude-code' (stdin: the hook's JSON)"},
		),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Bool("hook") {
				out, err := sh.hook(ctx, setup.ClaudeCode, false)
				if err != nil {
					fmt.Fprintf(sh.stderr, "vaultmem hook: %v\n", err)
				}
				sh.stdout.Write(out)
				return nil
			}
			s := app.Situation{Text: strings.Join(cmd.Args().Slice(), " "), Tool: cmd.String("tool"), Paths: cmd.StringSlice("path")}
			res, err := query(ctx, sh, app.OpMatch, app.MatchRequest{Situation: s, K: int(cmd.Int("k"))}, 0)
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(res)
			}
			if len(res.Lessons) == 0 {
				fmt.Fprintln(sh.stdout, "no lesson matches")
			}
			for _, m := range res.Lessons {
				fmt.Fprintf(sh.stdout, "%.2f  %s — %s\n      %s\n      %s (strength %v, confidence %v, relevance %v: %s)\n", m.Score, m.Name, m.ActionBias,
					m.SuggestedAdjustment, m.Path, m.Strength, m.Confidence, m.Relevance, m.Why)
			}
			return nil
		},
	}
}

func lessonOutcomeCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "outcome", Usage: "say how applying a lesson went: its strength follows", ArgsUsage: "LESSON",
		Description: "--success adds 0.05, --failure takes 0.1 (below 0.3 the lesson is flagged for review),\n" +
			"to the strength its History computes for now (decay included; a person's edit of strength\n" +
			"counts, recorded as 'set by hand'). Appends a History line and a record to the\n" +
			"outcome log (with the lessons match shows for --context/--tool/--path). Confidence is the\n" +
			"mean of a Beta posterior of the History's successes and failures (prior: 0.5, worth 2 outcomes).\n" +
			"With --json: {path, name, outcome, strength_before, strength_after, application_count, confidence,\n" +
			"version, flagged, history}.",
		Flags: append(situationFlags(), jsonFlag(), agentFlag(),
			&cli.BoolFlag{Name: "success", Usage: "applying it helped"},
			&cli.BoolFlag{Name: "failure", Usage: "applying it did not help"},
			&cli.StringFlag{Name: "episode", Usage: "the `NOTE` (a task, a memory) where it happened"},
			&cli.StringFlag{Name: "context", Usage: "what the agent was doing, `TEXT`"},
		),
		Action: sh.withApp(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			ref, err := oneArg(cmd, "LESSON")
			if err != nil {
				return err
			}
			if cmd.Bool("success") == cmd.Bool("failure") {
				return usagef("give one of --success and --failure")
			}
			agent, err := sh.agentOf(cmd)
			if err != nil {
				return err
			}
			res, err := a.Lessons().RecordOutcome(ctx, app.LessonOutcomeRequest{Lesson: ref, Success: cmd.Bool("success"), Episode: cmd.String("episode"),
				Context: cmd.String("context"), Tool: cmd.String("tool"), Paths: cmd.StringSlice("path"), Agent: agent})

			if err != nil {
				return err
			}
			line := fmt.Sprintf("%s %s: strength %v → %v", res.Outcome, res.Path, res.Before, res.After)
			if res.Flagged {
				line += " (flagged for review)"
			}
			line += fmt.Sprintf("; confidence %v", res.Confidence)
			return sh.out(cmd, res, line)
		}),
	}
}

func lessonDecayCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "decay", Usage: "weaken the lessons unused for too long (Dream runs this too)",
		Description: "x0.99 a day past 30 days unused, counted once per day however often it runs; below 0.2 a\n" +
			"lesson is archived (kept as a note, out of matching). Pinned lessons never decay. A lesson\n" +
			"whose trigger or strength is broken is never rewritten: it is listed as skipped, with its\n" +
			"file and line, until you fix it.\n" +
			"With --json: {decayed: [{path, name, strength_before, strength_after, days, archived}],\n" +
			"skipped: [{path, line, reason}], dry_run}.",
		Flags: []cli.Flag{jsonFlag(),
			&cli.BoolFlag{Name: "dry-run", Usage: "say what would change; write nothing"},
			&cli.StringFlag{Name: "today", Usage: "decay as of `YYYY-MM-DD` (default: today)"},
		},
		Action: sh.withApp(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			rep, err := a.Lessons().Decay(ctx, app.LessonDecayRequest{Today: cmd.String("today"), DryRun: cmd.Bool("dry-run")})
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(rep)
			}
			for _, d := range rep.Decayed {
				line := fmt.Sprintf("%s: %v → %v (%d days)", d.Path, d.Before, d.After, d.Days)
				if d.Archived {
					line += ", archived"
				}
				fmt.Fprintln(sh.stdout, line)
			}
			for _, sk := range rep.Skipped {
				at := sk.Path
				if sk.Line > 0 {
					at = fmt.Sprintf("%s:%d", sk.Path, sk.Line)
				}
				fmt.Fprintf(sh.stdout, "skipped %s: %s\n", at, sk.Reason)
			}
			fmt.Fprintf(sh.stdout, "%d lessons decayed\n", len(rep.Decayed))
			return nil
		}),
	}
}

func lessonReviewCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "review", Usage: "the lessons that need a look: flagged, weak, proposed by Dream, or with frontmatter problems",
		Description: "With --json: [{path, name, strength, archived, reasons, line}]. --all lists every lesson.",
		Flags:       []cli.Flag{jsonFlag(), &cli.BoolFlag{Name: "all", Usage: "list every lesson"}},
		Action: sh.withApp(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			rs, err := a.Lessons().Review(ctx, app.LessonReviewRequest{All: cmd.Bool("all")})
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(rs)
			}
			for _, r := range rs {
				fmt.Fprintf(sh.stdout, "%s (strength %v)\n", r.Path, r.Strength)
				for _, why := range r.Reasons {
					fmt.Fprintf(sh.stdout, "  - %s\n", why)
				}
			}
			if len(rs) == 0 {
				fmt.Fprintln(sh.stdout, "nothing to review")
			}
			return nil
		}),
	}
}

func lessonContradictionsCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "contradictions", Usage: "lessons whose triggers overlap and whose action biases point opposite ways",
		Description: "Ctrl-C or SIGTERM stops it: exit 130, nothing printed.\n" +
			"With --json: [{lessons: [path, path], overlap, why}].",
		Flags: []cli.Flag{jsonFlag()},
		Action: sh.withApp(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			cs, err := a.Lessons().Contradictions(ctx, app.LessonContradictionsRequest{})
			if err == nil {
				err = ctx.Err() // a signal once the pairs are found: print none of them
			}
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(cs)
			}
			for _, c := range cs {
				fmt.Fprintf(sh.stdout, "%s and %s (both on %s): %s\n", c.A, c.B, c.Overlap, c.Why)
			}
			if len(cs) == 0 {
				fmt.Fprintln(sh.stdout, "no contradictions")
			}
			return nil
		}),
	}
}

func lessonHistoryCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "history", Usage: "a lesson's audit trail: its History lines and logged outcomes", ArgsUsage: "LESSON",
		Description: "With --json: {path, name, strength, confidence, version, lines, outcomes: [records]}.",
		Flags:       []cli.Flag{jsonFlag()},
		Action: sh.withApp(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			ref, err := oneArg(cmd, "LESSON")
			if err != nil {
				return err
			}
			h, err := a.Lessons().History(ctx, app.LessonHistoryRequest{Lesson: ref})
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(h)
			}
			fmt.Fprintf(sh.stdout, "%s (%s), strength %v, confidence %v, version %d\n", h.Name, h.Path, h.Strength, h.Confidence, h.Version)
			for _, l := range h.Lines {
				fmt.Fprintf(sh.stdout, "  %s\n", l)
			}
			return nil
		}),
	}
}

func lessonTrendsCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "trends", Usage: "outcomes, success rate and strength by domain and month",
		Description: "--since and --until keep the outcomes logged from and to those days (UTC, both included).\n" +
			"With --json: [{domain, month, outcomes, successes, success_rate, mean_strength}].",
		Flags: []cli.Flag{jsonFlag(), &cli.StringFlag{Name: "domain", Usage: "only this `DOMAIN`"},
			&cli.StringFlag{Name: "since", Usage: "only outcomes logged on or after `YYYY-MM-DD`"},
			&cli.StringFlag{Name: "until", Usage: "only outcomes logged on or before `YYYY-MM-DD`"},
		},
		Action: sh.withApp(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			ts, err := a.Lessons().Trends(ctx, app.LessonTrendsRequest{Domain: cmd.String("domain"), Since: cmd.String("since"), Until: cmd.String("until")})
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(ts)
			}
			for _, t := range ts {
				fmt.Fprintf(sh.stdout, "%-12s %s  %3d outcomes, %3.0f%% success, mean strength %.2f\n", t.Domain, t.Month, t.Outcomes, t.SuccessRate*100, t.MeanStrength)
			}
			return nil
		}),
	}
}

func lessonRouterCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "router", Usage: "measure the learned router against the static order on a replayed outcome log",
		Description: "Replays this vault's outcome log in time order (the first --train-fraction to train on, the\n" +
			"rest to test, learning as it goes) and reports precision at 1 and 3 of the static order\n" +
			"(relevance x strength) and of the learned router. --simulate also replays logs of two synthetic\n" +
			"worlds, one where usefulness depends on the context in ways the static order cannot see, one\n" +
			"where it follows relevance x strength. The router reranks matches only with lessons.router:\n" +
			"true in the config. With --json: {log: {train, held, test, static_p1, learned_p1, static_p3,\n" +
			"learned_p3}, simulated: [{world, seed, report}]}.",
		Flags: []cli.Flag{jsonFlag(),
			&cli.FloatFlag{Name: "train-fraction", Value: 0.5, Usage: "the share of the log, oldest first, to train on (`F`, 0 to 1)"},
			&cli.BoolFlag{Name: "simulate", Usage: "also replay simulated logs (3 seeds of each world, 3,000 records each)"},
		},
		Action: sh.withApp(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			out, err := a.Lessons().EvalRouter(ctx, app.LessonRouterRequest{TrainFraction: cmd.Float("train-fraction"), Simulate: cmd.Bool("simulate")})
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(out)
			}
			fmt.Fprintf(sh.stdout, "%-28s %6s %6s  %s  %s\n", "log", "train", "tested", "P@1 static → learned", "P@3 static → learned")
			line := func(name string, r app.RouterReport) {
				fmt.Fprintf(sh.stdout, "%-28s %6d %6d  %.3f → %.3f          %.3f → %.3f\n", name, r.Train, r.Test, r.StaticP1, r.LearnedP1, r.StaticP3, r.LearnedP3)
			}
			line("this vault", out.Log)
			for _, s := range out.Simulated {
				line(fmt.Sprintf("%s (seed %d)", s.World, s.Seed), s.Report)
			}
			if out.Log.Test == 0 {
				fmt.Fprintln(sh.stdout, "(this vault's log has no outcome to test on yet: a success, logged with a context, among 2+ lessons shown)")
			}
			return nil
		}),
	}
}

func lessonStatsCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name: "stats", Usage: "the lessons' quality: precision and recall of what match shows, strength vs success",
		Description: "Precision: of the lessons shown for outcomes logged with a context, the share that was the\n" +
			"one applied; recall: the share of those outcomes whose lesson had been shown; the correlation of\n" +
			"strength with success. With --json: {lessons, live, flagged, archived, proposed, outcomes, successes,\n" +
			"precision, recall, strength_success_correlation} (null when not computable)." + liveDescription,
		Flags: []cli.Flag{jsonFlag(), liveFlag()},
		Action: sh.liveOr(sh.withApp(func(ctx context.Context, cmd *cli.Command, a *app.App) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			s, err := a.Lessons().Stats(ctx, app.LessonStatsRequest{})
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(s)
			}
			opt := func(f *float64) string {
				if f == nil {
					return "n/a"
				}
				return fmt.Sprintf("%.2f", *f)
			}
			fmt.Fprintf(sh.stdout, "%d lessons (%d live, %d flagged, %d archived, %d proposed); %d outcomes, %d successes\n",
				s.Lessons, s.Live, s.Flagged, s.Archived, s.Proposed, s.Outcomes, s.Successes)
			fmt.Fprintf(sh.stdout, "precision %s, recall %s, strength-success correlation %s\n", opt(s.Precision), opt(s.Recall), opt(s.StrengthSuccess))
			return nil
		})),
	}
}
