package task

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/redact"
	"github.com/vaultmem/vaultmem/vault"
)

// Index is what a Store needs of the index: the tasks and their links,
// kept current with the vault (synced, or by a watcher), and refreshed for
// the notes the Store writes. index.Stores is one.
type Index interface {
	Lookup(ctx context.Context, nameOrPath string) (string, error)
	LinkText(ctx context.Context, p string) string
	Task(ctx context.Context, path string) (Task, bool, error)
	Tasks(ctx context.Context) ([]Task, error)
	Children(ctx context.Context, path string) ([]Task, error)
	TaskLinks(ctx context.Context, path string) ([]Link, error)
	Ready(ctx context.Context) ([]Ready, error)
	Refresh(ctx context.Context, fsys fs.FS, paths ...string) error
}

// Options configure a Store. The zero value works but for FS.
type Options struct {
	// Folder is where new tasks are written; "" means "tasks".
	Folder string
	// FS is the vault's files, which the index is refreshed from after a
	// write; nil refreshes nothing.
	FS fs.FS
	// Now is the clock of dates and event times; nil means time.Now.
	Now func() time.Time
}

// Store reads and writes the task tree of one vault. It is safe for
// concurrent use; the Writer's lock orders its writes with every other
// process's.
type Store struct {
	w      *vault.Writer
	ix     Index
	fsys   fs.FS
	folder string
	now    func() time.Time
}

// NewStore returns the task Store of the vault w writes, whose tasks ix
// holds.
func NewStore(w *vault.Writer, ix Index, o Options) *Store {
	s := &Store{w: w, ix: ix, fsys: o.FS, folder: o.Folder, now: o.Now}
	if s.folder == "" {
		s.folder = "tasks"
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s
}

func (s *Store) today() string { return s.now().Format(time.DateOnly) }

// refresh tells the index about the notes just written.
func (s *Store) refresh(ctx context.Context, paths ...string) error {
	if s.fsys == nil {
		return nil
	}
	return s.ix.Refresh(ctx, s.fsys, paths...)
}

// Resolve returns the path of the task ref names: a vault path, or a name
// resolved as a wikilink is (the file name, case-insensitively), or else a
// task's frontmatter name. A ref holding '|' is taken whole first (a task
// named "x|y", whose file is "x y.md"), then as the target of a wikilink
// with a label ("x" of "x|y"); in a wikilink written out ("[[x|y]]"), the
// other way round. Errors: vault.ErrNotFound (wrapped) when nothing is
// named so; ErrNotTask when the note is no task.
func (s *Store) Resolve(ctx context.Context, ref string) (string, error) {
	ref = strings.TrimSpace(ref)
	wiki := strings.HasPrefix(ref, "[[") && strings.HasSuffix(ref, "]]")
	inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(ref, "[["), "]]"))
	if inner == "" {
		return "", &InvalidError{"task", "must not be empty"}
	}
	tries := []string{inner}
	if target, _, labelled := strings.Cut(inner, "|"); labelled {
		target = strings.TrimSpace(target)
		if wiki {
			tries = []string{target, inner}
		} else {
			tries = append(tries, target)
		}
	}
	p := ""
	for _, name := range tries {
		if p = s.named(ctx, name); p != "" {
			break
		}
	}
	if p == "" {
		return "", fmt.Errorf("no task %q: %w (give a path, a note name or a task's name; 'vaultmem task tree' lists them)", inner, vault.ErrNotFound)
	}
	if _, err := s.read(p); err != nil {
		return "", err
	}
	return p, nil
}

// named returns the path of the note name names (see Resolve), "" when
// none.
func (s *Store) named(ctx context.Context, name string) string {
	if name == "" {
		return ""
	}
	if rel, err := s.w.Resolve(name); err == nil {
		if _, _, err := s.w.Read(rel); err == nil {
			return rel
		}
	}
	if got, err := s.ix.Lookup(ctx, name); err == nil {
		return got
	}
	return s.byName(ctx, name)
}

