package task

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
)

// dependencies are the tasks' depends_on links between two different
// tasks: for each task, the line of its link to each task it depends on
// (the first, when it names one twice).
type dependencies map[string]map[string]int

// add records that task from depends on task to, at line.
func (d dependencies) add(from, to string, line int) {
	if d[from] == nil {
		d[from] = map[string]int{}
	}
	if _, ok := d[from][to]; !ok {
		d[from][to] = line
	}
}

// next returns the tasks p depends on, by path.
func (d dependencies) next(p string) []string {
	out := make([]string, 0, len(d[p]))
	for q := range d[p] {
		out = append(out, q)
	}
	slices.Sort(out)
	return out
}

// cycles returns a problem for each knot of tasks that depend on each
// other in a circle (a strongly connected set of more than one task):
// none of them can ever be ready. The problem is on the knot's first task
// by path, at the line of its link along the shortest cycle back to it,
// which the message spells out.
func (d dependencies) cycles() []markdown.Problem {
	var out []markdown.Problem
	for _, knot := range d.knots() {
		start := knot[0]
		in := make(map[string]bool, len(knot))
		for _, p := range knot {
			in[p] = true
		}
		cycle := d.shortestCycle(start, in)
		msg := "depends_on cycle: " + strings.Join(cycle, " → ")
		var others []string
		for _, p := range knot {
			if !slices.Contains(cycle, p) {
				others = append(others, p)
			}
		}
		if len(others) > 0 {
			msg += fmt.Sprintf(" (and %s, on other cycles through them)", strings.Join(others, ", "))
		}
		msg += "; none of these tasks can be ready until one of these dependencies is removed"
		out = append(out, markdown.Problem{Path: start, Line: d[start][cycle[1]], Message: msg})
	}
	return out
}

// shortestCycle returns the shortest walk from start back to start
// through the tasks in knot, start first and last; of walks as short,
// the first by path.
func (d dependencies) shortestCycle(start string, knot map[string]bool) []string {
	from := map[string]string{}
	queue := []string{start}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, q := range d.next(p) {
			if !knot[q] {
				continue
			}
			if q == start {
				cycle := []string{start}
				for at := p; at != start; at = from[at] {
					cycle = append(cycle, at)
				}
				cycle = append(cycle, start)
				slices.Reverse(cycle)
				return cycle
			}
			if _, seen := from[q]; !seen {
				from[q] = p
				queue = append(queue, q)
			}
		}
	}
	return []string{start, start} // not reached: start is in a knot
}

// knots returns the sets of more than one task that each reach every
// other by depends_on links (Tarjan's strongly connected components),
// each sorted, in order of their first task.
func (d dependencies) knots() [][]string {
	var nodes []string
	for p := range d {
		nodes = append(nodes, p)
	}
	slices.Sort(nodes)
	order, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var out [][]string
	var visit func(p string)
	visit = func(p string) {
		order[p], low[p] = len(order), len(order)
		stack = append(stack, p)
		onStack[p] = true
		for _, q := range d.next(p) {
			if _, seen := order[q]; !seen {
				visit(q)
				low[p] = min(low[p], low[q])
			} else if onStack[q] {
				low[p] = min(low[p], order[q])
			}
		}
		if low[p] != order[p] {
			return
		}
		var knot []string
		for {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[q] = false
			knot = append(knot, q)
			if q == p {
				break
			}
		}
		if len(knot) > 1 {
			slices.Sort(knot)
			out = append(out, knot)
		}
	}
	for _, p := range nodes {
		if _, seen := order[p]; !seen {
			visit(p)
		}
	}
	slices.SortFunc(out, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	return out
}
