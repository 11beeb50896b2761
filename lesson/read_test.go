package lesson_test

import (
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/markdown"
)

func TestReadLesson(t *testing.T) {
	for _, tt := range []struct {
		name, content string
		strength      float64
		trigger       []string
		problems      []string // keys with a problem
	}{
		{"defaults", "---\ntype: lesson\ntrigger: deploy\n---\n", 0.5, []string{"deploy"}, nil},
		{"list trigger", "---\ntype: lesson\ntrigger: [deploy, \"tool:Bash\", \"db/**\"]\nstrength: 0.8\n---\n", 0.8, []string{"deploy", "tool:Bash", "db/**"}, nil},
		{"no trigger", "---\ntype: lesson\nstrength: 0.8\n---\n", 0.8, nil, []string{"trigger"}},
		{"words for a strength", "---\ntype: lesson\ntrigger: x\nstrength: high\n---\n", 0.5, []string{"x"}, []string{"strength"}},
		{"strength over 1", "---\ntype: lesson\ntrigger: x\nstrength: 1.5\n---\n", 0.5, []string{"x"}, []string{"strength"}},
		{"NaN", "---\ntype: lesson\ntrigger: x\nstrength: .nan\n---\n", 0.5, []string{"x"}, []string{"strength"}},
		{"bad count", "---\ntype: lesson\ntrigger: x\napplication_count: -3\n---\n", 0.5, []string{"x"}, []string{"application_count"}},
	} {
		l := lesson.Read(markdown.Parse("l.md", []byte(tt.content)))
		var keys []string
		for _, p := range l.Problems {
			keys = append(keys, p.Key)
			if p.Key != "trigger" && p.Line == 0 {
				t.Errorf("%s: problem %q without a line", tt.name, p.Message)
			}
		}
		if l.Strength != tt.strength || strings.Join(l.Trigger, ",") != strings.Join(tt.trigger, ",") || strings.Join(keys, ",") != strings.Join(tt.problems, ",") {
			t.Errorf("%s: strength %v trigger %v problems %v; want %v %v %v", tt.name, l.Strength, l.Trigger, keys, tt.strength, tt.trigger, tt.problems)
		}
	}
}

// FuzzReadLesson: any note reads as a lesson without panicking, with a
// strength and confidence in 0..1.
func FuzzReadLesson(f *testing.F) {
	f.Add("---\ntype: lesson\ntrigger: deploy\nstrength: 0.7\n---\nBody\n\n## History\n\n- x\n")
	f.Add("---\ntrigger: [a, [b]]\nstrength: [1]\nconfidence: -1\n---\n")
	f.Fuzz(func(t *testing.T, s string) {
		n := markdown.Parse("l.md", []byte(s))
		l := lesson.Read(n)
		if l.Strength < 0 || l.Strength > 1 || l.Confidence < 0 || l.Confidence > 1 || l.Applications < 0 {
			t.Fatalf("%q: %+v", s, l)
		}
		lesson.TextOf(n)
	})
}
