//go:build !unix

package vault

import "io/fs"

// nonBlock is 0 here: the flag is a Unix one.
const nonBlock = 0

// otherNames is false here: the link count is not known.
func otherNames(fs.FileInfo) bool { return false }
