package recall

import "context"

// engine is one way recall finds chunks: the keyword ranking, vectors, the
// notes of the days a question names, linked notes, words the best hits
// share, the chunks around a hit. Each stage asks every engine of the
// registry in turn, at the stage's level, and an engine does what suits
// that level (nothing, at levels it does not serve); it adds what it finds
// with search.add, under its name. A new way of finding chunks (tasks'
// decision logs, lessons) is one file with one more engine in registry.
type engine interface {
	find(ctx context.Context, s *search, l level)
}

// level is how far a stage looks.
type level int

// The levels of the stages (see stages).
const (
	fast   level = iota // the keyword engine alone
	extend              // every engine, moderately deep
	full                // every engine, as deep as the budget asks
)

// engineFunc makes a function an engine.
type engineFunc func(ctx context.Context, s *search, l level)

func (f engineFunc) find(ctx context.Context, s *search, l level) { f(ctx, s, l) }

// registry is every engine, in the order the stages ask them: the
// engines that look around the best hits come after those that find them.
var registry = []engine{
	engineFunc(exactEngine),
	engineFunc(semanticEngine),
	engineFunc(temporalEngine),
	engineFunc(graphEngine),
	engineFunc(expandEngine),
	engineFunc(narrowerEngine),
	engineFunc(contextEngine),
	engineFunc(fillEngine),
}

// perLevel picks a stage's parameter: the extend stage's or the full
// stage's.
func perLevel(l level, extendN, fullN int) int {
	if l == full {
		return fullN
	}
	return extendN
}
