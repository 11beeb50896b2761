package router_test

import (
	"fmt"

	"github.com/vaultmem/vaultmem/lesson/router"
)

// A model learns that in migrations one lesson helps and a louder one does
// not, and reorders the fast path's candidates accordingly.
func Example() {
	m := router.New(router.Options{})
	migrate := router.Situation{Text: "migrate the orders schema", Tool: "Bash", Paths: []string{"db/042_orders.sql"}}
	backup := router.Candidate{Path: "lessons/backup-before-migrating.md", Relevance: 0.4, Strength: 0.6}
	retry := router.Candidate{Path: "lessons/retry-flaky-tests.md", Relevance: 0.7, Strength: 0.8}

	cs := []router.Candidate{retry, backup} // the fast path's order, by relevance × strength
	fmt.Println("untrained:", m.Rerank(migrate, cs)[0].Path)
	for range 10 {
		m.Learn(migrate, backup, true)
		m.Learn(migrate, retry, false)
	}
	fmt.Println("trained:  ", m.Rerank(migrate, cs)[0].Path)
	fmt.Printf("examples:  %d\n", m.Examples())
	// Output:
	// untrained: lessons/retry-flaky-tests.md
	// trained:   lessons/backup-before-migrating.md
	// examples:  20
}
