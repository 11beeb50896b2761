package task

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
)

// Node is a task in a tree.
type Node struct {
	Path     string  `json:"path,omitempty"`
	Name     string  `json:"name,omitempty"`
	Status   string  `json:"status,omitempty"`
	Priority string  `json:"priority,omitempty"`
	Assignee string  `json:"assignee,omitempty"`
	Children []*Node `json:"children"`
	// Folded counts the tasks under a finished task that are not shown.
	Folded int `json:"folded,omitempty"`
	// Problems are what is wrong in the tree shown, each naming the file
	// and line at fault (on the top node only).
	Problems []markdown.Problem `json:"problems,omitempty"`
}

// forest is every task, as the index holds them, in its trees of parent
// and child.
type forest struct {
	tasks    map[string]Task
	parent   map[string]string // task -> parent task
	children map[string][]string
	// deps are the depends_on links between two different tasks.
	deps     dependencies
	problems []markdown.Problem
}

// load reads every task and link, and finds what is wrong with them: a
// parent or dependency that does not resolve or is no task, a parent
// cycle, a task that depends on itself or a depends_on cycle (such tasks
// are never ready), a status or priority not known. A task whose parent
// is wrong is a root; one in a parent cycle is in no tree.
func (s *Store) load(ctx context.Context) (*forest, error) {
	ts, err := s.ix.Tasks(ctx)
	if err != nil {
		return nil, err
	}
	links, err := s.ix.TaskLinks(ctx, "")
	if err != nil {
		return nil, err
	}
	g := &forest{tasks: make(map[string]Task, len(ts)), parent: map[string]string{}, children: map[string][]string{}}
	for _, t := range ts {
		g.tasks[t.Path] = t
	}
	parentLine := map[string]int{}
	deps := dependencies{}
	for _, l := range links {
		if l.Field == ParentField {
			if _, seen := parentLine[l.Source]; seen {
				continue // a task has one parent: the first it names
			}
			parentLine[l.Source] = l.Line
		}
		problem := func(format string, args ...any) {
			g.problems = append(g.problems, markdown.Problem{Path: l.Source, Line: l.Line, Message: fmt.Sprintf(format, args...)})
		}
		_, isTask := g.tasks[l.Target]
		switch {
		case !l.Resolved:
			problem("%s [[%s]] names no note", l.Field, l.Target)
		case !isTask:
			problem("%s [[%s]] is not a task (%s has no type: task)", l.Field, markdown.NameOf(l.Target), l.Target)
		case l.Field == ParentField && l.Target == l.Source:
			problem("parent is the task itself")
		case l.Field == ParentField:
			g.parent[l.Source] = l.Target
		case l.Field == DependsOnField && l.Target == l.Source:
			problem("depends_on is the task itself: it can never be ready until that dependency is removed")
		case l.Field == DependsOnField:
			deps.add(l.Source, l.Target, l.Line)
		}
	}
	g.deps = deps
	g.problems = append(g.problems, deps.cycles()...)
	// Parent cycles: walk up from each task; a walk that comes back to a
	// task on it found a cycle.
	state := map[string]int{} // 1: on the current walk, 2: leads to a root
	for _, t := range ts {
		var walk []string
		p := t.Path
		for p != "" && state[p] == 0 {
			state[p] = 1
			walk = append(walk, p)
			p = g.parent[p]
		}
		if p != "" && state[p] == 1 { // a cycle, from p on
			i := slices.Index(walk, p)
			cycle := append(slices.Clone(walk[i:]), p)
			g.problems = append(g.problems, markdown.Problem{Path: p, Line: parentLine[p],
				Message: "parent cycle: " + strings.Join(cycle, " → ") + " (these tasks are in no tree until one parent is changed)"})
			for _, c := range walk[i:] {
				state[c] = 3 // in a cycle
			}
			walk = walk[:i]
		}
		for _, w := range walk {
			state[w] = 2
		}
	}
	for c, p := range g.parent {
		if state[c] == 3 || state[p] == 3 { // under a cycle: a root
			delete(g.parent, c)
			continue
		}
		g.children[p] = append(g.children[p], c)
	}
	for _, kids := range g.children {
		slices.Sort(kids)
	}
	for _, t := range ts {
		if state[t.Path] == 3 {
			delete(g.tasks, t.Path)
		}
	}
	bad, err := s.badFields(ts)
	if err != nil {
		return nil, err
	}
	g.problems = append(g.problems, bad...)
	slices.SortFunc(g.problems, func(a, b markdown.Problem) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), strings.Compare(a.Message, b.Message))
	})
	return g, nil
}

// badFields returns a problem for each task whose status or priority is
// not one vaultmem knows, naming the line (read from the note).
func (s *Store) badFields(ts []Task) ([]markdown.Problem, error) {
	var out []markdown.Problem
	for _, t := range ts {
		badStatus, badPrio := !slices.Contains(Statuses, t.Status), !slices.Contains(Priorities, t.Priority)
		if !badStatus && !badPrio {
			continue
		}
		line := func(key string) int { return 0 }
		if b, _, err := s.w.Read(t.Path); err == nil {
			n := markdown.Parse(t.Path, b)
			line = func(key string) int {
				if n.Frontmatter == nil {
					return 0
				}
				if v := n.Frontmatter.Value(key); v != nil {
					return n.Frontmatter.Line + v.Line - 1
				}
				return 0
			}
		}
		if badStatus {
			out = append(out, markdown.Problem{Path: t.Path, Line: line("status"),
				Message: fmt.Sprintf("status %q is not one of %s (left as it is)", t.Status, strings.Join(Statuses, ", "))})
		}
		if badPrio {
			out = append(out, markdown.Problem{Path: t.Path, Line: line("priority"),
				Message: fmt.Sprintf("priority %q is not one of %s (left as it is)", t.Priority, strings.Join(Priorities, ", "))})
		}
	}
	return out, nil
}

