package vaultinit

import (
	"strings"
	"testing"
)

// TestGitattributesQuoting: a folder name with spaces is written as git
// reads a quoted pattern; one without, as it is.
func TestGitattributesQuoting(t *testing.T) {
	lines := gitattributesLines("my notes", "tasks", "教训 一", "logs/dream log.md")
	var got []string
	for _, l := range lines {
		got = append(got, l.line)
	}
	for _, want := range []string{`"/my notes/**" merge=vaultmem-note`, "/tasks/** merge=vaultmem-note", `"/教训 一/**" merge=vaultmem-note`,
		`"/logs/dream log.md" merge=union`} {
		if !strings.Contains(strings.Join(got, "\n"), want) {
			t.Errorf("no line %q in:\n%s", want, strings.Join(got, "\n"))
		}
	}
}
