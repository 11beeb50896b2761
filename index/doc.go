// Package index is vaultmem's sidecar cache: a SQLite database in
// .vaultmem/cache/ holding note metadata, resolved links, chunks of note
// text with full-text (FTS5) indexes, and embedding vectors. It is never
// trusted over the notes: a missing, stale, corrupt or version-mismatched
// cache is rebuilt from the vault, and [Index.Sync] brings it up to date
// incrementally (an unchanged vault costs one directory walk of stats).
//
// Search is keyword (FTS5 BM25 with field weights), vector (an exact scan
// over contiguous quantized vectors) or hybrid (reciprocal rank fusion of
// the two), with filters by note type, tag and folder.
//
// [Index] owns the one database (its *sql.DB, its lock, its in-memory
// caches under one mutex, Open and Close) and keeps it in step with the
// vault (Sync, SyncPaths, Refresh, Check, Repair, Pack). Each other job
// over the same database is a type of its own, which the Index hands out:
// [Index.Graph] the links and names ([Graph]: edges, backlinks, walks,
// orphans, name resolution, the notes linked to, labelled like or naming
// others), [Index.Searcher] the chunks ([Searcher]: search, frequencies,
// listing, dating, the chunks around a hit, the resident keyword index),
// [Index.Kinds] the rows of the note kinds ([Kinds]: memories, proposals,
// sessions, tasks, lessons), [Index.Cache] the key-value cache ([Cache]).
// The embedder, the vectors and their pack files are one more, inside
// the package. A consumer is handed the part its interface asks for; the
// kinds' stores and Dream, which ask for two parts and Refresh, are given
// [Index.Stores], and recall, which asks for three, [Index.Recall].
//
// Two parts that need neither the database nor an Index are packages of
// their own, which index feeds from its SQL: the vectors in memory and
// their pack file (internal/vectors), and the resident keyword index that
// ranks as FTS5 does (internal/lexicon); internal/rank is the ranked
// chunks and filters both share with index.
//
// It imports vault (notes), graph (link resolution), text (the analyzer),
// embed (vectors) and the note kinds (memory, task, lesson), whose
// packages say what a row of theirs holds (memory.Read, task.Read,
// lesson.Read) and whose stores it answers (see Stores); recall (see
// Recall), watch, Dream and app read through it.
package index
