package index

import "context"

// QueryEmbedder returns the embedder that turns a text into a vector
// comparable with the index's: the configured one, or the vault's LSA
// model as the last sync fitted it (never fitted here). It is nil, with
// no error, when the index keeps no vectors or no sync has fitted a model
// yet. The lesson fast path embeds its lessons and situations with it.
func (sr *Searcher) QueryEmbedder(ctx context.Context) (Embedder, error) {
	if sr.ix.opts.NoVectors {
		return nil, nil
	}
	e, err := sr.queryEmbedder(ctx, "")
	if err != nil || e == nil {
		return nil, err
	}
	return e, nil
}
