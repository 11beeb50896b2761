package similar

import (
	"strings"
	"unicode"
)

// NormName is a name with case, spacing (spaces, "-" and "_" alike) and
// closing punctuation ignored: "Package manager", "package_manager." and
// "PACKAGE-MANAGER" are one name, "C++ style" and "C style" two. Dream
// finds memories of one name so, and a proposal may not take a name known
// so.
func NormName(s string) string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return unicode.IsSpace(r) || r == '-' || r == '_' })
	return strings.TrimRight(strings.Join(words, " "), ".,;:!?")
}
