package index

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/vaultmem/vaultmem/index/internal/rank"
	"github.com/vaultmem/vaultmem/text"
	"github.com/vaultmem/vaultmem/vault"
)

// Mode is a search mode.
type Mode string

// Search modes.
const (
	Keyword Mode = "keyword" // FTS5 BM25 over names, aliases, descriptions, tags, headings and text
	Vector  Mode = "vector"  // embedding similarity
	Hybrid  Mode = "hybrid"  // reciprocal rank fusion of keyword and vector
)

// ParseMode checks a mode name; "" means Hybrid.
func ParseMode(s string) (Mode, error) {
	switch Mode(s) {
	case "":
		return Hybrid, nil
	case Keyword, Vector, Hybrid:
		return Mode(s), nil
	}
	return "", fmt.Errorf("unknown search mode %q (want keyword, vector or hybrid)", s)
}

// Query is a search request. Zero fields mean no filter.
type Query struct {
	Text  string
	Mode  Mode // "" means Hybrid
	Limit int  // 0 means 10
	// Type keeps notes whose frontmatter type is Type ("none": no type).
	Type string
	// Tag keeps notes with the tag or one nested under it.
	Tag string
	// Folder keeps notes under this vault-relative folder.
	Folder string
	// Paths, when not empty, keeps only these notes.
	Paths []string
	// NoSnippets leaves Result.Snippet empty, for callers that read Text.
	NoSnippets bool
	// Memories keeps the notes of the four memory types.
	Memories bool
	// Archived includes the archived notes (Dream's merged and superseded
	// memories), which queries otherwise leave out.
	Archived bool
	// All includes every note a search otherwise leaves out: the archived
	// notes and Dream's logs (notes of type DreamLogType). MEMORY.md, an
	// index of the memories, stays out even so.
	All bool
	// AnyWord ranks every chunk holding any word of a keyword query,
	// common words included, instead of asking first for chunks holding
	// every word and leaving common words out (see keyword).
	AnyWord bool
	// Loaded, when not nil, gives chunks the caller holds already, as an
	// earlier search of this Index returned them: those are taken from
	// it (with this search's score and snippet) instead of read again.
	Loaded func(chunk int64) (Result, bool)
}

// Result is one matching chunk.
type Result struct {
	Path    string  `json:"path"`
	Heading string  `json:"heading"`
	Block   string  `json:"block"`
	Line    int     `json:"line"`
	Score   float64 `json:"score"`
	Snippet string  `json:"snippet"`
	// Chunk identifies the chunk; Text is its whole text, Tokens its size,
	// Kind its note's type and Date the date the note is about.
	Chunk  int64  `json:"-"`
	Text   string `json:"-"`
	Tokens int    `json:"-"`
	Kind   string `json:"-"`
	Date   string `json:"-"`
	Title  string `json:"-"`
	// LineEnd is the chunk's last line.
	LineEnd int `json:"-"`
}

// rrfK is the constant of reciprocal rank fusion (Cormack et al.).
const rrfK = 60

// ErrNoVectors is returned by a vector search when the index has no
// vectors (embeddings are off, or the embedder failed).
var ErrNoVectors = errors.New("index: no vectors to search (embeddings are off or failed; try --mode keyword)")

// maxSearchLimit is the deepest ranking Search computes; recall's widest
// budget (100,000 tokens) ranks about 8,400 deep.
const maxSearchLimit = 10_000

