package memory

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRenderFailingLesson: a lesson that keeps failing is listed under
// "Needs review" after the pairs, linked as the other lines link, with its
// record clipped to the line's limit; the merge of MEMORY.md drops its
// line (the outcome log lists it again at the next write).
func TestRenderFailingLesson(t *testing.T) {
	entries := []Entry{{Path: "memory/a.md", Type: Feedback, Title: "A"}, {Path: "memory/b.md", Type: Feedback, Title: "B"}}
	reviews := []Review{
		{A: Entry{Path: "lessons/Run migrations first.md", Title: "Run migrations first"}, Lesson: true,
			Reason: "3 in a row since 2026-11-29, 0 of 3 outcomes succeeded, strength 0.2"},
		{A: entries[0], B: entries[1], Reason: "they disagree"},
		{A: Entry{Path: "lessons/x.md", Title: strings.Repeat("long title ", 10)}, Lesson: true, Reason: strings.Repeat("a long record ", 20)},
	}
	out, _, err := Render("MEMORY.md", nil, entries, reviews)
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	_, section, _ := strings.Cut(text, "## Needs review\n\n")
	lines := strings.Split(section, "\n")
	if !strings.HasPrefix(lines[0], "- [A](memory/a.md) and [B](memory/b.md)") ||
		lines[1] != "- [Run migrations first](lessons/Run%20migrations%20first.md) keeps failing: 3 in a row since 2026-11-29, 0 of 3 outcomes succeeded, strength 0.2" ||
		!strings.HasPrefix(lines[2], "- [long title long title") || !strings.HasSuffix(lines[2], "…") {
		t.Fatalf("Needs review:\n%s", section)
	}
	if n := utf8.RuneCountInString(lines[2]); n > MaxLineChars {
		t.Errorf("a line of %d characters, over %d", n, MaxLineChars)
	}
	other, _, err := Render("MEMORY.md", nil, entries, reviews[1:2])
	if err != nil {
		t.Fatal(err)
	}
	merged, err := MergeList("MEMORY.md", nil, out, other, nil)
	if err != nil || strings.Contains(string(merged), "keeps failing") || !strings.Contains(string(merged), "they disagree") {
		t.Errorf("merged (%v):\n%s", err, merged)
	}
}