// Problems returns what is wrong in the task tree (see Tree), each naming
// the file and line at fault; nothing is changed.
func (s *Store) Problems(ctx context.Context) ([]markdown.Problem, error) {
	g, err := s.load(ctx)
	if err != nil {
		return nil, err
	}
	return g.problems, nil
}

// Tree returns the task tree under the task ref names, or the whole
// vault's (the roots as the children of a top node without a path) when
// ref is "". The tasks under a finished task are folded (counted, not
// shown) unless all. The top node lists the problems found in the tasks
// shown: parents and dependencies that are no task, parent cycles,
// depends_on cycles and tasks that depend on themselves, unknown
// statuses and priorities.
func (s *Store) Tree(ctx context.Context, ref string, all bool) (*Node, error) {
	g, err := s.load(ctx)
	if err != nil {
		return nil, err
	}
	var top *Node
	if ref == "" {
		top = &Node{Children: []*Node{}}
		var roots []string
		for p := range g.tasks {
			if g.parent[p] == "" {
				roots = append(roots, p)
			}
		}
		slices.Sort(roots)
		for _, r := range roots {
			top.Children = append(top.Children, g.node(r, all))
		}
	} else {
		p, err := s.Resolve(ctx, ref)
		if err != nil {
			return nil, err
		}
		if _, ok := g.tasks[p]; !ok {
			return nil, fmt.Errorf("%s is in a parent cycle or not indexed yet; see 'vaultmem task tree'", p)
		}
		top = g.node(p, all)
	}
	shown := map[string]bool{}
	var mark func(n *Node)
	mark = func(n *Node) {
		shown[n.Path] = true
		for _, c := range n.Children {
			mark(c)
		}
	}
	mark(top)
	for _, pr := range g.problems {
		if ref == "" || shown[pr.Path] {
			top.Problems = append(top.Problems, pr)
		}
	}
	return top, nil
}

// Dependencies returns, for each task that depends on others, the tasks
// it depends on, by path, sorted: the depends_on links that name another
// task (those that name no task, or the task itself, are problems: see
// Tree). Tasks in a parent cycle are left out, as they are of every tree.
func (s *Store) Dependencies(ctx context.Context) (map[string][]string, error) {
	g, err := s.load(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for p := range g.deps {
		if _, ok := g.tasks[p]; !ok {
			continue
		}
		for _, q := range g.deps.next(p) {
			if _, ok := g.tasks[q]; ok {
				out[p] = append(out[p], q)
			}
		}
	}
	return out, nil
}

// node is the tree under task p.
func (g *forest) node(p string, all bool) *Node {
	t := g.tasks[p]
	n := &Node{Path: p, Name: t.Name, Status: t.Status, Priority: t.Priority, Assignee: t.Assignee, Children: []*Node{}}
	if t.Status == Done && !all {
		n.Folded = g.count(p)
		return n
	}
	for _, c := range g.children[p] {
		n.Children = append(n.Children, g.node(c, all))
	}
	return n
}

// count is how many tasks are under p.
func (g *forest) count(p string) int {
	n := 0
	for _, c := range g.children[p] {
		n += 1 + g.count(c)
	}
	return n
}

// undated is 1 for a task without a created date (it sorts after the
// dated ones), else 0.
func undated(created string) int {
	if created == "" {
		return 1
	}
	return 0
}

// Ready is a task that can be worked on now (see Index.Ready), and why it
// comes where it does.
type Ready struct {
	Task
	// Unblocks lists the tasks not done that depend on it.
	Unblocks []string `json:"unblocks"`
	// DependsOn lists its dependencies (all done).
	DependsOn []string `json:"depends_on"`
	// Why says why it comes where it does among the others (Store.Ready
	// says; the index leaves it "").
	Why string `json:"why"`
}

// Ready returns the tasks that can be worked on now (todo, every
// dependency done, no open child), most urgent first: by priority, then
// by how many tasks each unblocks, then oldest first.
func (s *Store) Ready(ctx context.Context) ([]Ready, error) {
	rs, err := s.ix.Ready(ctx)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(rs, func(a, b Ready) int {
		return cmp.Or(cmp.Compare(priorityRank(a.Priority), priorityRank(b.Priority)), cmp.Compare(len(b.Unblocks), len(a.Unblocks)),
			cmp.Compare(undated(a.Created), undated(b.Created)), strings.Compare(a.Created, b.Created), strings.Compare(a.Path, b.Path))
	})
	for i, r := range rs {
		why := []string{"priority " + r.Priority}
		switch len(r.Unblocks) {
		case 0:
		case 1:
			why = append(why, "unblocks "+r.Unblocks[0])
		default:
			why = append(why, fmt.Sprintf("unblocks %d tasks (%s)", len(r.Unblocks), strings.Join(r.Unblocks, ", ")))
		}
		if len(r.DependsOn) > 0 {
			why = append(why, "its dependencies are done ("+strings.Join(r.DependsOn, ", ")+")")
		}
		if r.Created != "" {
			why = append(why, "created "+r.Created)
		}
		if r.Unblocks == nil {
			r.Unblocks = []string{}
		}
		if r.DependsOn == nil {
			r.DependsOn = []string{}
		}
		r.Why = strings.Join(why, "; ")
		rs[i] = r
	}
	return rs, nil
}
