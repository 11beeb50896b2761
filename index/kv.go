package index

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Get returns the value stored under key by Put, unless it expired.
// Callers keep small derived facts in the cache this way (recall keeps
// its intent classifications); like everything in the cache, they may
// vanish at any time.
func (ca *Cache) Get(ctx context.Context, key string) (string, bool) {
	var v string
	err := ca.ix.db.QueryRowContext(ctx, "SELECT value FROM kv WHERE key = ? AND expires > ?", key, time.Now().Unix()).Scan(&v)
	return v, err == nil
}

// Put stores value under key for ttl. It fails on a read-only cache.
func (ca *Cache) Put(ctx context.Context, key, value string, ttl time.Duration) error {
	_, err := ca.ix.db.ExecContext(ctx, `INSERT INTO kv(key, value, expires) VALUES(?, ?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires = excluded.expires`,
		key, value, time.Now().Add(ttl).Unix())
	if err != nil {
		return fmt.Errorf("cache %s in %s: %w", strings.SplitN(key, ":", 2)[0], ca.ix.path, err)
	}
	return nil
}
