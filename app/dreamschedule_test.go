package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/dream"
)

// TestDreamScheduler: in process, the scheduler of a long-running App
// runs Dream only when its gate opens: not while the vault was edited a
// moment ago, once it has been quiet (merging the duplicate, telling
// OnDream), not again before the gate's Every has passed; and never when
// the config turns automatic runs off.
func TestDreamScheduler(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := Init(ctx, dir); err != nil {
		t.Fatal(err)
	}
	for p, c := range map[string]string{
		"memory/deploys.md": "---\nname: Deploys\ndescription: deploy day\ntype: project\ncreated: 2026-02-27\n---\nDeploys go out on Tuesdays after the standup.\n",
		"memory/deploy.md":  "---\nname: deploys\ndescription: deploy day\ntype: project\n---\nDeploys go out on Tuesdays after the standup.\n",
		"memory/tabs.md":    "---\nname: Tabs\ndescription: indentation\ntype: feedback\n---\nAlways use tabs for indentation.\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := Open(ctx, dir, Options{Resident: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.Sync(ctx, SyncOptions{Always: true}); err != nil {
		t.Fatal(err)
	}
	a.Config.Dream.Writes = 2
	var (
		mu      sync.Mutex
		reports []*dream.Report
		logged  []string
	)
	s := &dreamScheduler{app: a,
		logf:    func(f string, args ...any) { mu.Lock(); logged = append(logged, f); mu.Unlock() },
		onDream: func(r *dream.Report) { mu.Lock(); reports = append(reports, r); mu.Unlock() }}
	d, gate := a.dreamer(), a.dreamGate()
	merged := func() bool {
		b, err := os.ReadFile(filepath.Join(dir, "memory/deploy.md"))
		return err == nil && strings.Contains(string(b), "merged_into")
	}

	s.edited(time.Now()) // a human is mid-edit
	s.runIfDue(ctx, d, gate)
	if len(reports) != 0 || merged() {
		t.Fatalf("Dream ran while the vault was being edited: %d reports", len(reports))
	}

	s.edited(time.Now().Add(-time.Hour)) // quiet since
	s.runIfDue(ctx, d, gate)
	if len(reports) != 1 || len(reports[0].Changed) == 0 || !merged() {
		t.Fatalf("once quiet: %d reports, merged %v, log %v", len(reports), merged(), logged)
	}

	s.runIfDue(ctx, d, gate)
	if len(reports) != 1 {
		t.Errorf("Dream ran again within the gate's Every: %d reports", len(reports))
	}
	if len(logged) != 0 {
		t.Errorf("logged: %v", logged)
	}

	a.Config.Dream.Auto = false
	s.run(context.Background()) // returns at once: no ticker is started
}
