package recall

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/text"
)

// engines are the names of the engines, in the order items name them.
var engines = []string{"exact", "semantic", "temporal", "graph", "expand", "narrower", "context"}

// Rank bonuses: for a hit in a layer the route favours, and for one
// updated recently. episodeFactor scales a session note's score: a
// session note is an episode, what an agent did once, and the memories,
// tasks and lessons it led to say the same with more weight, so that for
// the same evidence they come first.
const (
	episodeFactor = 0.5
	layerBonus    = 0.1
	recencyBonus  = 0.05
	recencyDays   = 90
)

// rank scores every candidate (final = base x priority x episode x
// recent + layer
// bonus + recency bonus), sorts them best first and drops duplicates.
func (s *search) rank() []*candidate {
	all := slices.DeleteFunc(s.top(len(s.cands)), func(c *candidate) bool { return c.rejected })
	if len(all) == 0 {
		return nil
	}
	maxRRF := all[0].rrf
	preferred, other := "exact", "semantic"
	if s.route.Strategy == SemanticFirst {
		preferred, other = other, preferred
	}
	now := s.e.now()
	for _, c := range all {
		base := c.rrf / maxRRF
		_, p := c.ranks[preferred]
		_, o := c.ranks[other]
		priority := 1.0
		switch {
		case p && !o:
			priority = 1.1
		case o && !p:
			priority = 0.9
		}
		c.final = base * priority
		if s.people[c.hit.Path] {
			c.final *= peopleBoost
			if saysNamed(speaker(c.hit.Text), s.named) {
				c.final *= speakerBoost
			}
		}
		if s.duration && statesDuration(c.hit.Text) {
			c.final *= durationBoost
		}
		if c.hit.Kind == session.Type {
			c.final *= episodeFactor
		}
		if c.recent = s.recent[c.hit.Path]; c.recent {
			c.final *= recentBoost
		}
		layer := Layer(c.hit.Kind)
		if slices.Contains(s.route.Layers, layer) {
			c.final += layerBonus
		}
		c.final += recency(c.hit.Date, now)
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].final != all[j].final {
			return all[i].final > all[j].final
		}
		return all[i].seq < all[j].seq
	})
	return dedup(all, 2*s.budget)
}

// recency is the bonus of a note dated date: recencyBonus today, falling
// linearly to 0 at 90 days; 0 for undated notes.
func recency(date string, now time.Time) float64 {
	if len(date) < 10 {
		return 0
	}
	t, err := time.Parse("2006-01-02", date[:10])
	if err != nil {
		return 0
	}
	age := now.Sub(t).Hours() / 24
	if age < 0 || age > recencyDays {
		return 0
	}
	return recencyBonus * (1 - age/recencyDays)
}

func why(c *candidate, layer string) string {
	var parts []string
	for _, e := range engines {
		if r, ok := c.ranks[e]; ok {
			if e == "context" {
				parts = append(parts, "next to a hit")
			} else {
				parts = append(parts, e+" #"+strconv.Itoa(r+1))
			}
		}
	}
	out := strings.Join(parts, ", ") + "; " + layer
	if c.recent {
		out += "; written in this session"
	}
	if c.verdict != "" {
		out += "; " + c.verdict
	}
	return out
}

// rerank, the full stage's verifier when no LLM is configured or the
// LLM fails (see verify), moves up the candidates that hold
// more of the query's words: each one's fused score grows by up to half
// with the share of query words in its text.
func (s *search) rerank() {
	terms := map[string]int{}
	for _, w := range text.Words(s.query) {
		if _, ok := terms[w]; !ok {
			terms[w] = len(terms)
		}
	}
	if len(terms) == 0 {
		return
	}
	have := make([]bool, len(terms))
	for _, c := range s.cands {
		clear(have)
		n := 0
		for _, ws := range [][]string{text.Words(c.hit.Title), text.Words(c.hit.Heading), c.words()} {
			for _, w := range ws {
				if i, ok := terms[w]; ok && !have[i] {
					have[i] = true
					n++
				}
			}
		}
		c.rrf *= 1 + 0.5*float64(n)/float64(len(terms))
	}
}
