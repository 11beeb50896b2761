//go:build !unix

package vectors

import "os"

// MapFile reads the file at p: mapping it is left to Unix systems.
func MapFile(p string) ([]byte, func() error, error) {
	b, err := os.ReadFile(p)
	return b, func() error { return nil }, err
}
