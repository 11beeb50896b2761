package lesson

import (
	"context"

	"github.com/vaultmem/vaultmem/lesson/contradict"
)

// Contradiction is two lessons whose triggers overlap and whose action
// biases point opposite ways (see contradict.Contradiction).
type Contradiction = contradict.Contradiction

// Contradictions lists the pairs of live lessons whose triggers overlap
// (the same tool, the same glob, or trigger words of which they share at
// least half) and whose action biases say opposite things about a shared
// topic ("always run X" against "never run X"); see contradict.Find,
// which looks only at the pairs an index of the lessons gives. When ctx
// is done it stops and returns ctx's error.
func (s *Store) Contradictions(ctx context.Context) ([]Contradiction, error) {
	lessons, err := s.ix.Lessons(ctx)
	if err != nil {
		return nil, err
	}
	return contradict.Find(ctx, contradictLessons(lessons))
}

// contradictLessons are the live lessons as contradict.Find reads them,
// each trigger entry classified as matching classifies it (triggerKind).
func contradictLessons(lessons []Lesson) []contradict.Lesson {
	var out []contradict.Lesson
	for _, l := range lessons {
		if l.Archived {
			continue
		}
		c := contradict.Lesson{Path: l.Path, ActionBias: l.ActionBias}
		for _, t := range l.Trigger {
			kind, val := triggerKind(t)
			c.Trigger = append(c.Trigger, contradict.Trigger{Kind: kind, Value: val})
		}
		out = append(out, c)
	}
	return out
}
