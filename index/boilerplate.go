package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Boilerplate is text that repeats across many notes: a footer every note
// of a published vault ends with ("This note in GitHub", a link to edit
// it), a template's empty sections, a navigation block. It says nothing
// about the note it is in, yet a query that shares one of its words finds
// it in every note, ahead of the one note that answers. The index
// recognises it by shape: a chunk's shape is a fingerprint of its heading
// and words, link targets and URLs left out (so that a footer linking to
// each note's own address has one shape in every note). A shape held by
// more notes than boilerplateNotes allows is boilerplate: its chunks
// match no search (keyword or vector) and recall never gives them. The
// chunks stay in the index, and a shape counts again as soon as fewer
// notes hold it.
//
// It is kept incrementally: a sync counts the notes of each shape it
// added or removed a chunk of, and marks or unmarks that shape's chunks;
// when the vault has grown or shrunk enough to move the threshold (or
// touched too many shapes to count one by one), it counts every shape
// at once.
const (
	// boilerplateShare: a shape held by more than this share of the
	// notes is boilerplate...
	boilerplateShare = 0.02
	// boilerplateFloor: ...and by more than this many notes at least, so
	// that a line a few notes of a small vault share stays searchable.
	boilerplateFloor = 10
	// boilerplateRecount is how many touched shapes a sync counts one by
	// one; more, and it counts them all at once.
	boilerplateRecount = 2000
)

// metaBoilerplateNotes is the meta key holding the threshold the marks
// were made with (see boilerplateNotes).
const metaBoilerplateNotes = "boilerplate_notes"

// boilerplateNotes is the most notes a shape may be held by in a vault of
// notes notes before it is boilerplate: 2 % of them, and at least 10.
func boilerplateNotes(notes int) int {
	return max(boilerplateFloor, int(boilerplateShare*float64(notes)))
}

// shapeOf is the fingerprint of a chunk's heading path and text: their
// words lower-cased, in order, without link targets ("](…)") and URLs.
// 0 is the shape of a chunk without a word: never boilerplate.
func shapeOf(heading, text string) int64 {
	h := fnv.New64a()
	words := 0
	var word []byte
	flush := func() {
		if len(word) > 0 {
			h.Write(word)
			h.Write([]byte{' '})
			word, words = word[:0], words+1
		}
	}
	for _, s := range []string{heading, "\n", text} {
		for i := 0; i < len(s); {
			switch {
			case strings.HasPrefix(s[i:], "]("):
				flush()
				end := strings.IndexByte(s[i:], ')')
				if end < 0 {
					end = len(s) - i - 1
				}
				i += end + 1
				continue
			case strings.HasPrefix(s[i:], "http://") || strings.HasPrefix(s[i:], "https://"):
				flush()
				for i < len(s) && !unicode.IsSpace(rune(s[i])) && s[i] != ')' && s[i] != '>' && s[i] != '"' {
					i++
				}
				continue
			}
			r, size := rune(s[i]), 1
			if r >= 0x80 {
				r, size = utf8.DecodeRuneInString(s[i:])
			}
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				word = append(word, string(unicode.ToLower(r))...)
			} else {
				flush()
			}
			i += size
		}
		flush()
	}
	if words == 0 {
		return 0
	}
	if v := int64(h.Sum64()); v != 0 {
		return v
	}
	return 1
}

// touchOldShapes records the shapes whose note count a write may have
// changed: the boilerplate shapes of note id's chunks, about to be
// removed (another shape's removal cannot make it boilerplate).
func (w *writer) touchOldShapes(ctx context.Context, id int64) error {
	rows, err := w.stmts["noteBoiler"].QueryContext(ctx, id)
	if err != nil {
		return fmt.Errorf("read boilerplate of note %d: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var s int64
		if err := rows.Scan(&s); err != nil {
			return err
		}
		w.touched[s] = true
	}
	return rows.Err()
}

// settleBoilerplate marks as boilerplate the chunks whose shape more notes
// hold than boilerplateNotes allows, and unmarks the others, for the
// shapes this write touched, or for every shape when the threshold moved.
func (w *writer) settleBoilerplate(ctx context.Context) error {
	if len(w.touched) == 0 {
		return nil
	}
	var notes int
	if err := w.tx.QueryRowContext(ctx, `SELECT count(*) FROM notes`).Scan(&notes); err != nil {
		return fmt.Errorf("boilerplate: count notes: %w", err)
	}
	limit := boilerplateNotes(notes)
	var stored string
	err := w.tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, metaBoilerplateNotes).Scan(&stored)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("boilerplate: %w", err)
	}
	if stored != strconv.Itoa(limit) || len(w.touched) > boilerplateRecount {
		const common = `SELECT shape FROM chunks WHERE shape != 0 GROUP BY shape HAVING count(DISTINCT note_id) > ?1`
		for _, q := range []string{
			`UPDATE chunks SET boiler = 1 WHERE NOT boiler AND shape IN (` + common + `)`,
			`UPDATE chunks SET boiler = 0 WHERE boiler AND shape NOT IN (` + common + `)`,
		} {
			if _, err := w.tx.ExecContext(ctx, q, limit); err != nil {
				return fmt.Errorf("boilerplate: mark: %w", err)
			}
		}
		if _, err := w.tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
			metaBoilerplateNotes, strconv.Itoa(limit)); err != nil {
			return fmt.Errorf("boilerplate: %w", err)
		}
	} else {
		for s := range w.touched {
			var n int
			if err := w.stmts["shapeNotes"].QueryRowContext(ctx, s).Scan(&n); err != nil {
				return fmt.Errorf("boilerplate: count shape: %w", err)
			}
			boiler := n > limit
			if _, err := w.exec(ctx, "markShape", boiler, s); err != nil {
				return err
			}
		}
	}
	// A note that is nothing but boilerplate (a stub holding only the
	// footer) keeps its first chunk: it is the one through which its
	// name, aliases and description are found (see chunkNote).
	if _, err := w.tx.ExecContext(ctx, `UPDATE chunks SET boiler = 0 WHERE boiler AND seq = 0 AND NOT EXISTS
		(SELECT 1 FROM chunks d WHERE d.note_id = chunks.note_id AND d.id != chunks.id AND NOT d.boiler)`); err != nil {
		return fmt.Errorf("boilerplate: keep notes findable: %w", err)
	}
	return nil
}

// boilerplate returns the ids of the boilerplate chunks, which no search
// matches; kept, with the hidden notes, while the index's files do not
// change (see hidden). The map is shared: callers do not change it.
func (sr *Searcher) boilerplate(ctx context.Context) (map[int64]bool, error) {
	if _, err := sr.hidden(ctx, hide{}); err != nil {
		return nil, err
	}
	sr.ix.mu.Lock()
	defer sr.ix.mu.Unlock()
	return sr.ix.hide.boiler, nil
}

// readBoilerplate adds the ids of the boilerplate chunks to into.
func (sr *Searcher) readBoilerplate(ctx context.Context, into map[int64]bool) error {
	rows, err := sr.ix.db.QueryContext(ctx, `SELECT id FROM chunks WHERE boiler`)
	if err != nil {
		return fmt.Errorf("read boilerplate: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		into[id] = true
	}
	return rows.Err()
}
