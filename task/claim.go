package task

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/vaultmem/vaultmem/markdown"
)

// StartedLayout is how a task's started is written: a date and a time,
// local time, in the form Obsidian gives a "Date & time" property (the
// session notes' started is a time too, and Obsidian gives a property one
// type in a vault). Notes written before hold a date alone: every reader
// takes both (see claimTime).
const StartedLayout = "2006-01-02T15:04"

// Claim is who holds a task on one side of a merge, and since when.
type Claim struct {
	Agent   string `json:"agent"`
	Started string `json:"started,omitempty"`
	Status  string `json:"status,omitempty"`
}

// claimOf is the claim note n records.
func claimOf(n *markdown.Note) Claim {
	return Claim{Agent: field(n, "assignee"), Started: field(n, "started"), Status: status(n)}
}

// claimTime is a started value made comparable: a date alone is the
// start of its day, a date and a time ("2026-11-23T14:02" or
// "2026-11-23 14:02", seconds and a zone ignored) is to the minute; ""
// (never started) sorts after every time.
func claimTime(started string) string {
	s := strings.TrimSpace(started)
	if s == "" {
		return "~"
	}
	if len(s) >= len("2006-01-02T15:04") && (s[10] == 'T' || s[10] == ' ') {
		return s[:10] + "T" + s[11:16]
	}
	if len(s) >= len(time.DateOnly) {
		return s[:len(time.DateOnly)] + "T00:00"
	}
	return s
}

// ClaimWinner decides between two claims of one task made apart (two
// clones started it): the earlier started wins, then the lower agent id
// (byte order), so that both sides of a merge pick the same holder
// whichever merges. A side without an agent claims nothing: the other
// wins, and contested is false; contested is false too when both name
// the same agent (the earlier start is kept).
func ClaimWinner(a, b Claim) (winner, loser Claim, contested bool) {
	switch {
	case b.Agent == "":
		return a, b, false
	case a.Agent == "":
		return b, a, false
	}
	ta, tb := claimTime(a.Started), claimTime(b.Started)
	if tb < ta || tb == ta && b.Agent < a.Agent {
		return b, a, a.Agent != b.Agent
	}
	return a, b, a.Agent != b.Agent
}

// settleClaim is the task kind's Settle rule (see MergeRules): when both
// sides of a merge claimed the task for different agents, the winner's
// assignee, started and status are kept and the loser's claim is logged
// as a note event in the task's log.
func settleClaim(base, ours, theirs *markdown.Note) markdown.Settlement {
	if ours.Type() != Type || theirs.Type() != Type {
		return markdown.Settlement{}
	}
	b, o, t := claimOf(base), claimOf(ours), claimOf(theirs)
	if o.Agent == b.Agent || t.Agent == b.Agent {
		return markdown.Settlement{} // one side left the claim as it was: the other's change is the merge
	}
	win, lose, contested := ClaimWinner(o, t)
	var started, st any
	if win.Started != "" {
		started = markdown.FromJSON(win.Started)
	}
	if win.Status != "" {
		st = win.Status
	}
	out := markdown.Settlement{Keys: []markdown.KeyValue{{Key: "assignee", Value: win.Agent}, {Key: "started", Value: started}, {Key: "status", Value: st}}}
	if win.Agent == "" {
		out.Keys[0].Value = nil
	}
	if contested {
		out.Section, out.Entries = LogHeading, []string{ClaimEvent(win, lose)}
	}
	return out
}

// ClaimEvent is the log line recording that lose's claim of a task was
// settled to win. Its time is the loser's start (the start of its day
// when started holds no time; the winner's when the loser's has none),
// so that every clone merging the same two claims writes the same line.
func ClaimEvent(win, lose Claim) string {
	at, err := time.Parse(StartedLayout, claimTime(lose.Started))
	if err != nil {
		at, _ = time.Parse(StartedLayout, claimTime(win.Started))
	}
	return FormatEvent(at, "note", fmt.Sprintf("claim settled to %s (started %s): %s's claim (started %s) lost, as the earlier start holds the task, then the lower agent id",
		win.Agent, orUnknown(win.Started), lose.Agent, orUnknown(lose.Started)))
}

// claimRe reads the text of a ClaimEvent back: the winner, its start,
// the loser, its start.
var claimRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^claim settled to (\S+) \(started ([^)]*)\): (\S+)'s claim \(started ([^)]*)\) lost`)
})

// lostClaim returns the claim agent lost on the task n, as its log
// records it (the last such event); ok is false when none is logged.
func lostClaim(n *markdown.Note, agent string) (lost Claim, at string, ok bool) {
	for _, e := range Events(n) {
		if m := claimRe().FindStringSubmatch(e.Text); e.Type == "note" && m != nil && m[3] == agent {
			lost, at, ok = Claim{Agent: m[3], Started: m[4]}, e.Time, true
		}
	}
	return lost, at, ok
}

// kin reports whether agents a and b are one, or one is a subagent of
// the other ("claude" and "claude/tests"): a task either holds is not
// another agent's.
func kin(a, b string) bool {
	return a == b || strings.HasPrefix(a, b+"/") || strings.HasPrefix(b, a+"/")
}

// heldNotice says, for agent whose focus is the task n, that another
// agent holds it ("" when agent, or the agent whose focus file it is,
// holds it, or a subagent or parent agent of theirs, or no one does): the task's holder and since when, and the
// claim of agent's a merge settled to the holder when its log says so.
func heldNotice(n *markdown.Note, agent, from string) (holder, notice string) {
	c := claimOf(n)
	if c.Agent == "" || kin(c.Agent, agent) || kin(c.Agent, from) || c.Status != Doing && c.Status != Blocked {
		return "", ""
	}
	notice = fmt.Sprintf("task %s (%s) is held by agent %s since %s, not by you (%s)", name(n), n.Path, c.Agent, orUnknown(c.Started), agent)
	for _, who := range []string{agent, from} {
		if lost, _, ok := lostClaim(n, who); ok {
			notice += fmt.Sprintf(": your claim (started %s) was settled to %s when two clones' changes merged", orUnknown(lost.Started), c.Agent)
			break
		}
	}
	return c.Agent, notice + "; start another task, or take it over with task start --force"
}

// orUnknown is s, or "unknown" when it is "" (a claim with no start).
func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