// Search finds the chunks that best match q. A hybrid search falls back to
// keyword results when there are no vectors. A query without a word to
// search for ("", "???") finds nothing. Every hit has evidence: a keyword
// hit holds a word of the query, and a vector hit is more similar to it
// than the embedder's floor (for the vault's LSA model, 0.05), so that a
// query no note holds a word of, nor any word the model knows, finds
// nothing rather than the chunks nearest to nothing. Errors: a limit over 10,000 or a
// query over [MaxQueryBytes] (ErrBadQuery); the cache's.
func (sr *Searcher) Search(ctx context.Context, q Query) ([]Result, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	switch {
	case limit > maxSearchLimit:
		return nil, fmt.Errorf("%w: limit %d is over %d", ErrBadQuery, limit, maxSearchLimit)
	case len(q.Text) > MaxQueryBytes:
		return nil, fmt.Errorf("%w: the query is %d bytes, over the %d-byte limit", ErrBadQuery, len(q.Text), MaxQueryBytes)
	case len(Terms(q.Text)) == 0:
		return []Result{}, nil
	}
	mode := q.Mode
	if mode == "" {
		mode = Hybrid
	}
	f, err := sr.filter(ctx, q, true)
	if err != nil {
		return nil, err
	}
	var ranked []rank.Scored
	switch mode {
	case Keyword:
		ranked, err = sr.keyword(ctx, q.Text, limit, f, q.AnyWord)
	case Vector:
		ranked, err = sr.vector(ctx, q.Text, limit, f)
	case Hybrid:
		// The two rankings at once: loading the vectors and the model
		// (a new process) and scanning them take as long as the keyword
		// ranking.
		pool := max(limit*3, 30)
		var vec []rank.Scored
		var vecErr error
		done := make(chan struct{})
		go func() {
			defer close(done)
			vec, vecErr = sr.vector(ctx, q.Text, pool, f)
		}()
		kw, kwErr := sr.keyword(ctx, q.Text, pool, f, q.AnyWord)
		<-done
		if errors.Is(vecErr, ErrNoVectors) {
			vec, vecErr = nil, nil
		}
		if err = cmp.Or(kwErr, vecErr); err == nil {
			ranked = fuse(limit, kw, vec)
		}
	default:
		return nil, fmt.Errorf("unknown search mode %q", mode)
	}
	if err != nil {
		return nil, err
	}
	return sr.results(ctx, ranked, q)
}

// fuse combines ranked lists by reciprocal rank fusion.
func fuse(limit int, lists ...[]rank.Scored) []rank.Scored {
	score := map[int64]float64{}
	for _, l := range lists {
		for place, s := range l {
			score[s.ID] += 1 / float64(rrfK+place+1)
		}
	}
	out := make([]rank.Scored, 0, len(score))
	for id, s := range score {
		out = append(out, rank.Scored{ID: id, Score: s})
	}
	sort.Slice(out, func(i, j int) bool { return rank.Better(out[i], out[j]) })
	return out[:min(limit, len(out))]
}

// filter builds the filter of q. Archived notes (Dream's merged and
// superseded memories) are hidden unless q.Archived or q.All; search
// hides MEMORY.md, an index of the memories and never an answer itself,
// and Dream's logs unless q.All: they are about the memories, and their
// words are the memories' own.
func (sr *Searcher) filter(ctx context.Context, q Query, search bool) (rank.Filter, error) {
	var f rank.Filter
	var err error
	if f.Hide, err = sr.hidden(ctx, hide{archived: !q.Archived && !q.All, memoryIndex: search, dreamLogs: search && !q.All}); err != nil {
		return f, err
	}
	if search {
		if f.Chunks, err = sr.boilerplate(ctx); err != nil {
			return f, err
		}
	}
	var where []string
	var args []any
	switch t := strings.ToLower(strings.TrimSpace(q.Type)); t {
	case "":
	case "none":
		where = append(where, "kind = ''")
	default:
		where = append(where, "kind = ?")
		args = append(args, t)
	}
	if q.Memories {
		where = append(where, "kind IN ('user', 'feedback', 'project', 'reference')")
	}
	if tag := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(q.Tag), "#")); tag != "" {
		where = append(where, "id IN (SELECT note_id FROM tags WHERE tag = ? OR substr(tag, 1, ?) = ?)")
		args = append(args, tag, len(tag)+1, tag+"/")
	}
	if folder := strings.Trim(strings.TrimSpace(q.Folder), "/"); folder != "" && folder != "." {
		where = append(where, "substr(path, 1, ?) = ?")
		args = append(args, len(folder)+1, folder+"/")
	}
	if len(q.Paths) > 0 {
		// One JSON array, however many paths: a hub note's links can
		// outnumber SQLite's bound parameters.
		paths, err := json.Marshal(q.Paths)
		if err != nil {
			return f, err
		}
		where = append(where, "path IN (SELECT value FROM json_each(?))")
		args = append(args, string(paths))
	}
	if len(where) == 0 {
		return f, nil
	}
	rows, err := sr.ix.db.QueryContext(ctx, "SELECT id FROM notes WHERE "+strings.Join(where, " AND "), args...)
	if err != nil {
		return f, fmt.Errorf("filter notes: %w", err)
	}
	defer rows.Close()
	f.Only = map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return f, err
		}
		f.Only[id] = true
	}
	return f, rows.Err()
}

