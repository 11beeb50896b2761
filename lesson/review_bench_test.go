package lesson_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/lesson/router"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// reviewVault writes a vault of n lessons (one in ten below the review
// line) and an outcome log of records outcome records spread over eight
// people's twelve months (each record with a situation and three lessons
// shown, as the hook writes them), indexes it, and returns the vault, its
// index and the current month's log file (a state path).
func reviewVault(b *testing.B, n, records int) (*vault.Vault, *index.Index, string) {
	dir := b.TempDir()
	r := rand.New(rand.NewPCG(13, uint64(n)))
	os.MkdirAll(filepath.Join(dir, "lessons"), 0o755)
	for i := range n {
		strength := 0.5
		if i%10 == 0 {
			strength = 0.2
		}
		fields := []markdown.Field{{Key: "type", Value: "lesson"}, {Key: "name", Value: fmt.Sprintf("Lesson %d", i)},
			{Key: "trigger", Value: []string{benchWords[i%len(benchWords)] + " " + benchWords[(i*7)%len(benchWords)]}},
			{Key: "action_bias", Value: "always check"}, {Key: "strength", Value: strength}}
		if err := os.WriteFile(filepath.Join(dir, "lessons", fmt.Sprintf("l%05d.md", i)), markdown.Format(fields, "Body.\n\n## History\n\n- 2026-01-01 10:00 created at 0.5\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	people := []string{"ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal"}
	files := map[string]*os.File{}
	current := ""
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range records {
		at := start.Add(time.Duration(i) * (365 * 24 * time.Hour / time.Duration(records)))
		name := vault.StateDir + "/" + lesson.LogName(people[r.IntN(len(people))]+"@example.com", at)
		current = name
		fh := files[name]
		if fh == nil {
			full := filepath.Join(dir, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(full), 0o755)
			var err error
			if fh, err = os.Create(full); err != nil {
				b.Fatal(err)
			}
			files[name] = fh
		}
		l := func() string { return fmt.Sprintf("lessons/l%05d.md", r.IntN(n)) }
		rec := lesson.Record{Record: router.Record{Time: at, Lesson: l(), Outcome: []string{"success", "failure"}[r.IntN(2)],
			Context: "go test ./... -run " + benchWords[r.IntN(len(benchWords))], Tool: "Bash", Paths: []string{"internal/x/y.go"},
			Shown: []router.Shown{{Path: l(), Relevance: 0.8, Strength: 0.5}, {Path: l(), Relevance: 0.6, Strength: 0.4}, {Path: l(), Relevance: 0.3, Strength: 0.7}},
			Agent: "claude"}, Before: 0.5, After: 0.55}
		line, err := json.Marshal(rec)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := fh.Write(append(line, '\n')); err != nil {
			b.Fatal(err)
		}
	}
	for _, fh := range files {
		if err := fh.Close(); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { v.Close() })
	ix, err := index.Open(ctx, v.Abs(vault.CacheDir), index.Options{NoVectors: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	if _, err := ix.Sync(ctx, v.FS(), nil); err != nil {
		b.Fatal(err)
	}
	return v, ix, current
}

// BenchmarkReview times Review (what a session's start lists for review)
// over 400 lessons and an outcome log of 20,000 records, in one run:
// whole-log (no cache folder: every log file read, as before the cache),
// cached (the counts of unchanged files from the cache folder), and
// cached-one-file-grew (a record appended to this month's file before each
// review, which is then read again); readlog is ReadLog alone, the whole
// log's reading that the cache saves.
func BenchmarkReview(b *testing.B) {
	v, ix, current := reviewVault(b, 400, 20_000)
	ctx := context.Background()
	store := func(cacheDir string) *lesson.Store {
		st, err := lesson.NewStore(vault.NewWriter(v, vault.WriterOptions{}), ix.Stores(), lesson.Options{FS: v.FS(), CacheDir: cacheDir})
		if err != nil {
			b.Fatal(err)
		}
		return st
	}
	b.Run("readlog", func(b *testing.B) {
		st := store("")
		for b.Loop() {
			if _, err := st.ReadLog(); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, mode := range []string{"whole-log", "cached", "cached-one-file-grew"} {
		b.Run(mode, func(b *testing.B) {
			st := store("")
			if mode != "whole-log" {
				st = store(v.Abs(vault.CacheDir))
			}
			if _, err := st.Review(ctx, false); err != nil { // fill the cache
				b.Fatal(err)
			}
			line := outcomeLine("lessons/l00001.md", "success")
			full := v.Abs(current)
			for b.Loop() {
				if mode == "cached-one-file-grew" {
					fh, err := os.OpenFile(full, os.O_APPEND|os.O_WRONLY, 0)
					if err != nil {
						b.Fatal(err)
					}
					fh.WriteString(line)
					fh.Close()
				}
				if _, err := st.Review(ctx, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
