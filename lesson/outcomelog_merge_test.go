package lesson_test

import (
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/vault"
)

// TestOutcomeLogReadThroughConflictMarkers: an outcome log two machines
// appended to, merged by a clone without the union attribute, holds both
// sides' lines between git's markers; it reads as both sides' records.
func TestOutcomeLogReadThroughConflictMarkers(t *testing.T) {
	f := newFixture(t)
	rec := func(ctx string) string {
		return `{"time":"2026-03-01T10:00:00Z","lesson":"lessons/a.md","outcome":"success","context":"` + ctx + `"}` + "\n"
	}
	f.write(vault.StateDir+"/"+lesson.LogFile, rec("base")+"<<<<<<< ours\n"+rec("ours")+"=======\n"+rec("theirs")+">>>>>>> theirs\n")
	recs, err := f.s.ReadLog()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.Context)
	}
	if strings.Join(got, " ") != "base ours theirs" {
		t.Errorf("records %q, want base, ours and theirs", got)
	}
}
