package main

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

// liveFlag is lesson stats's --live.
func liveFlag() cli.Flag {
	return &cli.BoolFlag{Name: "live", Usage: "the live health of the running vaultmem mcp or watch: hot cache, match latency, success after a showing, lessons failing in a row"}
}

// liveDescription is what lesson stats's help says of --live.
const liveDescription = "\n\nWith --live: asked of the vaultmem mcp or watch running for this vault, its hot cache's hits and\n" +
	"misses, the match latency (p50, p95, p99 over its latest 1,024 matches), per lesson how often it was\n" +
	"shown and how often an outcome after a showing succeeded, and, from the outcome log, the lessons\n" +
	"failing lessons.alert_failures times in a row. With no such process running it says so and gives\n" +
	"the failing lessons alone. With --json: {live, since, hot_cache, latency, lessons, alert_failures,\n" +
	"failing} (since, hot_cache and latency null when not live)."

// liveOr runs lessonHealth for --live, else action.
func (sh *shell) liveOr(action cli.ActionFunc) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error {
		if !cmd.Bool("live") {
			return action(ctx, cmd)
		}
		if err := noArgs(cmd); err != nil {
			return err
		}
		h, err := query(ctx, sh, app.OpLessonHealth, app.LessonHealthRequest{}, 0)
		if err != nil {
			return err
		}
		if cmd.Bool("json") {
			if !h.Live {
				fmt.Fprintln(sh.stderr, "vaultmem: "+notLive)
			}
			return sh.printJSON(h)
		}
		sh.printHealth(h)
		return nil
	}
}

// notLive says that no resident process answered lesson stats --live.
const notLive = "no vaultmem mcp or watch is running for this vault: no live counters; the failing lessons are from the outcome log"

// printHealth prints h as text.
func (sh *shell) printHealth(h app.LessonHealth) {
	w := sh.stdout
	if !h.Live {
		fmt.Fprintln(w, notLive)
	} else {
		fmt.Fprintf(w, "live since %s\n", h.Since.UTC().Format(time.DateTime+" UTC"))
		fmt.Fprintf(w, "hot cache: %d hits, %d misses (hit rate %s)\n", h.HotCache.Hits, h.HotCache.Misses, rateText(h.HotCache.HitRate))
		l := h.Latency
		if l.Window == 0 {
			fmt.Fprintln(w, "match latency: no match yet")
		} else {
			fmt.Fprintf(w, "match latency over the latest %d of %d matches: p50 %s ms, p95 %s ms, p99 %s ms\n",
				l.Window, l.Matches, msText(l.P50), msText(l.P95), msText(l.P99))
		}
		if len(h.Lessons) == 0 {
			fmt.Fprintln(w, "no lesson shown or applied yet")
		}
		for _, ls := range h.Lessons {
			fmt.Fprintf(w, "  %s (%s): shown %d, %d outcomes, %d after a showing, %d of them succeeded (rate %s)\n",
				ls.Name, ls.Path, ls.Shown, ls.Outcomes, ls.Followed, ls.Successes, rateText(ls.SuccessRate))
		}
	}
	switch {
	case h.AlertFailures == 0:
		fmt.Fprintln(w, "failure alert off (lessons.alert_failures: 0)")
	case len(h.Failing) == 0:
		fmt.Fprintf(w, "no lesson failing %d times in a row\n", h.AlertFailures)
	default:
		fmt.Fprintf(w, "failing %d or more times in a row (listed under MEMORY.md's Needs review):\n", h.AlertFailures)
		for _, f := range h.Failing {
			fmt.Fprintf(w, "  %s (%s): %d failures in a row since %s; %d of %d outcomes succeeded; strength %s\n", f.Name, f.Path,
				f.Failures, f.Since.UTC().Format(time.DateOnly), f.Successes, f.Outcomes, strconv.FormatFloat(f.Strength, 'f', -1, 64))
		}
	}
}

// rateText is a rate, or n/a when there is none.
func rateText(f *float64) string {
	if f == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", *f)
}

// msText is a latency in milliseconds, or n/a when there is none.
func msText(f *float64) string {
	if f == nil {
		return "n/a"
	}
	return strconv.FormatFloat(*f, 'f', 3, 64)
}