// link returns the wikilink to the task at p that Add writes, in a form
// Obsidian and the index resolve to p. Errors: an *InvalidError naming
// field when no wikilink can name p: its path holds a character a link
// reads otherwise ('|' starts a label, '#' a heading, '^' a block; '['
// and ']' bracket links), as Obsidian's own file names never do.
func (s *Store) link(ctx context.Context, field, p string) (string, error) {
	text := s.ix.LinkText(ctx, p)
	if strings.ContainsAny(text, "|#^[]") {
		return "", &InvalidError{field, fmt.Sprintf("%s cannot be linked to: no [[wikilink]] can name a file whose name holds one of | # ^ [ ] (rename the file)", p)}
	}
	return "[[" + text + "]]", nil
}

// byName returns the task whose frontmatter name is name
// (case-insensitively), "" when none is or several are.
func (s *Store) byName(ctx context.Context, name string) string {
	ts, err := s.ix.Tasks(ctx)
	if err != nil {
		return ""
	}
	found := ""
	for _, t := range ts {
		if strings.EqualFold(t.Name, name) {
			if found != "" {
				return ""
			}
			found = t.Path
		}
	}
	return found
}

// read reads and parses the task at p. Errors: vault.ErrNotFound;
// ErrNotTask (naming the file and, when its frontmatter does not parse,
// the line).
func (s *Store) read(p string) (*markdown.Note, error) {
	var b []byte
	var err error
	for range emptyTries {
		if b, _, err = s.w.Read(p); err != nil {
			return nil, err
		}
		if len(b) > 0 {
			break
		}
		time.Sleep(emptyPause) // an editor between truncating and writing the file
	}
	n := markdown.Parse(p, b)
	if n.Type() != Type {
		if n.Frontmatter == nil && len(n.Warnings) > 0 {
			return nil, fmt.Errorf("%w: %v", ErrNotTask, n.Warnings[0])
		}
		return nil, fmt.Errorf("%s: %w (its frontmatter has no type: task)", p, ErrNotTask)
	}
	return n, nil
}

// An editor saves a note by truncating it, then writing it: a task read
// empty is read again, emptyTries times, emptyPause apart.
const (
	emptyTries = 20
	emptyPause = 5 * time.Millisecond
)

// errEmpty is a task read empty (see emptyTries).
var errEmpty = errors.New("the note is empty (being saved?)")

// update rewrites the task at p with fn, which gets the note as it is on
// disk under the Writer's lock; when a human saves it meanwhile, fn runs
// again on their version, so no edit is lost.
func (s *Store) update(ctx context.Context, p string, fn func(n *markdown.Note) ([]byte, error)) error {
	var err error
	for range emptyTries {
		_, err = s.w.Update(ctx, p, func(cur []byte) ([]byte, error) {
			if len(cur) == 0 {
				return nil, errEmpty
			}
			n := markdown.Parse(p, cur)
			if n.Type() != Type {
				if n.Frontmatter == nil && len(n.Warnings) > 0 {
					return nil, fmt.Errorf("%w: %v", ErrNotTask, n.Warnings[0])
				}
				return nil, fmt.Errorf("%w: its frontmatter has no type: task", ErrNotTask)
			}
			return fn(n)
		})
		if errors.Is(err, errEmpty) {
			time.Sleep(emptyPause)
			continue
		}
		if !errors.Is(err, vault.ErrConflict) {
			break
		}
	}
	var se *StateError
	if errors.As(err, &se) {
		return se // it names the task already
	}
	return err
}

// field is a frontmatter string of n, trimmed ("" when absent).
func field(n *markdown.Note, key string) string {
	v, _ := n.Frontmatter.String(key)
	return strings.TrimSpace(v)
}

// status is n's status, lower-cased; todo when it has none.
func status(n *markdown.Note) string {
	if st := strings.ToLower(field(n, "status")); st != "" {
		return st
	}
	return Todo
}

// name is n's name: frontmatter name, else its title.
func name(n *markdown.Note) string {
	if v := field(n, "name"); v != "" {
		return v
	}
	return n.Title()
}

// date is a YAML date value of day, written unquoted.
func date(day string) any { return markdown.FromJSON(day) }

// New is a task to add.
type New struct {
	Title string
	// Parent names the parent task ("" for a root task).
	Parent string
	// Priority is high, medium or low ("" means medium).
	Priority string
	// DependsOn names the tasks it waits for.
	DependsOn []string
	// Description is the note's body before its log.
	Description string
}

