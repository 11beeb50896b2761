package session

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/markdown"
)

// Type is a session note's frontmatter type.
const Type = "session"

// PromptsHeading is the heading of a session note's section listing the
// user's prompts: kept for a person reading the note, but not indexed for
// search (see package index), since an old session's prompts are a
// transcript, not memory: recall gives what a session did, not what was
// asked in it.
const PromptsHeading = "Prompts"

// DefaultFolder is the vault folder of session notes when the config
// names none.
const DefaultFolder = "sessions"

// NotePath is where st's note goes in folder: named by when the session
// started, its client and a short hash of its whole id
// ("2026-11-27 1004 claude-code 5d41402a.md"), so that notes sort by time
// and two sessions never share one: ids that share their start (Codex's
// UUIDv7 ids share their first 8 characters for about a minute) still
// name different notes, on one machine or on two.
func (st *State) NotePath(folder string) string {
	sum := sha256.Sum256([]byte(st.ID))
	name := st.Started.Format("2006-01-02 1504")
	if st.Client != "" {
		name += " " + st.Client
	}
	return path.Join(folder, name+" "+hex.EncodeToString(sum[:4])+markdown.Ext)
}

// Names gives a note's display name for links: the lessons' and tasks'
// titles, by path. A path it does not know is shown as its file name.
type Names func(p string) string

// Render is st's session note: frontmatter (type: session, the session's
// id, client, agent, start and end, links to its tasks and lessons) and a
// body a human reads in Obsidian: the prompts, the tasks, the files
// changed, the lessons shown and how each call went, the checkpoint. Its
// texts are masked as Encode masks them, whatever state it is given (one
// an older version wrote, say).
func (st *State) Render(names Names) []byte {
	st = st.redacted()
	link := func(p string) string {
		target := strings.TrimSuffix(p, markdown.Ext)
		if n := names(p); n != "" && n != path.Base(target) {
			return "[[" + target + "|" + n + "]]"
		}
		return "[[" + target + "]]"
	}
	fields := []markdown.Field{{Key: "type", Value: Type}, {Key: "session_id", Value: st.ID}}
	if st.Client != "" {
		fields = append(fields, markdown.Field{Key: "client", Value: st.Client})
	}
	fields = append(fields, markdown.Field{Key: "agent", Value: st.Agent},
		markdown.Field{Key: "started", Value: st.Started.Format(time.RFC3339)})
	if !st.Ended.IsZero() {
		fields = append(fields, markdown.Field{Key: "ended", Value: st.Ended.Format(time.RFC3339)})
	}
	if len(st.Tasks) > 0 {
		fields = append(fields, markdown.Field{Key: "tasks", Value: links(st.Tasks)})
	}
	if ls := st.lessons(); len(ls) > 0 {
		fields = append(fields, markdown.Field{Key: "lessons", Value: links(ls)})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Session of %s", st.Started.Format("2 Jan 2006, 15:04"))
	if st.Client != "" {
		fmt.Fprintf(&b, " (%s)", st.Client)
	}
	b.WriteString("\n")
	for _, r := range st.Resumed {
		fmt.Fprintf(&b, "\nResumed %s.\n", r.Format("2 Jan 2006, 15:04"))
	}
	if !st.Ended.IsZero() {
		fmt.Fprintf(&b, "\nEnded %s", st.Ended.Format("15:04"))
		if st.EndReason != "" {
			fmt.Fprintf(&b, " (%s)", st.EndReason)
		}
		b.WriteString(".\n")
	}
	if len(st.Prompts) > 0 {
		b.WriteString("\n## " + PromptsHeading + "\n\n")
		for _, p := range st.Prompts {
			fmt.Fprintf(&b, "- %s %s\n", p.Time.Format("15:04"), oneLine(p.Text))
		}
	}
	if len(st.Tasks) > 0 {
		b.WriteString("\n## Tasks\n\n")
		for _, t := range st.Tasks {
			fmt.Fprintf(&b, "- %s\n", link(t))
		}
	}
	if len(st.Files) > 0 {
		b.WriteString("\n## Files changed\n\n")
		for _, f := range st.Files {
			fmt.Fprintf(&b, "- `%s`\n", strings.ReplaceAll(f, "`", "'"))
		}
	}
	if len(st.Outcomes) > 0 || len(st.Calls) > 0 {
		b.WriteString("\n## Lessons\n\n")
		for _, o := range st.Outcomes {
			how := "the call succeeded"
			if !o.Success {
				how = "the call failed"
			}
			switch {
			case o.Unrelated:
				how += "; not counted, the call was not what the lesson is about"
			case o.Error != "":
				how += "; the outcome was not recorded: " + oneLine(o.Error)
			}
			fmt.Fprintf(&b, "- %s %s, before %s: %s\n", o.Time.Format("15:04"), link(o.Lesson), o.Tool, how)
		}
		for _, c := range st.Calls {
			for _, l := range c.Lessons {
				fmt.Fprintf(&b, "- %s, before %s: no outcome yet\n", link(l.Path), c.Tool)
			}
		}
	}
	if c := st.Checkpoint; c != nil && c.Compacted {
		fmt.Fprintf(&b, "\n## Checkpoint\n\nBefore the conversation was compacted at %s:\n\n%s\n", c.Time.Format("15:04"), c.Text)
	}
	if st.Subagents > 0 {
		fmt.Fprintf(&b, "\nSubagent runs ended in this session: %d.\n", st.Subagents)
	}
	return markdown.Format(fields, b.String())
}

// lessons are the lessons shown in the session, in the order first shown.
func (st *State) lessons() []string {
	var out []string
	add := func(p string) {
		for _, q := range out {
			if q == p {
				return
			}
		}
		out = append(out, p)
	}
	for _, o := range st.Outcomes {
		add(o.Lesson)
	}
	for _, c := range st.Calls {
		for _, l := range c.Lessons {
			add(l.Path)
		}
	}
	return out
}

// links are wikilinks to the notes at paths, for the frontmatter.
func links(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = "[[" + strings.TrimSuffix(p, markdown.Ext) + "]]"
	}
	return out
}

// oneLine folds text onto one line for a list item.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
