package dream

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/fixtures/gen"
	"github.com/vaultmem/vaultmem/markdown"
)

// benchVault writes a generated vault of 10,000 notes, 1,000 of them
// memories, of which 100 are planted near duplicates of 100 others and 40
// are 20 contradicting pairs, and indexes it. It returns the vault and
// the memory files as written, to restore between runs.
func benchVault(b *testing.B) (*testVault, map[string]string) {
	b.Helper()
	dir := b.TempDir()
	if _, _, err := gen.Write(dir, gen.Options{Notes: 10000, Seed: 7}); err != nil {
		b.Fatal(err)
	}
	names, err := filepath.Glob(filepath.Join(dir, "memory", "*.md"))
	if err != nil || len(names) != 1000 {
		b.Fatalf("%d memories (%v)", len(names), err)
	}
	slices.Sort(names)
	read := func(p string) string {
		c, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		return string(c)
	}
	for i := range 100 { // a near copy of the memory before it, in its type
		src, dst := read(names[2*i]), names[2*i+1]
		n := markdown.Parse("m.md", []byte(src))
		typ, _ := n.Frontmatter.String("type")
		desc, _ := n.Frontmatter.String("description")
		name, _ := n.Frontmatter.String("name")
		body := string(n.Body()) + "\nSaid again.\n"
		if err := os.WriteFile(dst, []byte(memoryNote(name+", planted again", typ, fmt.Sprintf("%q", desc), "", body)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 20 {
		topic := fmt.Sprintf("the %s cache for the %s service", benchWords[i], benchWords[20+i])
		pair := [2]string{"Always use " + topic + ".", "Never use " + topic + "."}
		for j, s := range pair {
			p := names[200+2*i+j]
			if err := os.WriteFile(p, []byte(memoryNote(fmt.Sprintf("Rule %d-%d", i, j), "feedback", "build cache", "", s+"\n")), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	memories := map[string]string{}
	for _, p := range names {
		memories[p] = read(p)
	}
	return openTestVault(b, dir), memories
}

// restore puts the memories back as benchVault wrote them and forgets
// Dream's state, so that the next run has the same work to do.
func (tv *testVault) restore(memories map[string]string) {
	for p, c := range memories {
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			tv.t.Fatal(err)
		}
	}
	for _, p := range []string{"MEMORY.md", "memory/dream-log.md", ".vaultmem/state/dream.yaml", ".vaultmem/state/reviews.yaml"} {
		os.Remove(filepath.Join(tv.dir, p))
	}
	tv.sync()
}

// BenchmarkDream is Dream over 10,000 notes holding 1,000 memories, with
// the index current (as a watcher keeps it): full, every memory looked at
// (100 merges, 20 contradictions); and incremental, after one new memory.
func BenchmarkDream(b *testing.B) {
	tv, memories := benchVault(b)
	ctx := context.Background()
	tv.sync()
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			tv.restore(memories)
			b.StartTimer()
			rep, err := tv.d.Run(ctx, RunOptions{})
			if err != nil || len(rep.Merged) < 100 || len(rep.Contradictions) < 20 {
				b.Fatalf("%v: %d merged, %d contradictions", err, len(rep.Merged), len(rep.Contradictions))
			}
		}
	})
	b.Run("incremental", func(b *testing.B) {
		tv.restore(memories)
		if _, err := tv.d.Run(ctx, RunOptions{}); err != nil {
			b.Fatal(err)
		}
		i := 0
		for b.Loop() {
			b.StopTimer()
			tv.write(fmt.Sprintf("memory/new-%d.md", i), memoryNote(fmt.Sprintf("New %d", i), "project", "new",
				"created: 2026-03-01\n", fmt.Sprintf("A new fact number %d about the release, due next Friday.\n", i)))
			tv.sync()
			i++
			b.StartTimer()
			rep, err := tv.d.Run(ctx, RunOptions{})
			if err != nil || rep.Examined != 1 || len(rep.DatesFixed) != 1 {
				b.Fatalf("%v: examined %d, dates %d", err, rep.Examined, len(rep.DatesFixed))
			}
		}
	})
}

// benchWords name the planted contradictions' topics.
var benchWords = strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar " +
	"papa quebec romeo sierra tango mercury venus earth mars jupiter saturn uranus neptune pluto ceres vesta pallas juno hygiea " +
	"europa io ganymede callisto titan rhea")
