//go:build !unix

package vault

import "io/fs"

// unsafeOwner is "" here: Windows has no owner and mode bits to check as
// git does on Unix, so the check is skipped.
func unsafeOwner(fs.FileInfo) string { return "" }

// fileUser is "" here: no owner to name.
func fileUser(fs.FileInfo) string { return "" }
