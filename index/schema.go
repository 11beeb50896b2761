package index

import (
	"strconv"
	"strings"

	"github.com/vaultmem/vaultmem/index/internal/lexicon"
)

// schemaVersion is stored in PRAGMA user_version; a cache with another
// version is rebuilt. Bump it with every change to schema below or to
// what Sync stores (chunking, tokenisation).
const schemaVersion = 24

// schema creates the cache's tables. chunks_fts holds each chunk's fields
// analyzed (see analyze), a column each, and in its cjk column the
// overlapping bigrams of Chinese, Japanese and Korean runs (which
// unicode61 would keep as one long token), so that a two-character word is
// found inside a longer run.
const schema = `
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE notes (
	id          INTEGER PRIMARY KEY,
	path        TEXT NOT NULL UNIQUE,
	hash        TEXT NOT NULL,
	size        INTEGER NOT NULL,
	mtime       INTEGER NOT NULL,
	kind        TEXT NOT NULL,
	name        TEXT NOT NULL,
	title       TEXT NOT NULL,
	description TEXT NOT NULL,
	aliases     TEXT NOT NULL,
	date        TEXT NOT NULL,
	frontmatter TEXT NOT NULL,
	warnings    TEXT NOT NULL,
	archived    INTEGER NOT NULL,
	proposed    INTEGER NOT NULL
);
CREATE INDEX notes_date ON notes(date) WHERE date != '';
CREATE INDEX notes_archived ON notes(id) WHERE archived;
-- The memories and lessons Dream proposed that wait to be accepted
-- (status: proposed; see vault.IsProposed): listed in MEMORY.md under
-- "Needs review", out of the live memories and of matching.
CREATE INDEX notes_proposed ON notes(id) WHERE proposed;
-- Dream's logs, which search hides (see Index.hidden).
CREATE INDEX notes_dream_log ON notes(id) WHERE kind = 'dream-log';
-- The notes with warnings, which every sync lists (see Index.totals).
CREATE INDEX notes_warned ON notes(path) WHERE warnings != '';
-- Lookup finds a note by its name, case-insensitively.
CREATE INDEX notes_name ON notes(lower(name));
-- The live memories (notes of a memory type, neither archived nor
-- proposed): what
-- MEMORY.md lists. name is the frontmatter name (a memory's identity),
-- written the day it was last written (its latest updated, created or
-- date), owner whose memory it is (its frontmatter owner, '' for none),
-- text_sum the fingerprint of what it says (see memory.TextSum: what
-- tells MEMORY.md's listing a contradiction was settled by an edit).
CREATE TABLE memories (
	note_id  INTEGER PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
	name     TEXT NOT NULL,
	pinned   INTEGER NOT NULL,
	written  TEXT NOT NULL,
	owner    TEXT NOT NULL,
	text_sum TEXT NOT NULL
);
-- A note's tags: tag lower-cased (what matches), display as first written
-- in the note (what is shown), seq its place among the note's tags.
-- The tasks (notes of type task): their frontmatter as read, lower-cased
-- where it is a keyword, and what a task's context shows of them: summary
-- (the description, the body before the log, cut short) and milestone
-- (the last milestone event's text). A task's parent and dependencies are
-- its frontmatter links under parent and depends_on (edges.field).
CREATE TABLE tasks (
	note_id   INTEGER PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
	name      TEXT NOT NULL,
	status    TEXT NOT NULL,
	priority  TEXT NOT NULL,
	assignee  TEXT NOT NULL,
	created   TEXT NOT NULL,
	started   TEXT NOT NULL,
	finished  TEXT NOT NULL,
	summary   TEXT NOT NULL,
	milestone TEXT NOT NULL,
	events    INTEGER NOT NULL
);
CREATE INDEX tasks_status ON tasks(status);
-- The lessons (notes of type lesson) as read (see lesson.Read):
-- trigger and tags one item a line; text the body without its History
-- section; terms the analyzed words of name, trigger, action bias and text
-- (what the fast path ranks by); problems one a line as
-- "LINE\tKEY\tmessage" ('' when it can be matched).
CREATE TABLE lessons (
	note_id      INTEGER PRIMARY KEY REFERENCES notes(id) ON DELETE CASCADE,
	name         TEXT NOT NULL,
	trigger      TEXT NOT NULL,
	action_bias  TEXT NOT NULL,
	domain       TEXT NOT NULL,
	strength     REAL NOT NULL,
	confidence   REAL NOT NULL,
	applications INTEGER NOT NULL,
	last_applied TEXT NOT NULL,
	pinned       INTEGER NOT NULL,
	text         TEXT NOT NULL,
	tags         TEXT NOT NULL,
	terms        TEXT NOT NULL,
	problems     TEXT NOT NULL
);
-- Whom a note is by or about: the values of its person-like frontmatter
-- fields (speakers, participants, attendees, authors, ...; see
-- personFields), lower-cased, and for a name of several words its first
-- word too (kind 'first'), for recall to find the notes of the people a
-- question names.
CREATE TABLE entities (
	note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
	name    TEXT NOT NULL,
	kind    TEXT NOT NULL
);
CREATE INDEX entities_name ON entities(name);
CREATE INDEX entities_note ON entities(note_id);
CREATE TABLE tags (
	note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
	tag     TEXT NOT NULL,
	display TEXT NOT NULL,
	seq     INTEGER NOT NULL,
	PRIMARY KEY (note_id, tag)
) WITHOUT ROWID;
CREATE INDEX tags_tag ON tags(tag);
CREATE TABLE files (
	path   TEXT PRIMARY KEY,
	size   INTEGER NOT NULL,
	mtime  INTEGER NOT NULL,
	reason TEXT NOT NULL
);
CREATE TABLE edges (
	source_id   INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
	seq         INTEGER NOT NULL,
	raw         TEXT NOT NULL,
	key         TEXT NOT NULL,
	target      TEXT NOT NULL,
	resolved    INTEGER NOT NULL,
	heading     TEXT NOT NULL,
	block       TEXT NOT NULL,
	label       TEXT NOT NULL,
	embed       INTEGER NOT NULL,
	frontmatter INTEGER NOT NULL,
	markdown    INTEGER NOT NULL,
	line        INTEGER NOT NULL,
	field       TEXT NOT NULL,
	PRIMARY KEY (source_id, seq)
) WITHOUT ROWID;
CREATE INDEX edges_key ON edges(key);
CREATE INDEX edges_target ON edges(target) WHERE resolved;
CREATE TABLE chunks (
	id         INTEGER PRIMARY KEY,
	note_id    INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
	seq        INTEGER NOT NULL,
	heading    TEXT NOT NULL,
	blocks     TEXT NOT NULL,
	line_start INTEGER NOT NULL,
	line_end   INTEGER NOT NULL,
	text       TEXT NOT NULL,
	tokens     INTEGER NOT NULL,
	date       TEXT NOT NULL,
	shape      INTEGER NOT NULL,
	boiler     INTEGER NOT NULL
);
CREATE INDEX chunks_note ON chunks(note_id, seq);
-- Boilerplate (see boilerplate.go): shape is the fingerprint of a chunk's
-- words, boiler says the shape is in more notes than boilerplateNotes
-- allows (a footer, a template, a navigation block), so that no search
-- matches the chunk and recall never gives it.
CREATE INDEX chunks_shape ON chunks(shape, note_id) WHERE shape != 0;
CREATE INDEX chunks_boiler ON chunks(id) WHERE boiler;
-- A chunk's own date: a task's log event, one chunk each.
CREATE INDEX chunks_date ON chunks(date) WHERE date != '';
CREATE VIRTUAL TABLE chunks_fts USING fts5(
	name, aliases, description, tags, heading, text, cjk,
	tokenize = 'unicode61 remove_diacritics 0'
);
CREATE TABLE blobs (
	key   TEXT PRIMARY KEY,
	value BLOB NOT NULL
);
-- A chunk's vector, quantized as the searches hold it (see vectors.Encode).
CREATE TABLE vectors (
	chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
	vec      BLOB NOT NULL
);
-- Small derived facts kept for a while (recall's intent classifications);
-- see Cache.Get and Cache.Put.
CREATE TABLE kv (
	key     TEXT PRIMARY KEY,
	value   TEXT NOT NULL,
	expires INTEGER NOT NULL
);
-- Chunks waiting for a vector: every new chunk (but those a cold index
-- stores with their vectors), and all of them when the embedder changes.
-- Storing a chunk's vector removes it.
CREATE TABLE pending (
	chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE
);
`

// bm25Weights are the BM25 column weights as arguments of FTS5's bm25():
// lexicon.ColumnWeights, whose column order is chunks_fts's, so that FTS5
// and the resident lexicon rank alike.
var bm25Weights = func() string {
	s := make([]string, len(lexicon.ColumnWeights))
	for i, w := range lexicon.ColumnWeights {
		s[i] = strconv.FormatFloat(w, 'f', -1, 64)
	}
	return strings.Join(s, ", ")
}()
