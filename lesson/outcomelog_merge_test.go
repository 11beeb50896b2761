package lesson_test

import (
	"strings"
	"testing"
	"time"

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

// TestLogName: a person's month of outcomes is a file of its own, its name
// safe whatever the person is called.
func TestLogName(t *testing.T) {
	nov := time.Date(2026, 11, 30, 23, 30, 0, 0, time.FixedZone("x", -3600)) // December in UTC
	for _, tt := range []struct{ person, want string }{
		{"ann@example.com", "lessons/outcomes/ann@example.com/2026-12.jsonl"},
		{"", "lessons/outcomes/default/2026-12.jsonl"},
		{"../../etc", "lessons/outcomes/etc/2026-12.jsonl"},
		{"Ann Smith <ann@x.io>", "lessons/outcomes/Ann-Smith--ann@x.io/2026-12.jsonl"},
		{"..", "lessons/outcomes/default/2026-12.jsonl"},
	} {
		if got := lesson.LogName(tt.person, nov); got != tt.want {
			t.Errorf("LogName(%q) = %q, want %q", tt.person, got, tt.want)
		}
	}
}

// TestReadLogAcrossFiles: the outcome log is every person's months and an
// older vault's single file, read as one, oldest first.
func TestReadLogAcrossFiles(t *testing.T) {
	f := newFixture(t)
	rec := func(at, ctx string) string {
		return `{"time":"` + at + `","lesson":"lessons/a.md","outcome":"success","context":"` + ctx + `"}` + "\n"
	}
	f.write(vault.StateDir+"/"+lesson.LogFile, rec("2026-10-01T10:00:00Z", "old")+rec("2026-11-02T10:00:00Z", "old later"))
	f.write(vault.StateDir+"/lessons/outcomes/ann@example.com/2026-11.jsonl", rec("2026-11-01T10:00:00Z", "ann"))
	f.write(vault.StateDir+"/lessons/outcomes/bob@example.com/2026-11.jsonl", rec("2026-11-03T10:00:00Z", "bob"))
	f.write(vault.StateDir+"/lessons/outcomes/bob@example.com/2026-12.jsonl", rec("2026-12-01T10:00:00Z", "bob december"))
	f.write(vault.StateDir+"/lessons/outcomes/README.txt", "not a log\n")
	recs, err := f.s.ReadLog()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.Context)
	}
	if strings.Join(got, ", ") != "old, ann, old later, bob, bob december" {
		t.Errorf("records %q", got)
	}
}
