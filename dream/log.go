package dream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// The dream log is a note a human reads in Obsidian to see what Dream
// did: one dated entry per run that changed something, every memory
// linked. It is appended to, never rewritten, so two machines' entries
// merge in git.

// LogType is the dream log's frontmatter type: recall and search leave
// notes of this type out (they are about memories, not memories), and
// MEMORY.md never lists them.
const LogType = index.DreamLogType

const logHead = "---\ntype: " + LogType + "\ndescription: What vaultmem's Dream pass changed in the memories, one entry per run.\n---\n\n" +
	"# Dream log\n\n" +
	"Every memory Dream archived is still a note: open it to read it; delete its `archived` and\n" +
	"`merged_into` (or `superseded_by`) keys to bring it back. Newest entries last.\n"

// logLink is a wikilink to the memory at vault path p, shown as its name.
func (p *plan) logLink(path string) string {
	shown := markdown.NameOf(path)
	if m := p.by[path]; m != nil {
		shown = m.Name
	}
	shown = strings.NewReplacer("|", "/", "[[", "[", "]]", "]").Replace(shown)
	return "[[" + strings.TrimSuffix(path, markdown.Ext) + "|" + shown + "]]"
}

// logEntry is the run's entry, "" when it changed no memory and proposed
// nothing. run is the id of the run's journal ("" when it wrote none);
// what the run finished of an interrupted one has its own entry (see
// finishEntry).
func (p *plan) logEntry(rep *Report, run string) string {
	merged, dated := rep.Merged, rep.DatesFixed
	if f := p.finished; f != nil {
		merged, dated = merged[f.merged:], dated[f.dated:]
	}
	lines := p.mergeLines(merged)
	for _, a := range p.superseded {
		if a.m.archived {
			lines = append(lines, fmt.Sprintf("- Archived %s: superseded by %s", p.logLink(a.m.Path), p.logLink(a.by.Path)))
		}
	}
	for _, c := range rep.Contradictions {
		if c.New {
			line := fmt.Sprintf("- Flagged %s and %s for review: they may contradict each other (%s)", p.logLink(c.Paths[0]), p.logLink(c.Paths[1]), c.Reason)
			if c.Suggestion != "" {
				line += ". The LLM suggests: " + strings.Join(strings.Fields(c.Suggestion), " ")
			}
			lines = append(lines, line)
		}
	}
	for _, c := range rep.PossibleDuplicates {
		if c.New {
			lines = append(lines, fmt.Sprintf("- Listed %s and %s for review: they may be duplicates (%s)", p.logLink(c.Paths[0]), p.logLink(c.Paths[1]), c.Reason))
		}
	}
	for _, j := range rep.Judged {
		lines = append(lines, fmt.Sprintf("- Asked the LLM about %s and %s: %s (%s)", p.logLink(j.Paths[0]), p.logLink(j.Paths[1]), j.Verdict, j.Reason))
	}
	lines = append(lines, p.dateLines(dated)...)
	if n := len(rep.LinksRewritten); n > 0 {
		var notes []string
		for _, s := range rep.LinksRewritten {
			notes = append(notes, "[["+strings.TrimSuffix(s, markdown.Ext)+"]]")
		}
		lines = append(lines, fmt.Sprintf("- Pointed the links to merged memories at the memories they went into, in %s", strings.Join(notes, ", ")))
	}
	for _, pr := range p.proposals {
		what := "a " + pr.Type + " memory"
		if pr.Type == lesson.Type {
			what = "a lesson"
		}
		shown := strings.NewReplacer("|", "/", "[[", "[", "]]", "]").Replace(pr.Title)
		line := fmt.Sprintf("- Proposed [[%s|%s]] (%s)", strings.TrimSuffix(pr.Path, markdown.Ext), shown, what)
		if pr.Source != "" {
			line += " from [[" + pr.Source + "]]"
		}
		lines = append(lines, line+": accept it by removing its status: proposed, or delete it")
	}
	return p.entry(lines, run)
}

// finishEntry is the entry of what finishing the interrupted run run
// did: f, and its merges and dates.
func (p *plan) finishEntry(f *finished, merged []Merge, dated []DateFix, run string) string {
	lines := []string{fmt.Sprintf("- Finished the run started %s, which stopped while it wrote (what it did is below)", f.started)}
	lines = append(lines, p.mergeLines(merged)...)
	for _, a := range f.superseded {
		lines = append(lines, fmt.Sprintf("- Archived %s: superseded by %s", p.logLink(a.m), p.logLink(a.by)))
	}
	return p.entry(append(lines, p.dateLines(dated)...), run)
}

