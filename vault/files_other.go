//go:build !linux

package vault

import "context"

// listFast would be Files for the vault folder dir by a faster way than
// io/fs; there is none here.
var listFast func(ctx context.Context, dir string) ([]File, error)
