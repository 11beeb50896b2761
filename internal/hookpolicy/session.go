package hookpolicy

import (
	"context"
	"errors"
	"fmt"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/vault"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// updateSession changes the state of ev's session with fn (quick, no
// Writer call), making it when it is new.
func (h *Policy) updateSession(ctx context.Context, ev Event, fn func(st *session.State) error) (*session.State, error) {
	var out *session.State
	_, err := h.States.UpdateState(ctx, session.StateName(ev.Session), func(cur []byte) ([]byte, error) {
		st, err := session.Decode(cur)
		if err != nil {
			return nil, err
		}
		if st.ID == "" {
			st.ID, st.Started = ev.Session, ev.Time
		}
		if ev.Client != "" {
			st.Client = ev.Client
		}
		if ev.Cwd != "" {
			st.Cwd = ev.Cwd
		}
		st.Agent, st.Updated = ev.Agent, ev.Time
		if err := fn(st); err != nil {
			return nil, err
		}
		out = st
		return st.Encode()
	})
	return out, err
}

// stop writes the session note after a turn, a subagent's run or the
// session's end; at the end the session's state goes.
func (h *Policy) stop(ctx context.Context, ev Event) (Answer, error) {
	if ev.Kind == SessionEnd {
		// An end with no start (a client listing its MCP servers) has
		// nothing to record.
		if _, _, err := h.States.ReadState(session.StateName(ev.Session)); errors.Is(err, vault.ErrNotFound) {
			return Answer{}, nil
		}
	}
	if ev.Compacted {
		if err := h.compacted(ctx, ev); err != nil {
			return Answer{}, err
		}
	}
	focus, err := h.Tasks.Focus(ctx, ev.Agent)
	if err != nil {
		return Answer{}, err
	}
	if _, err := h.updateSession(ctx, ev, func(st *session.State) error {
		st.AddTask(focus.Task)
		switch ev.Kind {
		case SubagentStop:
			st.Subagents++
		case SessionEnd:
			st.Ended, st.EndReason = ev.Time, ev.Reason
		}
		return nil
	}); err != nil {
		return Answer{}, err
	}
	if ev.Kind == SubagentStop && ev.Found != "" && focus.Task != "" {
		// What the sub-agent found goes into the task it worked under,
		// where its parent's next context (and any later session) reads it.
		who := "A sub-agent"
		if ev.Subagent != "" {
			who = "Sub-agent " + ev.Subagent
		}
		if _, err := h.Tasks.Event(ctx, ev.Agent, focus.Task, "note", who+" found: "+ev.Found); err != nil {
			return Answer{}, err
		}
	}
	note, err := h.writeSessionNote(ctx, ev)
	if err != nil {
		return Answer{}, err
	}
	if ev.Kind == SessionEnd {
		// The ended session's state stays, so that a resume continues
		// its note; the states of sessions ended long ago go.
		if err := h.forgetEndedSessions(ctx, ev.Time); err != nil {
			return Answer{Note: note}, err
		}
	}
	return Answer{Note: note}, nil
}

// endedSessionDays is how long the state of a session that ended is kept
// (for a resume to continue its note) after its last change.
const endedSessionDays = 30

// forgetEndedSessions removes the state of the sessions untouched for
// endedSessionDays before now: on this machine, never committed.
func (h *Policy) forgetEndedSessions(ctx context.Context, now time.Time) error {
	names, err := h.States.ListState(session.StateFolder)
	if err != nil {
		return err
	}
	for _, name := range names {
		fi, err := h.Vault.Root().Stat(filepath.FromSlash(vault.StateDir + "/" + name))
		if err != nil || now.Sub(fi.ModTime()) < endedSessionDays*24*time.Hour {
			continue
		}
		if err := h.States.RemoveState(ctx, name, vault.AnyHash); err != nil && !errors.Is(err, vault.ErrNotFound) {
			return err
		}
	}
	return nil
}

// writeSessionNote writes the session's note from its state, under the
// session's lock so that two hooks of one session never race; a note a
// human edited since vaultmem wrote it is left as it is.
func (h *Policy) writeSessionNote(ctx context.Context, ev Event) (string, error) {
	lock := h.Vault.FileLock(vault.TmpDir + "/" + strings.ReplaceAll(session.StateName(ev.Session), "/", "-") + ".lock")
	if err := h.Vault.EnsureDir(vault.TmpDir); err != nil {
		return "", err
	}
	if ok, err := lock.TryLockContext(ctx, 10*time.Millisecond); err != nil || !ok {
		return "", fmt.Errorf("session note: lock %s: %w", lock.Path(), err)
	}
	defer lock.Unlock()
	b, _, err := h.States.ReadState(session.StateName(ev.Session))
	if err != nil {
		return "", err
	}
	st, err := session.Decode(b)
	if err != nil {
		return "", err
	}
	p := st.Note
	if p == "" && !st.Active() {
		return "", nil // a session that did nothing yet leaves no note
	}
	if p == "" {
		p = st.NotePath(h.Settings.SessionsFolder)
		if err := h.ensureSessionsFolder(); err != nil {
			return "", err
		}
	}
	content := st.Render(h.noteNames(ctx, append(slices.Clone(st.Tasks), lessonPaths(st)...)))
	hash, err := h.Notes.Write(ctx, p, content, st.NoteHash)
	var conflict *vault.ConflictError
	if errors.As(err, &conflict) && st.NoteHash != "" {
		return p, nil // a human edited it: theirs from now on
	}
	if err != nil {
		return "", err
	}
	if hash != st.NoteHash {
		if err := h.Index.Refresh(ctx, h.Vault.FS(), p); err != nil {
			return "", err
		}
	}
	_, err = h.States.UpdateState(ctx, session.StateName(ev.Session), func(cur []byte) ([]byte, error) {
		st, err := session.Decode(cur)
		if err != nil {
			return nil, err
		}
		st.Note, st.NoteHash = p, hash
		return st.Encode()
	})
	return p, err
}

// lessonPaths are the lessons a session's state names.
func lessonPaths(st *session.State) []string {
	var out []string
	for _, o := range st.Outcomes {
		out = append(out, o.Lesson)
	}
	for _, c := range st.Calls {
		for _, l := range c.Lessons {
			out = append(out, l.Path)
		}
	}
	return out
}

// noteNames gives the titles of the notes at paths, for links.
func (h *Policy) noteNames(ctx context.Context, paths []string) session.Names {
	titles := map[string]string{}
	if len(paths) > 0 {
		if infos, err := h.Index.List(ctx, index.Query{Paths: paths}); err == nil {
			for _, n := range infos {
				titles[n.Path] = n.Title
			}
		}
	}
	return func(p string) string { return titles[p] }
}

// SessionsGitignore is the .gitignore vaultmem writes into the session
// notes' folder when it makes the folder: session notes stay with the
// person whose agent's sessions they record (see docs/git.md, "A team's
// vault over years": they are most of a shared vault's files and index,
// hold prompts, and a teammate needs the memories and lessons made from
// them, not the transcripts). A person who wants them shared deletes the
// file; vaultmem writes it only into a folder it makes.
const SessionsGitignore = "# vaultmem: session notes stay on this machine (delete this file to share them through git)\n*\n!.gitignore\n"

// ensureSessionsFolder makes the session notes' folder, its .gitignore
// first, when there is none; an existing folder is left as it is.
func (h *Policy) ensureSessionsFolder() error {
	dir := path.Clean(filepath.ToSlash(h.Settings.SessionsFolder))
	if dir == "." || dir == "" {
		return nil // session notes at the vault's top: nothing to keep apart
	}
	_, err := h.Vault.Root().Stat(filepath.FromSlash(dir))
	switch {
	case err == nil:
		return nil
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("session notes: %w", err)
	}
	if _, err := h.Vault.WriteNew(dir+"/.gitignore", []byte(SessionsGitignore)); err != nil {
		return fmt.Errorf("session notes: %w", err)
	}
	return nil
}

// NeedsIndex reports whether Answer reads the index for ev: for every
// event but the outcome of a tool call no lesson was shown for (the
// session's state in states holds no lesson under its id), which changes
// the session's state alone. Any doubt (a state that cannot be read) is a
// yes. The client sends a call's outcome after the hook before it has
// answered, so the state read here is the one Answer finds.
func NeedsIndex(states States, ev Event) bool {
	if ev.Kind != AfterTool || ev.Session == "" {
		return true
	}
	if ev.ToolUseID == "" {
		return false // no lesson is taken for a call without an id
	}
	cur, _, err := states.ReadState(session.StateName(ev.Session))
	if errors.Is(err, vault.ErrNotFound) {
		return false
	}
	if err != nil {
		return true
	}
	st, err := session.Decode(cur)
	if err != nil {
		return true
	}
	return slices.ContainsFunc(st.Calls, func(c session.Call) bool { return c.ID == ev.ToolUseID && len(c.Lessons) > 0 })
}