func (p *plan) mergeLines(merged []Merge) []string {
	var lines []string
	for _, mg := range merged {
		var from []string
		for _, f := range mg.From {
			from = append(from, p.logLink(f))
		}
		how := mg.Reason
		if mg.Rewritten {
			how += "; text rewritten by the LLM, the original kept in " + from[0]
		}
		lines = append(lines, fmt.Sprintf("- Merged %s into %s (%s)", strings.Join(from, ", "), p.logLink(mg.Into), how))
	}
	return lines
}

func (p *plan) dateLines(dated []DateFix) []string {
	var lines []string
	for _, f := range dated {
		lines = append(lines, fmt.Sprintf("- Dated %q in %s (line %d): %s", f.From, p.logLink(f.Path), f.Line, f.To))
	}
	return lines
}

// entry is an entry of lines ("" when there are none), dated now and
// marked with run unless it is "".
func (p *plan) entry(lines []string, run string) string {
	if len(lines) == 0 {
		return ""
	}
	e := "## " + p.now.UTC().Format("2006-01-02 15:04") + " UTC\n\n" + strings.Join(lines, "\n") + "\n"
	if run != "" {
		e += runMark(run) + "\n"
	}
	return e
}

// runMark is the line that names run in its log entry: an Obsidian
// comment, hidden in reading view.
func runMark(run string) string { return "%% dream run " + run + " %%" }

// LogFile is the dream log's vault path: configured when set, else
// dream-log.md in the memory folder ("" meaning "memory").
func LogFile(memoryFolder, configured string) string {
	if configured != "" {
		return configured
	}
	if memoryFolder == "" {
		memoryFolder = "memory"
	}
	return path.Join(memoryFolder, "dream-log.md")
}

// writeLog appends entry, of the run with id run, to the dream log; not
// when it is "", nor when the log already holds an entry of that run (the
// run was finished before, and stopped before it removed its journal).
func (d *Dreamer) writeLog(ctx context.Context, entry, run string, dryRun bool, rep *Report) error {
	if entry == "" {
		return nil
	}
	if dryRun {
		rep.Log = d.opts.LogFile
		rep.wrote(d.opts.LogFile)
		return nil
	}
	logged := false
	add := func(current []byte) ([]byte, error) {
		if run != "" && bytes.Contains(current, []byte(runMark(run))) {
			logged = true
			return current, nil
		}
		if n := markdown.Parse(d.opts.LogFile, current); n.Frontmatter.Value("type") == nil {
			// A log from before it had a type: give it one, so that recall
			// leaves it out. One whose frontmatter does not parse is only
			// appended to.
			if typed, err := markdown.SetFrontmatter(d.opts.LogFile, current, "type", LogType); err == nil {
				current = typed
			}
		}
		return append(append([]byte(strings.TrimRight(string(current), "\n")), "\n\n"...), entry...), nil
	}
	_, err := d.w.Update(ctx, d.opts.LogFile, add)
	if errors.Is(err, vault.ErrNotFound) {
		_, err = d.w.Write(ctx, d.opts.LogFile, []byte(logHead+"\n"+entry), "")
	}
	if err != nil {
		return fmt.Errorf("append to the dream log: %w", err)
	}
	if !logged {
		rep.Log = d.opts.LogFile
		rep.wrote(d.opts.LogFile)
	}
	return nil
}

// commitMessage is the git commit message of a run.
func commitMessage(rep *Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "vaultmem dream: %d merged, %d archived, %d flagged, %d dates fixed",
		len(rep.Merged), len(rep.Archived), countNew(rep.Contradictions), len(rep.DatesFixed))
	if len(rep.Proposed) > 0 {
		fmt.Fprintf(&b, ", %d proposed", len(rep.Proposed))
	}
	b.WriteString("\n\n")
	for _, mg := range rep.Merged {
		fmt.Fprintf(&b, "- merged %s into %s (%s)\n", strings.Join(mg.From, ", "), mg.Into, mg.Reason)
	}
	for _, c := range rep.Contradictions {
		if c.New {
			fmt.Fprintf(&b, "- flagged %s and %s: %s\n", c.Paths[0], c.Paths[1], c.Reason)
		}
	}
	for _, f := range rep.DatesFixed {
		fmt.Fprintf(&b, "- dated %q in %s:%d as %s\n", f.From, f.Path, f.Line, f.To)
	}
	if len(rep.LinksRewritten) > 0 {
		fmt.Fprintf(&b, "- links rewritten in %s\n", strings.Join(rep.LinksRewritten, ", "))
	}
	for _, pr := range rep.Proposed {
		fmt.Fprintf(&b, "- proposed %s (status: proposed)\n", pr)
	}
	fmt.Fprintf(&b, "\nFiles: %s\n", strings.Join(rep.Changed, ", "))
	return b.String()
}

func countNew(cs []Contradiction) int {
	n := 0
	for _, c := range cs {
		if c.New {
			n++
		}
	}
	return n
}
