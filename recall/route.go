package recall

import (
	"fmt"
	"slices"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/task"
)

// Strategies: which engines a route uses and which it prefers.
const (
	ExactOnly     = "exact-only"
	ExactFirst    = "exact-first"
	SemanticFirst = "semantic-first"
)

// Route is how one intent is searched.
type Route struct {
	// Strategy is ExactOnly, ExactFirst or SemanticFirst.
	Strategy string `yaml:"strategy" json:"strategy"`
	// Layers are the memory layers favoured (L2 project ... L5 reference).
	Layers []string `yaml:"layers" json:"layers"`
	// Graph are the dimensions expanded along: concept and entity (links
	// between notes), relationship (backlinks), temporal (dated notes).
	Graph []string `yaml:"graph" json:"graph"`
	// Budget is the default token budget.
	Budget int `yaml:"budget" json:"budget"`
}

// Validate reports what is wrong with a route a user configured: an
// unknown strategy, layer or graph dimension, or a budget out of range (1
// to MaxBudget). The error names the field.
func (r Route) Validate() error {
	switch r.Strategy {
	case ExactOnly, ExactFirst, SemanticFirst:
	default:
		return fmt.Errorf("strategy %q: want %s, %s or %s", r.Strategy, ExactOnly, ExactFirst, SemanticFirst)
	}
	for _, l := range r.Layers {
		if !slices.Contains([]string{"L2", "L3", "L4", "L5"}, l) {
			return fmt.Errorf("layers: %q is not one of L2, L3, L4, L5", l)
		}
	}
	for _, g := range r.Graph {
		if !slices.Contains([]string{"concept", "entity", "relationship", "temporal"}, g) {
			return fmt.Errorf("graph: %q is not one of concept, entity, relationship, temporal", g)
		}
	}
	if r.Budget <= 0 || r.Budget > MaxBudget {
		return fmt.Errorf("budget %d: want a number of tokens from 1 to %d", r.Budget, MaxBudget)
	}
	return nil
}

// DefaultRoutes is the routing matrix: for each intent, the strategy, the
// memory layers to favour, the graph dimensions and the token budget
// (docs/recall.md, "Route").
func DefaultRoutes() map[Intent]Route {
	return map[Intent]Route{
		SimpleFact:   {ExactOnly, []string{"L4", "L5"}, nil, 500},
		Preference:   {ExactFirst, []string{"L3"}, nil, 800},
		Causal:       {SemanticFirst, []string{"L2", "L3", "L4"}, []string{"concept", "relationship"}, 1200},
		Relationship: {SemanticFirst, []string{"L2", "L3"}, []string{"entity", "relationship"}, 1000},
		Temporal:     {ExactFirst, []string{"L2", "L4"}, []string{"temporal"}, 1500},
		Hybrid:       {ExactFirst, []string{"L2", "L3", "L4", "L5"}, []string{"concept", "entity", "relationship"}, 2000},
	}
}

// Layer is the memory layer of a note kind: L2 project (and tasks), L3
// user, L4 feedback (and lessons, which are guidance too), L5 reference
// and every other note. L1, a server's in-memory recent items, is never
// on disk.
func Layer(kind string) string {
	switch memory.Type(kind) {
	case memory.Project, task.Type:
		return "L2"
	case memory.User:
		return "L3"
	case memory.Feedback, lesson.Type:
		return "L4"
	}
	return "L5"
}
