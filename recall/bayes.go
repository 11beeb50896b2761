package recall

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/vaultmem/vaultmem/text"
)

// intentData holds labelled questions (INTENT<TAB>QUESTION a line, "#"
// comments), English and Chinese: what the rules were written and scored
// on, and what the examples classifier learns from. The held-out set the
// classifiers are judged on (testdata/intents-heldout5.tsv) is not among
// them.
//
//go:embed intentdata/*.tsv
var intentData embed.FS

// examples is the naive Bayes classifier of intents trained on
// intentData, made on first use.
var examples = sync.OnceValue(func() *bayes {
	b, err := trainBayes(intentData)
	if err != nil {
		panic("recall: the labelled questions: " + err.Error()) // embedded: a build error
	}
	return b
})

// bayes is a multinomial naive Bayes classifier of questions by their
// features (see questionFeatures): where the rules' cues are a question's
// exact words, it weighs every word and word pair seen in the labelled
// questions, so that a question no cue matches still lands with those it
// resembles.
type bayes struct {
	logPrior [intentCount]float64
	// logLike is log P(feature | intent) with add-one-half smoothing, for
	// the features seen; unseen is its value for any other feature.
	logLike map[string][intentCount]float64
	unseen  [intentCount]float64
}

// bayesSmoothing is the count added to every feature of every intent.
const bayesSmoothing = 0.5

func trainBayes(fsys fs.FS) (*bayes, error) {
	if len(Intents) != intentCount {
		return nil, fmt.Errorf("%d intents, want %d", len(Intents), intentCount)
	}
	files, err := fs.Glob(fsys, "intentdata/*.tsv")
	if err != nil {
		return nil, err
	}
	var docs, total [intentCount]float64
	counts := map[string][intentCount]float64{}
	n := 0.0
	for _, name := range files {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		questions, err := readLabelled(name, data)
		if err != nil {
			return nil, err
		}
		for _, lq := range questions {
			k := slices.Index(Intents, lq.intent) // known: readLabelled checked it
			docs[k]++
			n++
			for _, f := range questionFeatures(lq.text) {
				c := counts[f]
				c[k]++
				counts[f] = c
				total[k]++
			}
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("no labelled questions in %v", files)
	}
	b := &bayes{logLike: make(map[string][intentCount]float64, len(counts))}
	vocab := float64(len(counts))
	for k := range Intents {
		b.logPrior[k] = math.Log(docs[k] / n)
		b.unseen[k] = math.Log(bayesSmoothing / (total[k] + bayesSmoothing*vocab))
	}
	for f, c := range counts {
		var l [intentCount]float64
		for k := range Intents {
			l[k] = math.Log((c[k] + bayesSmoothing) / (total[k] + bayesSmoothing*vocab))
		}
		b.logLike[f] = l
	}
	return b, nil
}

// labelledQuestion is a question with the intent it is after.
type labelledQuestion struct {
	intent Intent
	text   string
}

// readLabelled reads the labelled questions of file name: INTENT<TAB>QUESTION
// a line, blank lines and "#" comments skipped. A bad line is an error
// naming the file and the line.
func readLabelled(name string, data []byte) ([]labelledQuestion, error) {
	var out []labelledQuestion
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		s := sc.Text()
		if strings.HasPrefix(s, "#") || strings.TrimSpace(s) == "" {
			continue
		}
		label, q, ok := strings.Cut(s, "\t")
		in, err := ParseIntent(label)
		if err != nil || !ok || strings.TrimSpace(q) == "" {
			return nil, fmt.Errorf("%s:%d: %q is not INTENT<TAB>QUESTION with one of the six intents", name, line, s)
		}
		out = append(out, labelledQuestion{in, q})
	}
	return out, sc.Err()
}

// classify returns the most probable intent of q, its posterior
// probability as the confidence.
func (b *bayes) classify(q string) Classification {
	score := b.logPrior
	for _, f := range questionFeatures(q) {
		l, ok := b.logLike[f]
		if !ok {
			l = b.unseen
		}
		for k := range score {
			score[k] += l[k]
		}
	}
	best := 0
	for k := range score {
		if score[k] > score[best] {
			best = k
		}
	}
	sum := 0.0
	for k := range score {
		sum += math.Exp(score[k] - score[best])
	}
	return Classification{Intent: Intents[best], Confidence: 1 / sum, Classifier: "examples"}
}

// questionFeatures are what the examples classifier weighs of a question:
// its words (lower-cased) and pairs of adjacent words, and the characters
// and pairs of adjacent characters of its Chinese, Japanese and Korean
// runs.
func questionFeatures(q string) []string {
	var out []string
	words := text.Words(strings.ToLower(q))
	for i, w := range words {
		out = append(out, w)
		if i > 0 {
			out = append(out, words[i-1]+" "+w)
		}
	}
	for _, run := range text.CJKRuns(q) {
		for i := range run {
			out = append(out, string(run[i]))
			if i > 0 {
				out = append(out, string(run[i-1:i+1]))
			}
		}
	}
	return out
}
