package index

import (
	"context"
	"database/sql"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/vaultmem/vaultmem/graph"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/text"
	"github.com/vaultmem/vaultmem/vault"
)

// writer holds the prepared statements of one sync transaction.
type writer struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
	// written holds the notes put in this transaction; states the new
	// state of every path changed (nil: removed).
	written map[int64]bool
	states  map[string]*fileState
	// lessons is set when a lesson row was written or deleted; chunks when
	// a note's chunks were. dropped holds the notes whose chunks (and
	// vectors) were deleted: replaced or removed.
	lessons, chunks bool
	dropped         map[int64]bool
	// touched holds the shapes whose note count this write may have
	// changed (see settleBoilerplate).
	touched map[int64]bool
	// newChunks holds the chunks inserted in this transaction, a run of
	// ids a note (see pendNew, storeWarm); unvectored, once storeWarm
	// stored the vectors of the others, those it had none for.
	newChunks  []chunkRun
	warmed     bool
	unvectored []int64
	// fts holds full-text rows not yet inserted, ftsBytes their text's
	// size (see putFTS); ftsGone the rowids of full-text rows not yet
	// deleted, the chunks replaced or removed (see dropFTS).
	fts      [][]any
	ftsBytes int
	ftsGone  []int64
}

// ftsBatchBytes is how much full-text row text a writer holds before it
// inserts the rows, one after another. FTS5 writes its pending postings
// out as a new segment whenever another statement of the transaction
// opens a statement journal (a multi-row insert or delete, a foreign key
// check), so rows inserted one note at a time made a segment of a few
// rows per note, and a bulk load spent most of its full-text time merging
// thousands of them. A variable for tests.
var ftsBatchBytes = 8 << 20

