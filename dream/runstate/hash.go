package runstate

// hashLen is how many hex digits of a note's hash Dream's state files
// keep (its checkpoint, SessionsFile): enough to tell versions apart, few
// enough to keep the files small.
const hashLen = 16

// ShortHash is content hash h (markdown.Hash's) as Dream's state files
// keep it: its first hashLen hex digits.
func ShortHash(h string) string { return h[:min(len(h), hashLen)] }
