package lesson_test

import (
	"strings"
	"testing"
)

// TestDecayBrokenTrigger: decay never rewrites or archives a lesson whose
// trigger is not words, tool:NAME or a glob (a map, a nested list, an
// empty string) or whose strength is no number in 0..1: it reports it as
// skipped, naming the file and the line at fault, dry run or not. Lessons
// with a trigger of a valid shape decay (and here are archived).
func TestDecayBrokenTrigger(t *testing.T) {
	const p = "lessons/l.md"
	for _, tt := range []struct {
		name, trigger, strength string
		// line is the line of the skipped lesson's fault; 0 when it decays.
		line int
	}{
		{"map", "{a: deploy}", "0.21", 3},
		{"nested list", "[[deploy]]", "0.21", 3},
		{"list of an empty string", `[""]`, "0.21", 3},
		{"empty string", `""`, "0.21", 3},
		{"null", "", "0.21", 3},
		{"strength not a number", "deploy", "high", 4},
		{"word", "deploy", "0.21", 0},
		{"words and a comma", "deploy, release", "0.21", 0},
		{"flow list", `[deploy, "tool:Bash"]`, "0.21", 0},
		{"block list", "\n  - deploy\n  - src/**/*.go", "0.21", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			content := "---\ntype: lesson\ntrigger: " + tt.trigger + "\nstrength: " + tt.strength + "\ncreated: 2026-09-01\n---\n\nBody.\n"
			f.write(p, content)
			f.sync()
			for _, dry := range []bool{true, false} {
				ds, skipped, err := f.s.Decay(f.ctx, "2026-11-23", dry)
				if err != nil {
					t.Fatal(err)
				}
				got := f.read(p)
				if tt.line == 0 {
					if len(ds) != 1 || ds[0].Path != p || !ds[0].Archived || len(skipped) != 0 {
						t.Errorf("dry run %v: decayed %+v, skipped %+v; want %s archived", dry, ds, skipped, p)
					}
					if !dry && !strings.Contains(got, "archived: 2026-10-06\n") {
						t.Errorf("%s was not archived:\n%s", p, got)
					}
					continue
				}
				if got != content {
					t.Errorf("dry run %v: %s was rewritten:\n%s", dry, p, got)
				}
				if len(ds) != 0 {
					t.Errorf("dry run %v: decayed %+v, want none", dry, ds)
				}
				if len(skipped) != 1 || skipped[0].Path != p || skipped[0].Line != tt.line || skipped[0].Reason == "" {
					t.Errorf("dry run %v: skipped %+v, want %s line %d", dry, skipped, p, tt.line)
				}
			}
		})
	}
}
