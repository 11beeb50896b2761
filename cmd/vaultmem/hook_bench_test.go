package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/app"
	"github.com/vaultmem/vaultmem/fixtures/gen"
)

// BenchmarkHook times the whole `vaultmem hook` process, the binary built
// from this package, per Claude Code event, on a generated vault of
// 10,000 notes (VAULTMEM_BENCH_NOTES sets another count) with a focused
// task and a lesson: with the vault's server running (`vaultmem watch`,
// as the MCP server a client starts would be) and without one. Each
// sub-benchmark reports the p50 and p99 of its processes. Run it alone:
// go test -run '^$' -bench Hook -benchtime 40x ./cmd/vaultmem
func BenchmarkHook(b *testing.B) {
	notes := 10000
	if n, err := strconv.Atoi(os.Getenv("VAULTMEM_BENCH_NOTES")); err == nil && n > 0 {
		notes = n
	}
	tmp := b.TempDir()
	bin := filepath.Join(tmp, "vaultmem")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	dir, project := filepath.Join(tmp, "vault"), filepath.Join(tmp, "proj")
	if _, _, err := gen.Write(dir, gen.Options{Notes: notes}); err != nil {
		b.Fatal(err)
	}
	run := func(stdin string, args ...string) {
		cmd := exec.Command(bin, append([]string{"--vault", dir}, args...)...)
		cmd.Stdin = bytes.NewReader([]byte(stdin))
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("vaultmem %v: %v\n%s", args, err, out)
		}
	}
	run("", "init")
	run("", "lesson", "add", "Check the cache", "--trigger", "src/cache/**", "--trigger", "cache latency", "--action-bias", "measure before tuning")
	run("", "task", "add", "Tune the cache")
	run("", "task", "start", "Tune the cache")
	run("", "index")

	events := []struct {
		name   string
		fields map[string]any
	}{
		{"SessionStart", map[string]any{"source": "startup"}},
		{"UserPromptSubmit", map[string]any{"prompt": "why is the cache latency high after the deploy?"}},
		{"PreToolUse", map[string]any{"tool_name": "Edit", "tool_use_id": "t1",
			"tool_input": map[string]any{"file_path": filepath.Join(project, "src", "cache", "lru.go")}}},
		{"PostToolUse", map[string]any{"tool_name": "Edit", "tool_use_id": "t1",
			"tool_input": map[string]any{"file_path": filepath.Join(project, "src", "cache", "lru.go")}, "tool_response": map[string]any{"success": true}}},
		{"Stop", map[string]any{"stop_hook_active": false}},
	}
	measure := func(b *testing.B, session, event string, fields map[string]any) {
		ev := map[string]any{"session_id": session, "cwd": project, "hook_event_name": event}
		for k, v := range fields {
			ev[k] = v
		}
		in, _ := json.Marshal(ev)
		var took []time.Duration
		for b.Loop() {
			start := time.Now()
			cmd := exec.Command(bin, "--vault", dir, "hook", "--client", "claude-code")
			cmd.Stdin = bytes.NewReader(in)
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if err := cmd.Run(); err != nil || errb.Len() > 0 {
				b.Fatalf("%s: %v %s", event, err, errb.String())
			}
			took = append(took, time.Since(start))
		}
		slices.Sort(took)
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
		b.ReportMetric(ms(took[len(took)/2]), "p50-ms")
		b.ReportMetric(ms(took[min(len(took)-1, len(took)*99/100)]), "p99-ms")
	}
	for _, server := range []bool{false, true} {
		mode := "no-server"
		var stop func()
		if server {
			mode = "server"
			w := exec.Command(bin, "--vault", dir, "watch")
			if err := w.Start(); err != nil {
				b.Fatal(err)
			}
			stop = func() { w.Process.Kill(); w.Wait() }
			for i := 0; ; i++ { // a hang guard, not a timing
				if c, err := app.Dial(b.Context(), app.ServerAddress(dir)); err == nil {
					c.Close()
					break
				}
				if i == 6000 {
					stop()
					b.Fatal("the watcher never served")
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		for _, ev := range events {
			b.Run(fmt.Sprintf("%s/%s", mode, ev.name), func(b *testing.B) {
				measure(b, "bench-"+mode, ev.name, ev.fields)
			})
		}
		if stop != nil {
			stop()
		}
	}
}
