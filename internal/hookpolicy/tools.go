package hookpolicy

import (
	"context"
	"errors"
	"fmt"
	"github.com/vaultmem/vaultmem/frame"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/session"
	"path/filepath"
	"strings"
)

// relativePaths makes the paths of a tool call relative to the project
// (cwd) or the vault, as triggers name them; others stay as they are.
func (h *Policy) relativePaths(cwd string, paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p
		if !filepath.IsAbs(p) {
			continue
		}
		for _, base := range []string{cwd, h.Vault.Dir} {
			if base == "" {
				continue
			}
			if rel, err := filepath.Rel(base, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				out[i] = filepath.ToSlash(rel)
				break
			}
		}
	}
	return out
}

// vaultNotes are the vault paths of the notes among paths (absolute, or
// relative to cwd) that lie in the vault.
func (h *Policy) vaultNotes(cwd string, paths []string) []string {
	var out []string
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			if cwd == "" {
				continue
			}
			p = filepath.Join(cwd, p)
		}
		rel, err := filepath.Rel(h.Vault.Dir, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || !strings.EqualFold(filepath.Ext(rel), ".md") {
			continue
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

// toolLessons gives the lessons for a tool call: those strong enough
// (not flagged for review) that match more than the tool's name, and
// remembers them for the call's outcome.
func (h *Policy) toolLessons(ctx context.Context, ev Event) (Answer, error) {
	if h.Settings.Hooks.Lessons == 0 {
		return Answer{}, nil
	}
	s := lesson.Situation{Tool: ev.Tool, Text: ev.Words, Paths: h.relativePaths(ev.Cwd, ev.Paths)}
	res, err := h.Lessons.Match(ctx, s, lesson.MaxK)
	if err != nil || len(res.Lessons) == 0 {
		return Answer{}, err
	}
	rules := h.Settings.Rules // checked when the config loaded
	var shown []session.Shown
	var items []frame.Item
	for _, m := range res.Lessons {
		if rules.Flagged(m.Strength) || m.OnlyTool() || len(shown) == h.Settings.Hooks.Lessons {
			continue
		}
		shown = append(shown, session.Shown{Path: m.Path, Name: m.Name, About: m.About})
		items = append(items, frame.Item{Source: frame.SourceLesson, Path: m.Path, Title: m.Name,
			Extra: []string{"strength", fmt.Sprint(m.Strength)}, Text: m.ActionBias})
	}
	if len(shown) == 0 {
		return Answer{}, nil
	}
	if _, err := h.updateSession(ctx, ev, func(st *session.State) error {
		st.Show(ev.ToolUseID, ev.Tool, shown)
		return nil
	}); err != nil {
		return Answer{}, err
	}
	given := make([]string, len(shown))
	for i, l := range shown {
		given[i] = l.Path
	}
	return Answer{Context: frame.Frame(lessonsPreamble, items...), Given: given}, nil
}

// toolOutcome logs the outcome of each lesson shown before the call (a
// success unless the call failed) and keeps the files it changed.
func (h *Policy) toolOutcome(ctx context.Context, ev Event) error {
	var shown []session.Shown
	changed := h.relativePaths(ev.Cwd, ev.Paths)
	st, err := h.updateSession(ctx, ev, func(st *session.State) error {
		shown = st.TakeShown(ev.ToolUseID)
		if ev.Edits && !ev.Failed {
			for _, p := range changed {
				st.AddFile(p)
			}
			for _, p := range h.vaultNotes(ev.Cwd, ev.Paths) {
				st.AddWrote(p)
			}
		}
		return nil
	})
	if err != nil || len(shown) == 0 {
		return err
	}
	ls, err := h.Lessons.Open()
	if err != nil {
		return err
	}
	// The episode is the session's note, written now if it is not yet (a
	// session is given a note once it does something, and this is
	// something).
	episode := st.Note
	if episode == "" {
		if episode, err = h.writeSessionNote(ctx, ev); err != nil {
			return err
		}
	}
	var outcomes []session.Outcome
	for _, l := range shown {
		o := session.Outcome{Time: ev.Time, Lesson: l.Path, Name: l.Name, Tool: ev.Tool, Success: !ev.Failed, Unrelated: !l.About}
		if o.Unrelated {
			// Shown on its keywords or some trigger words: how the call
			// went is not the lesson's outcome (a test run failing for
			// its own reasons says nothing of "run migrations first").
			outcomes = append(outcomes, o)
			continue
		}
		_, err := ls.Outcome(ctx, lesson.Outcome{Lesson: l.Path, Success: !ev.Failed, Episode: episode,
			Context: ev.Words, Tool: ev.Tool, Paths: changed, Agent: ev.Agent})
		if err != nil {
			o.Error = err.Error()
		}
		outcomes = append(outcomes, o)
	}
	_, err = h.updateSession(ctx, ev, func(st *session.State) error {
		st.Outcomes = append(st.Outcomes, outcomes...)
		return nil
	})
	if err != nil {
		return err
	}
	// An outcome that could not be recorded is said (the hook's stderr),
	// as the session note says it.
	var failed []error
	for _, o := range outcomes {
		if o.Error != "" {
			failed = append(failed, fmt.Errorf("the outcome of lesson %s was not recorded: %s", o.Lesson, o.Error))
		}
	}
	return errors.Join(failed...)
}