// Added is what Add wrote.
type Added struct {
	Path     string `json:"path"`
	Name     string `json:"name"`
	Parent   string `json:"parent,omitempty"`
	Priority string `json:"priority"`
	// DependsOn are the paths of its dependencies.
	DependsOn []string `json:"depends_on"`
	// Focus is set by Spawn: the agent's focus now.
	Focus string `json:"focus,omitempty"`
}

// Add writes a new task note <folder>/<title>.md (a number added when
// the name is taken: "<title> 2.md"), status todo, with parent and
// depends_on as wikilinks to the tasks they name. Errors: an
// *InvalidError; vault.ErrNotFound or ErrNotTask for a parent or
// dependency that is no task; the Writer's.
func (s *Store) Add(ctx context.Context, t New) (Added, error) {
	title := strings.TrimSpace(t.Title)
	if title == "" || strings.ContainsAny(title, "\r\n") {
		return Added{}, &InvalidError{"title", "must be one line, not empty"}
	}
	base, err := fileName(title)
	if err != nil {
		return Added{}, err
	}
	prio, err := checkPriority(t.Priority)
	if err != nil {
		return Added{}, err
	}
	out := Added{Name: title, Priority: prio, DependsOn: []string{}}
	fields := []markdown.Field{{Key: "type", Value: "task"}, {Key: "name", Value: title}, {Key: "status", Value: Todo}, {Key: "priority", Value: prio}}
	if t.Parent != "" {
		if out.Parent, err = s.Resolve(ctx, t.Parent); err != nil {
			return Added{}, fmt.Errorf("parent: %w", err)
		}
		link, err := s.link(ctx, "parent", out.Parent)
		if err != nil {
			return Added{}, err
		}
		fields = append(fields, markdown.Field{Key: "parent", Value: link})
	}
	var deps []string
	for _, d := range t.DependsOn {
		p, err := s.Resolve(ctx, d)
		if err != nil {
			return Added{}, fmt.Errorf("depends on: %w", err)
		}
		if !slices.Contains(out.DependsOn, p) {
			link, err := s.link(ctx, "depends on", p)
			if err != nil {
				return Added{}, err
			}
			out.DependsOn = append(out.DependsOn, p)
			deps = append(deps, link)
		}
	}
	if len(deps) > 0 {
		fields = append(fields, markdown.Field{Key: "depends_on", Value: deps})
	}
	fields = append(fields, markdown.Field{Key: "created", Value: date(s.today())})
	body := strings.TrimSpace(strings.ReplaceAll(t.Description, "\r\n", "\n"))
	if body != "" {
		body += "\n\n"
	}
	content := markdown.Format(fields, body+"## "+LogHeading+"\n")
	for i := 1; ; i++ {
		p := path.Join(s.folder, base+markdown.Ext)
		if i > 1 {
			p = path.Join(s.folder, fmt.Sprintf("%s %d%s", base, i, markdown.Ext))
		}
		_, err := s.w.Write(ctx, p, content, "")
		if errors.Is(err, vault.ErrExists) && i < 1000 {
			continue
		}
		if err != nil {
			return Added{}, err
		}
		out.Path = p
		return out, s.refresh(ctx, p)
	}
}

// Spawn adds a child of agent's focused task and focuses it (status
// doing, held by agent). Errors: ErrNoFocus; those of Add and Start.
func (s *Store) Spawn(ctx context.Context, agent string, t New) (Added, error) {
	f, err := s.Focus(ctx, agent)
	if err != nil {
		return Added{}, err
	}
	if f.Task == "" {
		return Added{}, noFocus(f)
	}
	if t.Parent != "" {
		return Added{}, &InvalidError{"parent", "is the focused task for spawn; use add --parent to add elsewhere"}
	}
	t.Parent = f.Task
	a, err := s.Add(ctx, t)
	if err != nil {
		return Added{}, err
	}
	st, err := s.Start(ctx, agent, a.Path, false)
	if err != nil {
		return a, fmt.Errorf("added %s, but could not focus it: %w", a.Path, err)
	}
	a.Focus = st.Focus
	return a, nil
}

// noFocus is ErrNoFocus, saying why.
func noFocus(f Focus) error {
	if f.Lost != "" {
		return fmt.Errorf("%w for agent %s: %s", ErrNoFocus, f.Agent, f.Lost)
	}
	return fmt.Errorf("%w for agent %s: name a task, or start one first", ErrNoFocus, f.Agent)
}

