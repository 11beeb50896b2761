package index

import (
	"context"
	"database/sql"
	"sync"
)

// statements are the statements of constant SQL an Index has prepared so
// far, kept for its life: a resident index's recall ran a dozen
// statements, and preparing each every time cost more than some of them
// took to run.
type statements struct {
	db *sql.DB
	// mu guards m (the Index's mu may be held while a statement is used).
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// prepared returns the statement of query, which must be constant SQL,
// preparing it on first use.
func (s *statements) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.m[query]; ok {
		return st, nil
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if s.m == nil {
		s.m = map[string]*sql.Stmt{}
	}
	s.m[query] = st
	return st, nil
}

// close closes the prepared statements.
func (s *statements) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range s.m {
		st.Close()
	}
	s.m = nil
}

// use prepares the statements from now on on db (the index's database
// after a rebuild opened it again); close first forgets the old ones.
func (s *statements) use(db *sql.DB) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.db = db
}
