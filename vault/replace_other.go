//go:build !windows

package vault

import "github.com/google/renameio/v2"

// atomicWrite puts content at abs through a synced temp file in tmpDir
// renamed over abs, so that a reader (or a watcher) sees the old file or
// the new one, never a part.
func atomicWrite(abs string, content []byte, tmpDir string) error {
	return renameio.WriteFile(abs, content, 0o644, renameio.WithTempDir(tmpDir))
}
