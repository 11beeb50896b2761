package hookpolicy

import (
	"context"
	"fmt"
	"github.com/vaultmem/vaultmem/frame"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/session"
	"strings"
)

// sessionStart gives what a session should start with: after a
// compaction the checkpoint taken before it, the focused task's context,
// MEMORY.md, and what needs a human's review. The session note is
// written at once, so that what the session does can link to it.
func (h *Policy) sessionStart(ctx context.Context, ev Event) (Answer, error) {
	if err := h.Sync.Fresh(ctx); err != nil {
		return Answer{}, err
	}
	if ev.Source == "compact" {
		// The start after a compaction: it happened.
		if err := h.compacted(ctx, ev); err != nil {
			return Answer{}, err
		}
	}
	var items []frame.Item
	var given []string
	focus, err := h.Tasks.Focus(ctx, ev.Agent)
	if err != nil {
		return Answer{}, err
	}
	st, err := h.updateSession(ctx, ev, func(st *session.State) error {
		st.Resume(ev.Time) // a session ended before: the same note goes on
		st.AddTask(focus.Task)
		return nil
	})
	if err != nil {
		return Answer{}, err
	}
	if c := st.Checkpoint; c != nil && ev.Source == "compact" {
		items = append(items, frame.Item{Source: frame.SourceVaultmem, Title: "Before the compaction", Text: c.Text})
	}
	if focus.Task != "" {
		tc, err := h.Tasks.Context(ctx, ev.Agent, "", h.Settings.Hooks.SessionBudget/2)
		if err != nil {
			return Answer{}, err
		}
		items = append(items, frame.Item{Source: frame.SourceTask, Path: focus.Task, Title: "Your focused task", Text: tc.Context})
		given = append(given, focus.Task)
	}
	mine, theirs, shared, err := h.Memory.Personal(ctx)
	if err != nil {
		return Answer{}, err
	}
	if shared {
		// MEMORY.md, shared with the teammates, lists no person's user
		// memories: the person's own come first, as MEMORY.md's User
		// group does in a vault one person keeps.
		items = append(items, frame.Item{Source: frame.SourceMemory, Title: "About the user (their own user memories, which MEMORY.md, shared with their teammates, does not list)", Text: personalLines(mine)})
	}
	list, err := h.Memory.ListText()
	if err != nil {
		return Answer{}, err
	}
	items = append(items, frame.Item{Source: frame.SourceList, Path: h.Memory.ListFile(), Title: "What you remember", Text: list})
	review, err := h.needsReview(ctx, theirs)
	if err != nil {
		return Answer{}, err
	}
	items = append(items, frame.Item{Source: frame.SourceVaultmem, Title: "Needs review", Text: review})
	note, err := h.writeSessionNote(ctx, ev)
	if err != nil {
		return Answer{}, err
	}
	out, _ := fit(sessionPreamble, h.Settings.Hooks.SessionBudget, items)
	return Answer{Context: out, Given: given, Note: note}, nil
}

// The preambles of the hooks' contexts: vaultmem's own line above each
// frame (see package frame).
const (
	sessionPreamble = "Memory from the user's vault (vaultmem). Recall more with the vaultmem tools (recall, search); save what you learn with remember."
	promptPreamble  = "From the user's vault, for this prompt (vaultmem):"
	lessonsPreamble = "Lessons from memory for this step (vaultmem):"
)

// personalLines are a person's own memories as MEMORY.md would list them,
// linked by vault path.
func personalLines(es []memory.Entry) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString(memory.Line(".", e) + "\n")
	}
	return b.String()
}

// needsReview lists what waits for a human: lessons flagged for review
// (and those Dream proposed), memories Dream found contradicting each
// other that still stand (see memory.Store.Standing), but for pairs of a
// teammate's user memory (theirs, by path), and the memories Dream
// proposed but a teammate's.
func (h *Policy) needsReview(ctx context.Context, theirs map[string]bool) (string, error) {
	var b strings.Builder
	ls, err := h.Lessons.Open()
	if err != nil {
		return "", err
	}
	rs, err := ls.Review(ctx, false)
	if err != nil {
		return "", err
	}
	for _, r := range rs {
		fmt.Fprintf(&b, "- lesson %s (%s): %s\n", r.Name, r.Path, strings.Join(r.Reasons, "; "))
	}
	flags, err := h.Memory.Standing(ctx)
	if err != nil {
		return "", err
	}
	for _, f := range flags {
		if f.Kind.Listed() && !theirs[f.A] && !theirs[f.B] {
			fmt.Fprintf(&b, "- memories %s and %s %s: %s\n", f.A, f.B, f.Kind.Phrase(), f.Reason)
		}
	}
	proposals, err := h.Index.Proposed(ctx)
	if err != nil {
		return "", err
	}
	for _, p := range proposals {
		if p.Type == lesson.Type || theirs[p.Path] {
			continue // listed with the lessons above, or a teammate's
		}
		fmt.Fprintf(&b, "- memory %s (%s) proposed by Dream", p.Title, p.Path)
		if p.Source != "" {
			fmt.Fprintf(&b, " from [[%s]]", p.Source)
		}
		b.WriteString(": accept it by removing status: proposed, or delete it\n")
	}
	return b.String(), nil
}
