package livehealth

import (
	"testing"
	"time"
)

// TestHealthLatencyWindow: the percentiles are over the latest
// LatencyWindow matches only (the memory is bounded), by nearest rank.
func TestHealthLatencyWindow(t *testing.T) {
	h := New(time.Time{})
	if l := h.Counts().Latency; l.Matches != 0 || l.P50 != nil || l.P95 != nil || l.P99 != nil {
		t.Errorf("before any match: %+v", l)
	}
	// 1,000 slow matches, then a window's worth of 1..1024 ms: the slow
	// ones have left the window.
	for range 1000 {
		h.Matched(1e6, nil)
	}
	for i := range LatencyWindow {
		h.Matched(float64(i+1), nil)
	}
	l := h.Counts().Latency
	if l.Matches != 1000+LatencyWindow || l.Window != LatencyWindow {
		t.Fatalf("matches %d, window %d", l.Matches, l.Window)
	}
	if *l.P50 != 512 || *l.P95 != 973 || *l.P99 != 1014 {
		t.Errorf("p50 %v p95 %v p99 %v; want 512, 973, 1014", *l.P50, *l.P95, *l.P99)
	}
}
