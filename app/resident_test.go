package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/watch"
)

// TestServeInProcess: Serve (what vaultmem mcp and watch run) in process,
// under -race in CI: it syncs first, answers the ops of another process
// over its socket (search, a hook event), keeps the index current as a
// note is written beside it, and stops when its context ends.
func TestServeInProcess(t *testing.T) {
	a := hookApp(t)
	dir := a.Vault.Dir
	ctx, cancel := context.WithCancel(context.Background())
	firstSync := make(chan error, 1)
	started := make(chan struct{})
	batches := make(chan watch.Batch, 64)
	served := make(chan error, 1)
	go func() {
		served <- a.Serve(ctx, ServeOptions{
			FirstSync:     func(int, int) {},
			FirstSyncDone: func(err error) { firstSync <- err },
			Started:       func() { close(started) },
			OnBatch:       func(b watch.Batch) { batches <- b },
			Logf:          t.Logf,
		})
	}()
	<-started
	if err := <-firstSync; err != nil {
		t.Fatal(err)
	}
	// Asked as another process asks: the server takes it (no deadline
	// but the test's: this is no timing test).
	wait := AskOptions{FirstByte: time.Hour, Wait: time.Hour}
	found, answered, err := Ask(ctx, dir, OpSearch, SearchRequest{Query: "pnpm installs", Limit: 5}, wait)
	if !answered || err != nil || len(found.Results) == 0 || found.Results[0].Path != "memory/use-pnpm.md" {
		t.Fatalf("search over the socket: answered %v, %v, %+v", answered, err, found.Results)
	}
	ev := HookEvent{Kind: HookSessionStart, Client: "claude-code", Session: "over-the-socket", Source: "startup", Time: time.Now()}
	if ans, answered, err := Ask(ctx, dir, OpHook, ev, wait); !answered || err != nil || ans.Context == "" {
		t.Fatalf("a hook over the socket: answered %v, %v, %+v", answered, err, ans)
	}
	// A note written beside the server (Obsidian, git), in a folder new
	// since the watch began: the watcher's rescan indexes it, and a
	// search over the socket finds it after that batch.
	p := filepath.Join(dir, "notes", "quokka.md")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte("# Quokka\n\nThe quokka telemetry lives in the importer.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	search := func() []string {
		res, answered, err := Ask(ctx, dir, OpSearch, SearchRequest{Query: "quokka telemetry", Limit: 5, NoSync: true}, wait)
		if !answered || err != nil {
			t.Fatalf("search over the socket: answered %v, %v", answered, err)
		}
		var paths []string
		for _, r := range res.Results {
			paths = append(paths, r.Path)
		}
		return paths
	}
	for b := range batches {
		if b.Err != nil {
			t.Fatal(b.Err)
		}
		if slices.Contains(search(), "notes/quokka.md") {
			break
		}
	}
	// An op the server does not know (a newer client's) is left to the
	// client to answer in its own process.
	if answered, err := ask(ctx, dir, "no-such-op", struct{}{}, &found, wait); answered || err != nil {
		t.Errorf("an unknown op: answered %v, %v", answered, err)
	}
	cancel()
	if err := <-served; err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("Serve after its context ended: %v", err)
	}
}
