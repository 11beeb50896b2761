package lesson

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/vaultmem/vaultmem/lesson/router"
	"github.com/vaultmem/vaultmem/vault"
)

// The learned router's files in the cache folder: the model, and how many
// records of the outcome log it has learned (it is made again from the log
// when either is missing or does not fit).
const (
	RouterFile     = "router.model"
	routerSeenFile = "router.seen"
)

// Router returns the learned router trained on the whole outcome log: the
// model kept in cacheDir, trained further on the records it has not seen
// and saved again. A model that cannot be read is made again from the log.
func (s *Store) Router(cacheDir string) (*router.Model, error) {
	recs, err := s.ReadLog()
	if err != nil {
		return nil, err
	}
	modelPath, seenPath := filepath.Join(cacheDir, RouterFile), filepath.Join(cacheDir, routerSeenFile)
	m, seen := router.New(router.Options{}), 0
	if b, err := os.ReadFile(seenPath); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && n >= 0 && n <= len(recs) {
			if b, err := os.ReadFile(modelPath); err == nil {
				if loaded, err := router.Decode(b); err == nil {
					m, seen = loaded, n
				}
			}
		}
	}
	if seen == len(recs) && seen > 0 {
		return m, nil
	}
	m.Train(routerRecords(recs[seen:]))
	b, err := m.MarshalBinary()
	if err == nil {
		err = vault.WriteCacheFile(modelPath, func(w io.Writer) error { _, err := w.Write(b); return err })
	}
	if err == nil {
		err = vault.WriteCacheFile(seenPath, func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "%d\n", len(recs))
			return err
		})
	}
	if err != nil {
		return m, fmt.Errorf("save the router in %s: %w", cacheDir, err)
	}
	return m, nil
}

func routerRecords(recs []Record) []router.Record {
	out := make([]router.Record, len(recs))
	for i, r := range recs {
		out[i] = r.Record
	}
	return out
}

// EvalRouter replays the outcome log in time order (the first trainFrac
// to train on, the rest to test, learning as it goes as it would in use)
// and compares precision at 1 and 3 of the static order (relevance ×
// strength) and of the learned router's.
func (s *Store) EvalRouter(trainFrac float64) (router.Report, error) {
	recs, err := s.ReadLog()
	if err != nil {
		return router.Report{}, err
	}
	return router.Replay(routerRecords(recs), trainFrac, router.Options{}), nil
}

// Rerank is the reranking of model m, for MatcherOptions.Rerank: the
// candidates in the order m scores them.
func Rerank(m *router.Model) func(Situation, []Match) []Match {
	return func(s Situation, ms []Match) []Match {
		cs := make([]router.Candidate, len(ms))
		byPath := make(map[string]Match, len(ms))
		for i, x := range ms {
			cs[i] = router.Candidate{Path: x.Path, Domain: x.Domain, Tags: x.Tags, Relevance: x.Relevance, Strength: x.Strength}
			byPath[x.Path] = x
		}
		out := make([]Match, 0, len(ms))
		for _, c := range m.Rerank(router.Situation{Text: s.Text, Tool: s.Tool, Paths: s.Paths}, cs) {
			x := byPath[c.Path]
			x.Why += "; reranked by the learned router"
			out = append(out, x)
		}
		return out
	}
}
