package main

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/fixtures/gen"
)

// BenchmarkMCPMemory measures a long-running `vaultmem mcp`, a real
// subprocess, on a generated vault shaped like the one issue 16 measured
// (13,400 notes of 4.5 KB on average, 20 % of links dangling, 33
// folders; VAULTMEM_BENCH_NOTES sets another count). The vault is indexed
// first by `vaultmem index`, then the server gets 200 requests to warm up
// and b.N more, in turn search, recall, read_note, lesson_match and links,
// with a new memory remembered every 100th. It reports the server's
// resident memory (VmRSS) after the last request and the most seen (read
// every 500 requests), and the p50 of recall's round trip. Linux only (it
// reads /proc). Run it alone: go test -run '^$' -bench MCPMemory
// -benchtime 10000x ./cmd/vaultmem
func BenchmarkMCPMemory(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads the server's memory from /proc")
	}
	notes := 13400
	if n, err := strconv.Atoi(os.Getenv("VAULTMEM_BENCH_NOTES")); err == nil && n > 0 {
		notes = n
	}
	dir := b.TempDir()
	if _, _, err := gen.Write(dir, gen.Options{Notes: notes, MeanBytes: 4500, UnresolvedRatio: 0.2, Folders: 33}); err != nil {
		b.Fatal(err)
	}
	for _, args := range [][]string{{"init"}, {"index"}} {
		cmd := exec.Command(os.Args[0], append([]string{"--vault", dir}, args...)...)
		cmd.Env = append(os.Environ(), "VAULTMEM_RUN_MAIN=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("vaultmem %v: %v\n%s", args, err, out)
		}
	}
	var paths []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") && !strings.Contains(p, ".vaultmem") {
			rel, _ := filepath.Rel(dir, p)
			paths = append(paths, filepath.ToSlash(rel))
		}
		return nil
	})

	cmd := exec.Command(os.Args[0], "--vault", dir, "mcp")
	cmd.Env = append(os.Environ(), "VAULTMEM_RUN_MAIN=1")
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()

	words := strings.Fields("cardinality budget lock performance shard query index cache deploy retry schema token latency")
	rng := rand.New(rand.NewPCG(7, 7))
	var recalls []time.Duration
	request := func(i int, writes bool) {
		w := words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))]
		p := paths[rng.IntN(len(paths))]
		var tool string
		var args map[string]any
		switch {
		case writes && i%100 == 99:
			tool, args = "remember", map[string]any{"type": "project", "name": fmt.Sprintf("load note %d", i),
				"description": "a memory written under load", "body": "The " + w + " changed at step " + strconv.Itoa(i) + ".", "update": true}
		case i%5 == 0:
			tool, args = "search", map[string]any{"query": w}
		case i%5 == 1:
			tool, args = "recall", map[string]any{"query": "why is the " + w + " high?"}
		case i%5 == 2:
			tool, args = "read_note", map[string]any{"path": p}
		case i%5 == 3:
			tool, args = "lesson_match", map[string]any{"text": "change the " + w}
		default:
			tool, args = "links", map[string]any{"path": p}
		}
		start := time.Now()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("%s %v: %v %v", tool, args, err, res)
		}
		if tool == "recall" {
			recalls = append(recalls, time.Since(start))
		}
	}
	for i := range 200 {
		request(i, false)
	}
	recalls = recalls[:0]
	most := 0.0
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		request(i, true)
		if i%500 == 499 {
			most = max(most, rssMB(b, cmd.Process.Pid))
		}
	}
	b.StopTimer()
	rss := rssMB(b, cmd.Process.Pid)
	b.ReportMetric(rss, "rss-MB")
	b.ReportMetric(max(most, rss), "max-rss-MB")
	if len(recalls) > 0 {
		slices.Sort(recalls)
		b.ReportMetric(float64(recalls[len(recalls)/2].Microseconds())/1000, "recall-p50-ms")
	}
}

// rssMB is the resident memory of process pid, in MB.
func rssMB(b *testing.B, pid int) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				b.Fatal(err)
			}
			return float64(kb) / 1024
		}
	}
	b.Fatalf("no VmRSS for process %d", pid)
	return 0
}
