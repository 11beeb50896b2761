//go:build !unix

package index

import "testing"

// reportRSS reports nothing where getrusage is missing (Windows): the
// benchmarks' peak RSS is measured on Unix.
func reportRSS(*testing.B) {}
