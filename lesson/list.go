package lesson

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// ListFilter chooses the lessons List returns; the zero value chooses
// every lesson.
type ListFilter struct {
	// Domain keeps the lessons of this domain (as the notes write it, any
	// case).
	Domain string
	// MinStrength keeps the lessons at least this strong (0..1).
	MinStrength float64
	// Episode keeps the lessons learned from this note (their
	// source_episodes name it) or applied in it (an outcome logged with
	// it as its episode): a path or a name.
	Episode string
}

// Listed is a lesson as List gives it.
type Listed struct {
	Path         string   `json:"path"`
	Name         string   `json:"name"`
	Domain       string   `json:"domain"`
	Trigger      []string `json:"trigger"`
	ActionBias   string   `json:"action_bias"`
	Strength     float64  `json:"strength"`
	Confidence   float64  `json:"confidence"`
	Version      int      `json:"version"`
	Applications int      `json:"application_count"`
	Archived     bool     `json:"archived"`
	Proposed     bool     `json:"proposed"`
	// Episodes are the notes it was learned from, as its source_episodes
	// link them.
	Episodes []string `json:"episodes"`
}

// List returns the lessons f chooses, strongest first (then by path),
// archived and proposed ones included. Errors: ErrInvalid (wrapped) for a
// MinStrength outside 0..1; vault.ErrNotFound (wrapped) for an Episode
// that is no note; the index's, the outcome log's, and a note's that
// cannot be read.
func (s *Store) List(ctx context.Context, f ListFilter) ([]Listed, error) {
	if !(f.MinStrength >= 0 && f.MinStrength <= 1) || math.IsNaN(f.MinStrength) {
		return nil, fmt.Errorf("%w: min strength %v: give 0 to 1", ErrInvalid, f.MinStrength)
	}
	episode := ""
	var applied map[string]bool
	if strings.TrimSpace(f.Episode) != "" {
		p, err := s.ix.Lookup(ctx, strings.Trim(strings.TrimSpace(f.Episode), "[]"))
		if err != nil {
			return nil, fmt.Errorf("episode: %w", err)
		}
		episode = p
		recs, err := s.ReadLog()
		if err != nil {
			return nil, err
		}
		applied = map[string]bool{}
		resolved := map[string]string{}
		for _, r := range recs {
			if r.Episode != "" && s.resolveLink(ctx, r.Episode, resolved) == episode {
				applied[r.Lesson] = true
			}
		}
	}
	lessons, err := s.heads(ctx)
	if err != nil {
		return nil, err
	}
	domain := strings.ToLower(strings.TrimSpace(f.Domain))
	resolved := map[string]string{}
	out := []Listed{}
	for _, l := range lessons {
		if domain != "" && l.Domain != domain || l.Strength < f.MinStrength {
			continue
		}
		// The index keeps neither the version nor the episodes: the note
		// has them.
		b, _, err := s.w.Read(l.Path)
		if errors.Is(err, vault.ErrNotFound) {
			continue // removed since the index read it
		}
		if err != nil {
			return nil, err
		}
		n := markdown.Parse(l.Path, b)
		eps := n.Frontmatter.Strings(KeyEpisodes)
		if episode != "" && !applied[l.Path] && !slices.ContainsFunc(eps, func(e string) bool { return s.resolveLink(ctx, e, resolved) == episode }) {
			continue
		}
		if eps == nil {
			eps = []string{}
		}
		out = append(out, Listed{Path: l.Path, Name: l.Name, Domain: l.Domain, Trigger: l.Trigger, ActionBias: l.ActionBias,
			Strength: l.Strength, Confidence: l.Confidence, Version: noteVersion(n), Applications: l.Applications,
			Archived: l.Archived, Proposed: l.Proposed, Episodes: eps})
	}
	slices.SortStableFunc(out, func(a, b Listed) int {
		return cmp.Or(cmp.Compare(b.Strength, a.Strength), strings.Compare(a.Path, b.Path))
	})
	return out, nil
}

// resolveLink is the path the wikilink (or name) ref names, "" when it
// names no note; memo keeps the answers.
func (s *Store) resolveLink(ctx context.Context, ref string, memo map[string]string) string {
	ref = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(ref), "[["), "]]"))
	ref, _, _ = strings.Cut(ref, "|")
	if p, ok := memo[ref]; ok {
		return p
	}
	p, err := s.ix.Lookup(ctx, ref)
	if err != nil {
		p = ""
	}
	memo[ref] = p
	return p
}
