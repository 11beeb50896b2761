// Package recall answers "what should an agent see about this?": given a
// question, it returns the best context from the vault within a hard
// token budget.
//
// The pipeline (docs/recall.md tells it at length):
//
//  1. Intent: rules (English and Chinese cues) give a category and a
//     confidence; an optional LLM classifier over an OpenAI-compatible
//     chat endpoint is used when it answers with confidence >= 0.7, the
//     rules when theirs is >= 0.5, else the intent is hybrid. Answers are
//     cached for 24 h in the sidecar cache.
//  2. Route: the intent picks a strategy (exact-only, exact-first,
//     semantic-first), the memory layers to favour, the graph dimensions
//     to expand along and a token budget; see [DefaultRoutes].
//  3. Stages: fast (exact engine), extend (+ semantic, temporal, graph,
//     feedback and context expansion), full (everything, deeper, + the
//     verifier: the LLM judges the best candidates in one call and those
//     it finds irrelevant are dropped; without one, or when it fails, a
//     lexical reranker), each under its own deadline and giving at most
//     its cap of items (5, 10, all: [StageCaps]); a stage runs only when
//     the previous one did not return enough: see [Engine.Recall]. The
//     LLM classifier's keywords join the query the engines search for.
//     The temporal engine searches the notes dated on the days a question
//     names (and, on the temporal route, those dated like the best hits;
//     for a question asking how long, the first and last events of the
//     best hits' task logs);
//     the graph engine the notes linked to and from the best hits, and on
//     entity and relationship routes the notes their link labels name.
//  4. Fuse and dedup: reciprocal rank fusion of the engines; exact
//     duplicates (same normalised text) and near duplicates (0.4 Jaccard
//     + 0.6 LCS similarity of their words >= 0.85) are dropped.
//  5. Rank: final = base x priority (1.1 preferred engine, 0.9 the
//     other, 1.0 both) x people (5 for the notes of the people the
//     question names) x duration (2 for a text stating a length of time,
//     "for 7 years", when the question asks how long) x episode (0.5 for
//     a session note: an episode ranks below the memories, tasks and
//     lessons with the same evidence) + layer bonus (<= 0.1) + recency
//     bonus (<= 0.05, linear over 90 days).
//  6. Budget: with the shared fill (the default), each item is first cut
//     to the budget divided by the number of items; then, with either
//     fill, items are kept in rank order until the budget is spent, the
//     last one truncated with a marker rather than dropped.
//
// Tokens are counted everywhere with text.EstimateTokens (one per CJK
// character, characters/4 rounded up otherwise), the same estimator the
// index uses for chunk sizes; the returned context never estimates above
// the budget.
//
// It imports index (through the small Index interface it declares), text,
// vault and chat; the CLI and the MCP server import it.
package recall
