package text

import "strings"

// Temporary stand-in while the canonical form is written on branch h-canon.

func Canonical(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

func Same(a, b string) bool { return Canonical(a) == Canonical(b) }

func Contains(whole, part string) bool {
	p := Canonical(part)
	return p != "" && strings.Contains(Canonical(whole), p)
}
