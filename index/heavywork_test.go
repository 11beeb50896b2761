package index

import (
	"context"
	"testing"
)

// TestHeavyWork: a cold sync and writing the vector pack each tell
// Options.HeavyWork when they start and end; a warm sync does not.
func TestHeavyWork(t *testing.T) {
	var started, ended int
	opts := Options{HeavyWork: func() func() {
		started++
		return func() { ended++ }
	}}
	tv := newTestVault(t, "memory-folder", opts)
	tv.sync()
	if started == 0 || started != ended {
		t.Fatalf("cold sync: heavy work started %d times, ended %d; want both, as often", started, ended)
	}
	afterSync := started
	if err := tv.ix.Pack(context.Background()); err != nil {
		t.Fatal(err)
	}
	if started != afterSync+1 || ended != started {
		t.Errorf("pack: heavy work started %d times, ended %d; want one more of each", started-afterSync, ended-afterSync)
	}
	before := started
	tv.sync()
	if started != before {
		t.Errorf("a warm sync started heavy work %d times, want none", started-before)
	}
}
