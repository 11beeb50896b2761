package hookpolicy

import (
	"context"
	"errors"
	"fmt"
	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/text"
	"github.com/vaultmem/vaultmem/vault"
	"path/filepath"
	"strings"
)

// checkpoint keeps what was being done before a compaction on the
// session's state, given back at the next start after the compaction. It
// goes into the focused task's log, so that nothing is lost with the
// conversation, only once the conversation was compacted for certain
// (see compacted): a client may announce a compaction that then compacts
// nothing (Claude Code's /compact of a short conversation, Gemini CLI's
// check before every turn), and that leaves no checkpoint in a log.
func (h *Policy) checkpoint(ctx context.Context, ev Event) error {
	focus, err := h.Tasks.Focus(ctx, ev.Agent)
	if err != nil {
		return err
	}
	_, err = h.updateSession(ctx, ev, func(st *session.State) error {
		if st.Checkpoint != nil && st.Checkpoint.Time.Equal(ev.Time) {
			return nil // the same event, sent again
		}
		text := checkpointText(st, focus.Task)
		st.Checkpoint = &session.Checkpoint{Time: ev.Time, Trigger: ev.Trigger, Task: focus.Task, Text: text}
		st.AddTask(focus.Task)
		return nil
	})
	if err != nil || !ev.Compacts {
		return err
	}
	return h.compacted(ctx, ev)
}

// compacted logs the checkpoint taken before a compaction that happened
// as a note on the task focused then, once.
func (h *Policy) compacted(ctx context.Context, ev Event) error {
	var c session.Checkpoint
	if _, _, err := h.States.ReadState(session.StateName(ev.Session)); errors.Is(err, vault.ErrNotFound) {
		return nil // no session, no checkpoint
	}
	_, err := h.updateSession(ctx, ev, func(st *session.State) error {
		if cp := st.Checkpoint; cp != nil && !cp.Compacted {
			cp.Compacted = true
			c = *cp
			st.Forget() // the conversation no longer holds what it was given
		}
		return nil
	})
	if err != nil || c.Task == "" {
		return err
	}
	_, err = h.Tasks.Event(ctx, ev.Agent, c.Task, "note", "Checkpoint before the conversation was compacted: "+c.Text)
	return err
}

// checkpointText says what the session was doing: its focused task, its
// last prompts, the files it changed.
func checkpointText(st *session.State, focus string) string {
	var parts []string
	if focus != "" {
		parts = append(parts, "working on "+strings.TrimSuffix(filepath.Base(focus), ".md"))
	}
	if n := len(st.Prompts); n > 0 {
		var last []string
		for _, p := range st.Prompts[max(0, n-3):] {
			last = append(last, fmt.Sprintf("%q", text.Shorten(p.Text, 200)))
		}
		parts = append(parts, "last prompts "+strings.Join(last, ", "))
	}
	if len(st.Files) > 0 {
		files := st.Files
		if len(files) > 20 {
			files = files[len(files)-20:]
		}
		parts = append(parts, "files changed "+strings.Join(files, ", "))
	}
	if len(parts) == 0 {
		return "nothing recorded yet in this session."
	}
	return strings.Join(parts, "; ") + "."
}
