//go:build !unix

package index

import "os"

// mapFile reads the file at p: mapping it is left to Unix systems.
func mapFile(p string) ([]byte, func() error, error) {
	b, err := os.ReadFile(p)
	return b, func() error { return nil }, err
}
