//go:build unix

package index

import (
	"syscall"
	"testing"
)

// reportRSS reports the process's peak resident memory so far.
func reportRSS(b *testing.B) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB")
	}
}
