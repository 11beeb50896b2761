package lesson

import (
	"context"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/lesson/vectors"
)

// The fast path's vector side: a paraphrase of a lesson's situation
// ("before I touch the schema" for a lesson on migrations) shares no word
// with its trigger, so the keyword side never finds it. The vault's
// embedder places the situation; each lesson is placed by its own words
// and by what the vault says around it (the notes it links to and is
// linked from, else the notes its rule's words find), because a lesson's
// few words alone place it poorly among lessons (measured: 1 of 5
// paraphrases put the right lesson first by its words alone, while the
// vault's notes on each topic were found 5 of 5). The vectors are made
// when the lesson set is (re)built, each kept by the lesson's content hash
// and the embedder's ID, so that a rebuild after one outcome embeds one
// lesson; a match embeds only the situation and scans the lessons'
// signatures (see vectors.Set.Nearest).

// Embedder turns texts into L2-normalised vectors (see vectors.Embedder):
// what package embed's embedders, and index.Embedder, are.
type Embedder = vectors.Embedder

// Meaning is what the vector side asks of the vault.
type Meaning interface {
	// Embedder returns the vault's embedder as it is now; nil, with no
	// error, when there is none (no vectors, or none fitted yet): then the
	// fast path keeps to words.
	Embedder(ctx context.Context) (Embedder, error)
	// Around returns, by lesson path, the texts the vault holds about
	// each of ls (the notes it links to and is linked from, else the notes
	// its rule's words find); a lesson with none is left out.
	Around(ctx context.Context, ls []Lesson) (map[string][]string, error)
}

// aroundWeight is the weight of the vault's texts around a lesson against
// the lesson's own words in its vector (both normalised first). Measured
// on the paraphrase set (TestLessonParaphrases: 60 situations, 12
// lessons), the right lesson is the nearest by vector for 20 situations
// with weight 0 (the lesson's own words), 40 with 3, 43 with 4, 42 with
// 5 and 40 with the texts alone: the texts place a lesson, its own words
// tell it from the lessons on a neighbouring topic.
const aroundWeight = 4.0

// meaningFull is the similarity at which the meaning part of a lesson's
// relevance is whole (1); below it the part is the similarity's share of
// it, so that a lesson at the floor (0.2, a part of 0.4, see
// vectors.Set.Nearest) reaches MinRelevance on meaning alone.
const meaningFull = 0.5

// meaningText is the text of a lesson its own vector is made of: its name,
// word triggers, action bias and text.
func meaningText(e *entry) string {
	return strings.Join(append(append([]string{e.Name}, e.phraseText...), e.ActionBias, e.Text), "\n")
}

// embedSet gives set's lessons their vectors, reusing those m made before
// for a lesson of the same content and embedder.
func (m *Matcher) embedSet(ctx context.Context, set *lessonSet) error {
	if m.opts.Meaning == nil || len(set.lessons) == 0 {
		return nil
	}
	e, err := m.opts.Meaning.Embedder(ctx)
	if err != nil || e == nil {
		return err
	}
	model := e.ID()
	m.vecMu.Lock()
	defer m.vecMu.Unlock()
	if m.vecs == nil {
		m.vecs = vectors.Load(m.opts.VectorFile)
	}
	dims := e.Dimensions()
	if m.proj == nil || m.proj.Dims() != dims {
		m.proj = vectors.NewProjector(dims)
	}
	var missing []int
	for i := range set.lessons {
		l := &set.lessons[i]
		if c, ok := m.vecs[l.Path]; !ok || c.Key != (vectors.Key{Hash: l.Hash, Model: model}) || len(c.V) != dims {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		ls := make([]Lesson, len(missing))
		own := make([]string, len(missing))
		for j, i := range missing {
			ls[j] = set.lessons[i].Lesson
			own[j] = meaningText(&set.lessons[i])
		}
		around, err := m.opts.Meaning.Around(ctx, ls)
		if err != nil {
			return err
		}
		ctxText := make([]string, len(missing))
		for j, l := range ls {
			ctxText[j] = strings.Join(around[l.Path], "\n")
		}
		ownV, err := e.Embed(ctx, own)
		if err != nil {
			return err
		}
		ctxV, err := e.Embed(ctx, ctxText)
		if err != nil {
			return err
		}
		for j, i := range missing {
			v := slices.Clone(ownV[j])
			for d := range v {
				v[d] += aroundWeight * ctxV[j][d]
			}
			vectors.Normalize(v)
			c := vectors.Vec{Key: vectors.Key{Hash: set.lessons[i].Hash, Model: model}, V: v, Sig: make([]uint64, vectors.SigWords)}
			m.proj.Sign(v, c.Sig)
			m.vecs[set.lessons[i].Path] = c
		}
		paths := make([]string, len(set.lessons))
		for i := range set.lessons {
			paths[i] = set.lessons[i].Path
		}
		vectors.Save(m.opts.VectorFile, m.vecs, paths)
	}
	vecs := make([]vectors.Vec, len(set.lessons))
	kept := make(map[string]vectors.Vec, len(set.lessons)) // a lesson gone, or out of matching, is forgotten
	for i := range set.lessons {
		c := m.vecs[set.lessons[i].Path]
		kept[set.lessons[i].Path] = c
		vecs[i] = c
	}
	m.vecs = kept
	set.vec = vectors.NewSet(e, m.proj, vecs)
	return nil
}

// VectorFile is the file, in the cache folder (Options.CacheDir), that
// keeps the lessons' vectors between processes (see vectors.File).
const VectorFile = vectors.File

// meaning scores set's lessons by the similarity of their vectors to the
// situation's text (vectors.Set.Nearest) and writes, for the best few,
// their similarity's part of relevance into sc.sem; nothing when the set
// has no vectors or the text no word the embedder knows.
func (set *lessonSet) meaning(ctx context.Context, textOf string, sc *scratch) error {
	top, n, err := set.vec.Nearest(ctx, textOf, &sc.vec)
	if err != nil {
		return err
	}
	for _, t := range top[:n] {
		sc.touch(t.Doc)
		sc.sem[t.Doc] = min(1, float64(t.Sim)/meaningFull)
	}
	return nil
}

// WordTriggers are the items of trigger that are words: no tool:NAME, no
// path glob (see the trigger's kinds in docs/lessons.md).
func WordTriggers(trigger []string) []string {
	var out []string
	for _, t := range trigger {
		if kind, v := triggerKind(t); kind == "words" {
			out = append(out, v)
		}
	}
	return out
}