// Started is what Start did.
type Started struct {
	Path  string `json:"path"`
	Agent string `json:"agent"`
	// Focus is the agent's focus now (Path).
	Focus string `json:"focus"`
	// TookFrom is the agent that held the task when force took it.
	TookFrom string `json:"took_from,omitempty"`
}

// Start focuses agent on the task ref names and marks it doing, held by
// agent (started: now, to the minute, when it never was; see
// StartedLayout). Under the Writer's lock, so
// of two agents starting one task at once exactly one wins. Errors: a
// *StateError when another agent holds it (doing or blocked) or it is
// done, unless force; those of Resolve.
func (s *Store) Start(ctx context.Context, agent, ref string, force bool) (Started, error) {
	if err := CheckAgent(agent); err != nil {
		return Started{}, err
	}
	p, err := s.Resolve(ctx, ref)
	if err != nil {
		return Started{}, err
	}
	out := Started{Path: p, Agent: agent, Focus: p}
	var title string
	err = s.update(ctx, p, func(n *markdown.Note) ([]byte, error) {
		title = name(n)
		st, holder := status(n), field(n, "assignee")
		out.TookFrom = ""
		if holder != "" && holder != agent && (st == Doing || st == Blocked) {
			if !force {
				return nil, &StateError{Path: p, Holder: holder, Reason: fmt.Sprintf("agent %s holds it (status %s); force it to take it over", holder, st)}
			}
			out.TookFrom = holder
		}
		if st == Done && !force {
			return nil, &StateError{Path: p, Reason: "it is done; force it to reopen it"}
		}
		kv := []any{"status", Doing, "assignee", agent}
		if field(n, "started") == "" {
			kv = append(kv, "started", s.now().Format(StartedLayout))
		}
		next, err := markdown.SetFrontmatterKeys(p, n.Content, kv...)
		if err != nil {
			return nil, err
		}
		if st == Done {
			return markdown.DeleteFrontmatter(p, next, "finished")
		}
		return next, nil
	})
	if err != nil {
		return Started{}, err
	}
	if err := s.setFocus(ctx, agent, p, title); err != nil {
		return Started{}, err
	}
	return out, s.refresh(ctx, p)
}

// Finished is what Done did.
type Finished struct {
	Done string `json:"done"`
	// Focus is the agent's focus now: the parent when the task finished
	// was the focus, else unchanged; nil when none.
	Focus *string `json:"focus"`
	// Open lists the children that were not done (finished with force).
	Open []string `json:"open,omitempty"`
}

// Done marks the task ref names (agent's focus when ref is "") done,
// finished: today. When it was the agent's focus, the focus moves to its
// parent, which is doing again (held by agent when no one held it).
// Errors: ErrNoFocus; a *StateError when children are not done, unless
// force; those of Resolve.
func (s *Store) Done(ctx context.Context, agent, ref string, force bool) (Finished, error) {
	f, err := s.Focus(ctx, agent)
	if err != nil {
		return Finished{}, err
	}
	p := f.Task
	if ref != "" {
		if p, err = s.Resolve(ctx, ref); err != nil {
			return Finished{}, err
		}
	} else if p == "" {
		return Finished{}, noFocus(f)
	}
	kids, err := s.ix.Children(ctx, p)
	if err != nil {
		return Finished{}, err
	}
	var open []string
	for _, k := range kids {
		if k.Status != Done {
			open = append(open, k.Path)
		}
	}
	if len(open) > 0 && !force {
		what := fmt.Sprintf("%d children are", len(open))
		if len(open) == 1 {
			what = "a child is"
		}
		return Finished{}, &StateError{Path: p, Open: open, Reason: fmt.Sprintf("%s not done (%s); finish them first, or force it", what, strings.Join(open, ", "))}
	}
	err = s.update(ctx, p, func(n *markdown.Note) ([]byte, error) {
		if status(n) == Done {
			return n.Content, nil
		}
		return markdown.SetFrontmatterKeys(p, n.Content, "status", Done, "finished", date(s.today()))
	})
	if err != nil {
		return Finished{}, err
	}
	out := Finished{Done: p, Open: open}
	written := []string{p}
	if f.Task == p {
		parent, err := s.parent(ctx, p)
		if err != nil {
			return Finished{}, err
		}
		pname := ""
		if parent != "" {
			err := s.update(ctx, parent, func(n *markdown.Note) ([]byte, error) {
				pname = name(n)
				if st := status(n); st == Doing || st == Done {
					return n.Content, nil
				}
				kv := []any{"status", Doing}
				if field(n, "assignee") == "" {
					kv = append(kv, "assignee", agent)
				}
				return markdown.SetFrontmatterKeys(parent, n.Content, kv...)
			})
			if err != nil {
				return Finished{}, fmt.Errorf("parent %s: %w", parent, err)
			}
			written = append(written, parent)
			out.Focus = &parent
		}
		if err := s.setFocus(ctx, f.From, parent, pname); err != nil {
			return Finished{}, err
		}
	} else if f.Task != "" {
		out.Focus = &f.Task
	}
	return out, s.refresh(ctx, written...)
}