var writerSQL = map[string]string{
	"insertNote": `INSERT INTO notes(path, hash, size, mtime, kind, name, title, description, aliases, date, frontmatter, warnings, archived, proposed)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	"updateNote": `UPDATE notes SET hash = ?, size = ?, mtime = ?, kind = ?, name = ?, title = ?, description = ?,
		aliases = ?, date = ?, frontmatter = ?, warnings = ?, archived = ?, proposed = ? WHERE id = ?`,
	"touch":        `UPDATE notes SET size = ?, mtime = ? WHERE id = ?`,
	"noteChunks":   `SELECT id FROM chunks WHERE note_id = ?`,
	"deleteChunk":  `DELETE FROM chunks WHERE note_id = ?`,
	"deleteEdges":  `DELETE FROM edges WHERE source_id = ?`,
	"deleteTags":   `DELETE FROM tags WHERE note_id = ?`,
	"deleteMemory": `DELETE FROM memories WHERE note_id = ?`,
	"insertMemory": `INSERT INTO memories(note_id, name, pinned, written, owner, text_sum) VALUES(?, ?, ?, ?, ?, ?)`,
	"deleteTask":   `DELETE FROM tasks WHERE note_id = ?`,
	"insertTask": `INSERT INTO tasks(note_id, name, status, priority, assignee, created, started, finished, summary, milestone, events)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	"deleteLesson":   `DELETE FROM lessons WHERE note_id = ?`,
	"deleteEntities": `DELETE FROM entities WHERE note_id = ?`,
	"insertEntity":   `INSERT INTO entities(note_id, name, kind) VALUES(?, ?, ?)`,
	"insertLesson": `INSERT INTO lessons(note_id, name, trigger, action_bias, domain, strength, confidence, applications, last_applied, pinned, text, tags, terms, problems)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	"deleteNote": `DELETE FROM notes WHERE id = ?`,
	"deleteFile": `DELETE FROM files WHERE path = ?`,
	"putFile": `INSERT INTO files(path, size, mtime, reason) VALUES(?, ?, ?, ?)
		ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime = excluded.mtime, reason = excluded.reason`,
	"insertTag": `INSERT OR IGNORE INTO tags(note_id, tag, display, seq) VALUES(?, ?, ?, ?)`,
	"insertEdge": `INSERT INTO edges(source_id, seq, raw, key, target, resolved, heading, block, label, embed, frontmatter, markdown, line, field)
		VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	"insertChunk": `INSERT INTO chunks(note_id, seq, heading, blocks, line_start, line_end, text, tokens, date, shape, boiler) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
	"noteBoiler":  `SELECT DISTINCT shape FROM chunks WHERE note_id = ? AND boiler`,
	"shapeNotes":  `SELECT count(DISTINCT note_id) FROM chunks WHERE shape = ?1 AND shape != 0`, // "!= 0": chunks_shape's WHERE, for the index to be used
	"markShape":   `UPDATE chunks SET boiler = ?1 WHERE shape = ?2 AND shape != 0 AND boiler != ?1`,
	"insertFTS":   `INSERT INTO chunks_fts(rowid, name, aliases, description, tags, heading, text, cjk) VALUES(?, ?, ?, ?, ?, ?, ?, ?)`,
	"setTarget":   `UPDATE edges SET target = ?, resolved = ? WHERE source_id = ? AND seq = ?`,
}

func newWriter(ctx context.Context, tx *sql.Tx) (*writer, error) {
	w := &writer{tx: tx, stmts: map[string]*sql.Stmt{}, written: map[int64]bool{}, states: map[string]*fileState{}, dropped: map[int64]bool{}, touched: map[int64]bool{}}
	for name, q := range writerSQL {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			w.close()
			return nil, fmt.Errorf("prepare %s: %w", name, err)
		}
		w.stmts[name] = st
	}
	return w, nil
}

func (w *writer) close() {
	for _, st := range w.stmts {
		st.Close()
	}
}

func (w *writer) exec(ctx context.Context, name string, args ...any) (sql.Result, error) {
	res, err := w.stmts[name].ExecContext(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return res, nil
}

// removePath deletes a note (with its chunks, vectors, links and tags) or
// another file from the index.
func (w *writer) removePath(ctx context.Context, p string, s fileState) error {
	w.states[p] = nil
	if !s.note {
		_, err := w.exec(ctx, "deleteFile", p)
		return err
	}
	if err := w.dropFTS(ctx, s.id); err != nil {
		return err
	}
	if err := w.deleteLesson(ctx, s.id); err != nil {
		return err
	}
	if err := w.touchOldShapes(ctx, s.id); err != nil {
		return err
	}
	w.chunks = true
	w.dropped[s.id] = true
	_, err := w.exec(ctx, "deleteNote", s.id)
	return err
}

// deleteLesson deletes note id's lesson row, noting whether it had one.
func (w *writer) deleteLesson(ctx context.Context, id int64) error {
	res, err := w.exec(ctx, "deleteLesson", id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err == nil && n > 0 {
		w.lessons = true
	}
	return nil
}

func (w *writer) putFile(ctx context.Context, p string, size, mtime int64, reason string) error {
	w.states[p] = &fileState{size: size, mtime: mtime}
	_, err := w.exec(ctx, "putFile", p, size, mtime, reason)
	return err
}

func (w *writer) touch(ctx context.Context, id, size, mtime int64) error {
	_, err := w.exec(ctx, "touch", size, mtime, id)
	return err
}

// noteRows is everything the index stores of one note, prepared off the
// writing goroutine (see [prepare]) so that the single writer only runs
// SQL.
type noteRows struct {
	path   string
	fields []any // the notes columns from hash to warnings
	tags   []string
	memory []any       // the memories columns from name on; nil when the note is no live memory
	task   []any       // the tasks columns from name on; nil when it is no task
	lesson []any       // the lessons columns from name on; nil when it is no lesson
	people [][2]string // entities rows: name, kind
	edges  [][]any     // edges columns from seq to line
	chunks []chunk
	cjk    []string // per chunk: bigrams of its CJK text
	// The FTS columns shared by every chunk of the note, and each chunk's
	// heading and text, analyzed (see analyze).
	names, aliases, description, tagText string
	headings, texts                      []string
	title                                string
	// shapes are the chunks' shapes (see shapeOf), for boilerplate.
	shapes []int64
}

// prepare computes the rows of note n with chunks, resolving its links.
func prepare(n *markdown.Note, size, mtime int64, chunks []chunk, r resolver) *noteRows {
	desc, _ := n.Frontmatter.String("description")
	fm := n.Frontmatter.JSON() // as read_note and show give it: dates as written
	var warnings []string
	for _, w := range n.Warnings {
		warnings = append(warnings, w.Error())
	}
	nr := &noteRows{
		path: n.Path,
		fields: []any{n.Hash, size, mtime, n.Type(), n.Name, n.Title(), desc,
			strings.Join(n.Aliases, "\n"), noteDate(n), jsonString(fm), strings.Join(warnings, "\n"), vault.IsArchived(n), proposed(n)},
		chunks:      chunks,
		names:       n.Name,
		aliases:     strings.Join(n.Aliases, " "),
		description: desc,
		tagText:     strings.ReplaceAll(strings.Join(n.Tags, " "), "/", " "),
		title:       n.Title(),
	}
	if t := n.Title(); !strings.EqualFold(t, n.Name) {
		nr.names += " " + t
	}
	if m, ok := memory.Read(n); ok {
		nr.memory = memoryRow(m, n)
	}
	if n.Type() == task.Type {
		nr.task = taskRow(task.Read(n))
	}
	if n.Type() == lesson.Type {
		nr.lesson = lessonRow(lesson.Read(n))
	}
	nr.people = entityRows(n)
	for _, t := range n.Tags {
		nr.tags = append(nr.tags, t)
	}
	for i, l := range n.Links {
		target, ok := r.resolve(n.Path, l)
		if !ok {
			target = l.Target
		}
		nr.edges = append(nr.edges, []any{i, l.Target, graph.LinkKey(l.Target), target, ok,
			l.Heading, l.Block, l.Label, l.Embed, l.Frontmatter, l.Markdown, l.Line, l.Field})
	}
	nr.cjk = make([]string, len(chunks))
	nr.headings = make([]string, len(chunks))
	nr.texts = make([]string, len(chunks))
	nr.shapes = make([]int64, len(chunks))
	for i, c := range chunks {
		nr.shapes[i] = shapeOf(c.heading, c.text)
		nr.cjk[i] = cjkText(nr.names, nr.aliases, desc, c.heading, c.text)
		nr.headings[i], nr.texts[i] = text.Analyzed(c.heading), text.Analyzed(c.text)
	}
	nr.names, nr.aliases, nr.description, nr.tagText = text.Analyzed(nr.names), text.Analyzed(nr.aliases), text.Analyzed(desc), text.Analyzed(nr.tagText)
	return nr
}

// embedText is what is embedded for chunk c of the note: the note's title
// and the heading path give a short paragraph its context. It must equal
// embedTextSQL.
func (nr *noteRows) embedText(c chunk) string {
	return nr.title + "\n" + c.heading + "\n" + c.text
}

// putNote inserts a note (id 0) or replaces an indexed one, with its tags,
// resolved links and chunks.
func (w *writer) putNote(ctx context.Context, id int64, nr *noteRows) error {
	w.chunks = true
	if id == 0 {
		res, err := w.exec(ctx, "insertNote", append([]any{nr.path}, nr.fields...)...)
		if err != nil {
			return err
		}
		if id, err = res.LastInsertId(); err != nil {
			return err
		}
	} else {
		w.dropped[id] = true
		if err := w.dropFTS(ctx, id); err != nil {
			return err
		}
		if err := w.touchOldShapes(ctx, id); err != nil {
			return err
		}
		for _, q := range []string{"deleteChunk", "deleteEdges", "deleteTags", "deleteMemory", "deleteTask", "deleteEntities"} {
			if _, err := w.exec(ctx, q, id); err != nil {
				return err
			}
		}
		if err := w.deleteLesson(ctx, id); err != nil {
			return err
		}
		if _, err := w.exec(ctx, "updateNote", append(nr.fields, id)...); err != nil {
			return err
		}
	}
	w.written[id] = true
	w.states[nr.path] = &fileState{id: id, size: nr.fields[1].(int64), mtime: nr.fields[2].(int64), hash: nr.fields[0].(string), note: true}
	for i, t := range nr.tags {
		if _, err := w.exec(ctx, "insertTag", id, strings.ToLower(t), t, i); err != nil {
			return err
		}
	}
	if nr.memory != nil {
		if _, err := w.exec(ctx, "insertMemory", append([]any{id}, nr.memory...)...); err != nil {
			return err
		}
	}
	if nr.task != nil {
		if _, err := w.exec(ctx, "insertTask", append([]any{id}, nr.task...)...); err != nil {
			return err
		}
	}
	if nr.lesson != nil {
		if _, err := w.exec(ctx, "insertLesson", append([]any{id}, nr.lesson...)...); err != nil {
			return err
		}
		w.lessons = true
	}
	for _, e := range nr.people {
		if _, err := w.exec(ctx, "insertEntity", id, e[0], e[1]); err != nil {
			return err
		}
	}
	for _, e := range nr.edges {
		if _, err := w.exec(ctx, "insertEdge", append([]any{id}, e...)...); err != nil {
			return err
		}
	}
	for i, c := range nr.chunks {
		res, err := w.exec(ctx, "insertChunk", id, i, c.heading, strings.Join(c.blocks, " "), c.lineStart, c.lineEnd, c.text, c.tokens, c.date, nr.shapes[i])
		if err != nil {
			return err
		}
		if nr.shapes[i] != 0 {
			w.touched[nr.shapes[i]] = true
		}
		cid, err := res.LastInsertId()
		if err != nil {
			return err
		}
		w.addChunk(cid, nr.path, i)
		if err := w.putFTS(ctx, cid, nr.names, nr.aliases, nr.description, nr.tagText, nr.headings[i], nr.texts[i], nr.cjk[i]); err != nil {
			return err
		}
	}
	return nil
}

// chunkRun is chunks first to first+n-1 of the index: chunks seq0 to
// seq0+n-1 of the note at path. A sync keeps one a note, not a record a
// chunk (which at 50,000 notes held 11 MB through a cold index).
type chunkRun struct {
	path    string
	first   int64
	seq0, n int
}

// addChunk records the insert of chunk id, chunk seq of the note at path.
func (w *writer) addChunk(id int64, path string, seq int) {
	if k := len(w.newChunks) - 1; k >= 0 {
		if r := &w.newChunks[k]; r.path == path && r.first+int64(r.n) == id && r.seq0+r.n == seq {
			r.n++
			return
		}
	}
	w.newChunks = append(w.newChunks, chunkRun{path: path, first: id, seq0: seq, n: 1})
}

// pendNew puts the chunks inserted in this transaction that are still
// there, and have no vector yet, in the pending table, in a few
// statements (one a note took a second of a cold index's CPU at 13,400
// notes).
func (w *writer) pendNew(ctx context.Context) error {
	ids := w.unvectored
	if !w.warmed {
		for _, r := range w.newChunks {
			for k := range r.n {
				ids = append(ids, r.first+int64(k))
			}
		}
	}
	for len(ids) > 0 {
		batch := ids[:min(len(ids), 10000)]
		ids = ids[len(batch):]
		if _, err := w.tx.ExecContext(ctx, `INSERT OR IGNORE INTO pending(chunk_id)
			SELECT value FROM json_each(?) WHERE value IN (SELECT id FROM chunks)`, jsonString(batch)); err != nil {
			return fmt.Errorf("queue new chunks for their vectors: %w", err)
		}
	}
	w.newChunks, w.unvectored = nil, nil
	return nil
}

// putFTS queues the full-text row of chunk id (its columns in the order
// of chunks_fts), inserting the queued rows once they are
// ftsBatchBytes.
func (w *writer) putFTS(ctx context.Context, id int64, columns ...string) error {
	row := make([]any, 0, 1+len(columns))
	row = append(row, id)
	for _, c := range columns {
		row = append(row, c)
		w.ftsBytes += len(c)
	}
	w.fts = append(w.fts, row)
	if w.ftsBytes >= ftsBatchBytes {
		return w.flushFTS(ctx)
	}
	return nil
}

// dropFTS queues the deletion of the full-text rows of note id's chunks,
// before the chunks themselves are deleted. A delete of several rows
// opens a statement journal, which makes FTS5 write its pending postings
// out as a segment and merge: deleting each replaced note's rows as it
// came (after inserting the rows queued before it) cost a segment and a
// merge a note, most of a sync after a pull. Queued, the deletions run
// together, before the queued insertions (see flushFTS).
func (w *writer) dropFTS(ctx context.Context, id int64) error {
	rows, err := w.stmts["noteChunks"].QueryContext(ctx, id)
	if err != nil {
		return fmt.Errorf("noteChunks: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var c int64
		if err := rows.Scan(&c); err != nil {
			return fmt.Errorf("noteChunks: %w", err)
		}
		w.ftsGone = append(w.ftsGone, c)
	}
	return rows.Err()
}

// ftsDeleteBatch is how many full-text rows one statement deletes.
const ftsDeleteBatch = 500

// flushFTS deletes the full-text rows queued for deletion, then inserts
// the queued rows: deletions first, since a new chunk may take the rowid
// of a deleted one. It must run before the transaction commits, and
// before anything reads chunks_fts.
func (w *writer) flushFTS(ctx context.Context) error {
	for gone := w.ftsGone; len(gone) > 0; {
		batch := gone[:min(len(gone), ftsDeleteBatch)]
		gone = gone[len(batch):]
		if _, err := w.tx.ExecContext(ctx, `DELETE FROM chunks_fts WHERE rowid IN (SELECT value FROM json_each(?))`, jsonString(batch)); err != nil {
			return fmt.Errorf("delete full-text rows: %w", err)
		}
	}
	w.ftsGone = w.ftsGone[:0]
	for _, row := range w.fts {
		if _, err := w.exec(ctx, "insertFTS", row...); err != nil {
			return err
		}
	}
	w.fts, w.ftsBytes = w.fts[:0], 0
	return nil
}

// reresolve resolves again the stored links that name any of paths (files
// that appeared or went), and updates those whose target changed. Links
// from the notes in fresh are known to be right already.
func (w *writer) reresolve(ctx context.Context, paths []string, r resolver, fresh map[int64]bool) error {
	keys := map[string]bool{}
	for _, p := range paths {
		keys[graph.FileKey(p)] = true
	}
	list := make([]any, 0, len(keys))
	for k := range keys {
		list = append(list, k)
	}
	for len(list) > 0 {
		batch := list[:min(len(list), 500)]
		list = list[len(batch):]
		q := `SELECT e.source_id, n.path, e.seq, e.raw, e.heading, e.block, e.markdown, e.target, e.resolved
			FROM edges e JOIN notes n ON n.id = e.source_id WHERE e.key IN (?` + strings.Repeat(", ?", len(batch)-1) + `)`
		rows, err := w.tx.QueryContext(ctx, q, batch...)
		if err != nil {
			return fmt.Errorf("find links to resolve again: %w", err)
		}
		type update struct {
			target   string
			resolved bool
			id, seq  int64
		}
		var updates []update
		for rows.Next() {
			var id, seq int64
			var source, raw, heading, block, target string
			var isMarkdown, resolved bool
			if err := rows.Scan(&id, &source, &seq, &raw, &heading, &block, &isMarkdown, &target, &resolved); err != nil {
				rows.Close()
				return err
			}
			if fresh[id] {
				continue
			}
			nt, ok := r.resolve(source, markdown.Link{Target: raw, Heading: heading, Block: block, Markdown: isMarkdown})
			if !ok {
				nt = raw
			}
			if nt != target || ok != resolved {
				updates = append(updates, update{nt, ok, id, seq})
			}
		}
		rows.Close()
		for _, u := range updates {
			if _, err := w.exec(ctx, "setTarget", u.target, u.resolved, u.id, u.seq); err != nil {
				return err
			}
		}
	}
	return nil
}

var datedName = regexp.MustCompile(`(^|[^0-9])(\d{4}-\d{2}-\d{2})([^0-9]|$)`)

// noteDate is the date a note is about, for temporal recall: frontmatter
// date (or created, updated), else a YYYY-MM-DD in its file name (daily
// notes), else "".
func noteDate(n *markdown.Note) string {
	for _, k := range []string{"date", "created", "updated", "last_applied"} {
		if s, ok := n.Frontmatter.String(k); ok && len(s) >= 10 {
			return s
		}
	}
	if m := datedName.FindStringSubmatch(path.Base(n.Path)); m != nil {
		return m[2]
	}
	return ""
}