// DreamLogType is the frontmatter type of Dream's log, the note that
// records what each Dream run changed in the memories: search leaves its
// notes out unless asked for all (Query.All), and recall never gives them.
// It is still a note of the vault, linked to and from like any other.
const DreamLogType = "dream-log"

// hide says which notes hidden returns.
type hide struct {
	archived, memoryIndex, dreamLogs bool
}

// hidden returns the ids of the notes a query does not see, as h asks:
// the archived ones (a frontmatter archived or merged_into key), MEMORY.md
// and Dream's logs. The sets are kept between calls while the index's
// files do not change.
func (sr *Searcher) hidden(ctx context.Context, h hide) (map[int64]bool, error) {
	gen, err := sr.ix.meta(ctx, sr.ix.db, metaFilesVersion)
	if err != nil {
		return nil, err
	}
	sr.ix.mu.Lock()
	notes := sr.ix.hide
	sr.ix.mu.Unlock()
	if notes == nil || notes.gen != gen {
		notes = &hiddenNotes{gen: gen, archived: map[int64]bool{}, dreamLogs: map[int64]bool{}, boiler: map[int64]bool{}}
		// A lookup by index each: "path = ? OR archived" scans every note.
		rows, err := sr.ix.db.QueryContext(ctx, `SELECT id, 1 FROM notes WHERE path = ?
			UNION ALL SELECT id, 0 FROM notes WHERE archived
			UNION ALL SELECT id, 2 FROM notes WHERE kind = '`+DreamLogType+`'`,
			vault.MemoryListFile)
		if err != nil {
			return nil, fmt.Errorf("read hidden notes: %w", err)
		}
		for rows.Next() {
			var id int64
			var set int
			if err := rows.Scan(&id, &set); err != nil {
				rows.Close()
				return nil, err
			}
			switch set {
			case 0:
				notes.archived[id] = true
			case 1:
				notes.memoryIndex = id
			default:
				notes.dreamLogs[id] = true
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if err := sr.readBoilerplate(ctx, notes.boiler); err != nil {
			return nil, err
		}
		sr.ix.mu.Lock()
		sr.ix.hide = notes
		sr.ix.mu.Unlock()
	}
	out := map[int64]bool{}
	if h.archived {
		for id := range notes.archived {
			out[id] = true
		}
	}
	if h.dreamLogs {
		for id := range notes.dreamLogs {
			out[id] = true
		}
	}
	if h.memoryIndex && notes.memoryIndex != 0 {
		out[notes.memoryIndex] = true
	}
	return out, nil
}

// hiddenNotes are the notes queries hide, as of the files version gen.
type hiddenNotes struct {
	gen string
	// boiler are the boilerplate chunks (see boilerplate.go).
	boiler      map[int64]bool
	archived    map[int64]bool
	dreamLogs   map[int64]bool
	memoryIndex int64
}

// keyword ranks chunks by BM25 (see ranker). Chunks holding every word
// of the query are asked for first, a cheap query even when the words are
// common; when fewer than limit do, every chunk holding any word is
// ranked.
//
// In that second query, words found in more than a quarter of all chunks
// (a name in every line of a chat, a word of the vault's own jargon) are
// left out when the query has rarer ones: BM25 weighs them little, but
// in short chunks they still outrank a long chunk holding the rare word
// the question is about.
func (sr *Searcher) keyword(ctx context.Context, text string, limit int, f rank.Filter, anyWord bool) ([]rank.Scored, error) {
	q := newKeywordQuery(text)
	r, err := sr.ranker(ctx)
	if err != nil {
		return nil, err
	}
	if q.size() > 1 && !anyWord {
		out, err := r.rank(ctx, q, true, limit, f)
		if err != nil || len(out) >= limit {
			return out, err
		}
		if rare, err := rareTerms(ctx, r, q); err == nil && len(rare.terms) > 0 {
			if out, err := r.rank(ctx, rare, false, limit, f); err != nil || len(out) > 0 {
				return out, err
			}
		}
	}
	return r.rank(ctx, q, false, limit, f)
}

// ranker ranks the chunks matching a keyword query by BM25: FTS5, or the
// lexicon that mirrors it in memory.
type ranker interface {
	// rank returns the best limit chunks holding any term of q (with
	// all, every term) whose notes pass f, best first.
	rank(ctx context.Context, q keywordQuery, all bool, limit int, f rank.Filter) ([]rank.Scored, error)
	// rows counts the chunks.
	rows(ctx context.Context) (int, error)
	// hits counts the chunks holding term, or at least atMost of them
	// when more do.
	hits(ctx context.Context, term string, atMost int) (int, error)
}

// ranker is the lexicon when this process keeps one, else FTS5.
func (sr *Searcher) ranker(ctx context.Context) (ranker, error) {
	l, err := sr.lexicon(ctx)
	if err != nil {
		return nil, err
	}
	if l != nil {
		return l, nil
	}
	return ftsRanker{sr.ix.db, sr.ix.stmts.prepared}, nil
}

// commonShare is the share of chunks above which a query word is common;
// in an index of fewer than minChunksToPrune chunks no word is.
const (
	commonShare      = 0.25
	minChunksToPrune = 100
)

// rareTerms returns q without its common terms; the zero query when none
// is common or all are.
func rareTerms(ctx context.Context, r ranker, q keywordQuery) (keywordQuery, error) {
	if len(q.terms) < 2 || len(q.cjk) > 0 {
		return keywordQuery{}, nil
	}
	total, err := r.rows(ctx)
	if err != nil || total < minChunksToPrune {
		return keywordQuery{}, err
	}
	limit := commonShare * float64(total)
	var rare []string
	for _, t := range q.terms {
		n, err := r.hits(ctx, t, int(limit)+1)
		if err != nil {
			return keywordQuery{}, err
		}
		if n > 0 && float64(n) <= limit {
			rare = append(rare, t)
		}
	}
	if len(rare) == len(q.terms) {
		return keywordQuery{}, nil
	}
	return keywordQuery{terms: rare}, nil
}

// Frequencies returns for each word, a run of letters and digits, how
// many chunks hold it, the word analyzed as keyword search analyzes it
// (see text.Term), counting no further than atMost: what a search for it
// would cost, before asking. Other words (CJK runs among them) count 0.
func (sr *Searcher) Frequencies(ctx context.Context, words []string, atMost int) ([]int, error) {
	r, err := sr.ranker(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(words))
	for i, w := range words {
		t := text.Term(w)
		if t == "" || text.HasCJK(t) || strings.IndexFunc(t, text.IsSeparator) >= 0 {
			continue // not one word of letters and digits: no chunk holds it as a term
		}
		if out[i], err = r.hits(ctx, t, atMost); err != nil {
			return nil, err
		}
		out[i] = min(out[i], atMost)
	}
	return out, nil
}

// ftsRanker ranks with FTS5.
type ftsRanker struct {
	db       *sql.DB
	prepared func(ctx context.Context, query string) (*sql.Stmt, error)
}

func (r ftsRanker) rows(ctx context.Context) (int, error) {
	var n int
	err := r.db.QueryRowContext(ctx, "SELECT count(*) FROM chunks").Scan(&n)
	return n, err
}

func (r ftsRanker) hits(ctx context.Context, term string, atMost int) (int, error) {
	st, err := r.prepared(ctx, `SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)`)
	if err != nil {
		return 0, err
	}
	var n int
	err = st.QueryRowContext(ctx, `"`+term+`"`, atMost).Scan(&n)
	return n, err
}

func (r ftsRanker) rank(ctx context.Context, q keywordQuery, all bool, limit int, f rank.Filter) ([]rank.Scored, error) {
	expr := q.expr(all)
	if expr == "" {
		return nil, nil
	}
	// A filter goes into the query, so that the limit counts only the
	// chunks that pass it.
	where, args := "", []any{expr}
	if f.Only != nil {
		where += ` AND c.note_id IN (SELECT value FROM json_each(?))`
		args = append(args, idList(f.Only))
	}
	if len(f.Hide) > 0 {
		where += ` AND c.note_id NOT IN (SELECT value FROM json_each(?))`
		args = append(args, idList(f.Hide))
	}
	if len(f.Chunks) > 0 {
		where += ` AND NOT c.boiler` // Chunks are the boilerplate (see Index.filter)
	}
	rows, err := r.db.QueryContext(ctx, `SELECT f.rowid, f.rank FROM chunks_fts f JOIN chunks c ON c.id = f.rowid
		WHERE chunks_fts MATCH ? AND f.rank MATCH 'bm25(`+bm25Weights+`)'`+where+` ORDER BY f.rank LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("keyword search: %w", err)
	}
	defer rows.Close()
	var out []rank.Scored
	for rows.Next() {
		var id int64
		var bm25 float64
		if err := rows.Scan(&id, &bm25); err != nil {
			return nil, err
		}
		out = append(out, rank.Scored{ID: id, Score: -bm25})
	}
	return out, rows.Err()
}

// idList is a JSON array of the ids of set.
func idList(set map[int64]bool) string {
	ids := make([]string, 0, len(set))
	for id := range set {
		ids = append(ids, strconv.FormatInt(id, 10))
	}
	return "[" + strings.Join(ids, ",") + "]"
}

// vector embeds the query and scans every vector for the chunks most
// similar to it, keeping only those above the embedder's floor (see
// minSimilarity); a query without a word the embedder knows (its vector
// is zero) has no vector hits.
func (sr *Searcher) vector(ctx context.Context, text string, limit int, f rank.Filter) ([]rank.Scored, error) {
	if sr.ix.opts.NoVectors {
		return nil, ErrNoVectors
	}
	vs, err := sr.ix.vstore.vectors(ctx)
	if err != nil {
		return nil, err
	}
	e, err := sr.queryEmbedder(ctx, vs.EmbedID())
	if err != nil {
		return nil, err
	}
	if e == nil || vs.Len() == 0 || vs.EmbedID() != e.ID() {
		return nil, ErrNoVectors
	}
	qv, err := e.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("embed query with %s: %w", e.ID(), err)
	}
	if isZero(qv[0]) {
		return nil, nil // no word the model knows: nothing is similar
	}
	var keep func(note, chunk int64) bool
	if !f.All() {
		keep = f.KeepChunk
	}
	hits, err := vs.Nearest(ctx, qv[0], limit, keep)
	if err != nil {
		return nil, err
	}
	floor := sr.minSimilarity()
	for i, h := range hits { // best first: the rest are no more similar
		if h.Score <= floor {
			return hits[:i], nil
		}
	}
	return hits, nil
}

// lsaMinSimilarity is the cosine similarity to the query that a chunk
// must exceed to be a vector hit of the vault's own LSA model. Measured on
// four real vaults (a 185-note wiki, a 1,012-note Dendron site, two LoCoMo
// conversations), half of all chunks are within 0.030-0.039 of a query's
// vector, and a query's best chunk is above 0.2 in 99 % of queries; on
// LoCoMo, a floor of 0.05 drops 3 of 227 evidence chunks from the vector
// ranking (the keyword ranking finds them) and one in eight of the others,
// and leaves recall's score as it was, while 0.1 starts to lower it.
const lsaMinSimilarity = 0.05

// minSimilarity is the cosine similarity a vector hit must exceed: a
// chunk no more similar to the query than that is no evidence, however
// high it would rank. For the vault's LSA model it is lsaMinSimilarity;
// for a configured embedder, whose similarities between unrelated texts
// differ from model to model, 0: only a chunk with no similarity at all,
// or an opposite one, is left out.
func (sr *Searcher) minSimilarity() float64 {
	if sr.ix.opts.Embedder == nil {
		return lsaMinSimilarity
	}
	return 0
}

// isZero reports whether v is the zero vector, an embedder's answer for a
// text it has no word for.
func isZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// queryEmbedder is the embedder for queries: the configured one, or the
// stored LSA model (never fitted at query time); nil when there is none.
// A model held that is not want (the embedder the vectors were made
// with; "" for any) is loaded again: another process fitted a new one
// since.
func (sr *Searcher) queryEmbedder(ctx context.Context, want string) (Embedder, error) {
	if sr.ix.opts.Embedder != nil {
		return sr.ix.opts.Embedder, nil
	}
	sr.ix.mu.Lock()
	state := sr.ix.lsa
	sr.ix.mu.Unlock()
	if state == nil || want != "" && state.model.ID() != want {
		var err error
		if state, err = sr.ix.vstore.loadLSA(ctx); err != nil || state == nil {
			return nil, err
		}
		sr.ix.mu.Lock()
		sr.ix.lsa = state
		sr.ix.mu.Unlock()
	}
	return state.model, nil
}

// results loads the chunks of ranked, in rank order, with snippets that
// show the words of q (unless it asks for none).
func (sr *Searcher) results(ctx context.Context, ranked []rank.Scored, q Query) ([]Result, error) {
	if len(ranked) == 0 {
		return []Result{}, nil
	}
	byID := map[int64]Result{}
	ids := make([]string, 0, len(ranked))
	for _, s := range ranked {
		if q.Loaded != nil {
			if r, ok := q.Loaded(s.ID); ok {
				byID[s.ID] = r
				continue
			}
		}
		ids = append(ids, strconv.FormatInt(s.ID, 10))
	}
	if len(ids) > 0 {
		if err := sr.loadResults(ctx, ids, byID); err != nil {
			return nil, err
		}
	}
	terms := queryWords(q.Text)
	out := make([]Result, 0, len(ranked))
	for _, s := range ranked {
		r, ok := byID[s.ID]
		if !ok {
			continue // deleted by a concurrent sync
		}
		r.Score = s.Score
		r.Snippet = ""
		if !q.NoSnippets {
			r.Snippet = snippet(r.Text, terms)
		}
		out = append(out, r)
	}
	return out, nil
}

// loadResults reads the chunks ids (decimal) into byID, without scores
// or snippets.
func (sr *Searcher) loadResults(ctx context.Context, ids []string, byID map[int64]Result) error {
	stmt, err := sr.ix.stmts.prepared(ctx, resultsSQL)
	if err != nil {
		return fmt.Errorf("load results: %w", err)
	}
	rows, err := stmt.QueryContext(ctx, "["+strings.Join(ids, ",")+"]")
	if err != nil {
		return fmt.Errorf("load results: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r Result
		var blocks string
		if err := rows.Scan(&r.Chunk, &r.Path, &r.Kind, &r.Date, &r.Title, &r.Heading, &blocks, &r.Line, &r.LineEnd, &r.Text, &r.Tokens); err != nil {
			return err
		}
		r.Block, _, _ = strings.Cut(blocks, " ")
		byID[r.Chunk] = r
	}
	return rows.Err()
}

// resultsSQL loads chunks by id, the ids given as one JSON array: one
// statement for any number of ids, prepared once (see prepared).
const resultsSQL = `SELECT c.id, n.path, n.kind, CASE WHEN c.date != '' THEN c.date ELSE n.date END, n.title, c.heading, c.blocks, c.line_start, c.line_end, c.text, c.tokens
	FROM chunks c JOIN notes n ON n.id = c.note_id WHERE c.id IN (SELECT value FROM json_each(?))`