// parent returns the path of the task p's parent link resolves to; ""
// when it has none (or it resolves to no task).
func (s *Store) parent(ctx context.Context, p string) (string, error) {
	links, err := s.ix.TaskLinks(ctx, p)
	if err != nil {
		return "", err
	}
	for _, l := range links {
		if l.Field == ParentField {
			if !l.Resolved {
				return "", nil
			}
			if _, ok, err := s.ix.Task(ctx, l.Target); err != nil || !ok {
				return "", err
			}
			return l.Target, nil
		}
	}
	return "", nil
}

// Logged is what Event (and Block) appended.
type Logged struct {
	Path  string `json:"path"`
	Type  string `json:"type"`
	Time  string `json:"time"`
	Line  string `json:"line"`
	Agent string `json:"agent"`
}

// Event appends an event of type typ to the log of the task ref names
// (agent's focus when ref is ""). Errors: an *InvalidError for an unknown
// type or empty text; ErrNoFocus; those of Resolve.
func (s *Store) Event(ctx context.Context, agent, ref, typ, text string) (Logged, error) {
	return s.log(ctx, agent, ref, typ, text, func(*markdown.Note) []any { return nil })
}

// Block marks the task ref names (agent's focus when ref is "") blocked
// and logs reason as a blocker event. A task no one holds (blocked before
// it was started) is then held by agent, so that the Blocked view and
// task tree say who found it blocked.
func (s *Store) Block(ctx context.Context, agent, ref, reason string) (Logged, error) {
	if strings.TrimSpace(reason) == "" {
		return Logged{}, &InvalidError{"reason", "must say what blocks the task"}
	}
	return s.log(ctx, agent, ref, "blocker", reason, func(n *markdown.Note) []any {
		if field(n, "assignee") == "" {
			return []any{"status", Blocked, "assignee", agent}
		}
		return []any{"status", Blocked}
	})
}

// log appends an event to a task's log, setting the frontmatter keys kv
// returns for the note as it is in the same write: the one way an event
// is written. Its text is most
// often an agent's (a hook's checkpoint, the task tools), and the log is
// committed and shared, so its secrets are masked (redact.String).
func (s *Store) log(ctx context.Context, agent, ref, typ, text string, kv func(n *markdown.Note) []any) (Logged, error) {
	typ = strings.ToLower(strings.TrimSpace(typ))
	text = redact.String(text)
	if err := checkEvent(typ, text); err != nil {
		return Logged{}, err
	}
	p, err := s.target(ctx, agent, ref)
	if err != nil {
		return Logged{}, err
	}
	at := s.now()
	line := FormatEvent(at, typ, text)
	err = s.update(ctx, p, func(n *markdown.Note) ([]byte, error) {
		next, err := markdown.SetFrontmatterKeys(p, n.Content, kv(n)...)
		if err != nil {
			return nil, err
		}
		return markdown.AppendToSection(next, LogHeading, line), nil
	})
	if err != nil {
		return Logged{}, err
	}
	return Logged{Path: p, Type: typ, Time: at.Format(EventTimeLayout), Line: line, Agent: agent}, s.refresh(ctx, p)
}

// target is the task ref names, or agent's focus when ref is "".
func (s *Store) target(ctx context.Context, agent, ref string) (string, error) {
	if ref != "" {
		return s.Resolve(ctx, ref)
	}
	f, err := s.Focus(ctx, agent)
	if err != nil {
		return "", err
	}
	if f.Task == "" {
		return "", noFocus(f)
	}
	return f.Task, nil
}
