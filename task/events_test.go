package task

import (
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/markdown"
)

func TestEvents(t *testing.T) {
	note := "---\ntype: task\n---\nBuild it.\n\n## Log\n\n" +
		"- 2026-11-23 14:02 decision: chose SQLite over bolt\n  because of FTS5\n\n  and the tooling\n" +
		"- 2026-11-23 15:00 Milestone: parser done\n" +
		"- a human's line\n  with more\n\n" +
		"Not an item.\n" +
		"- 2026-11-24 09:00 opinion: not a type\n" +
		"```\n- 2026-11-24 09:00 note: inside code\n```\n" +
		"## After\n- 2026-11-25 10:00 note: another section\n"
	got := Events(markdown.Parse("t.md", []byte(note)))
	want := []Event{
		{Time: "2026-11-23 14:02", Type: "decision", Text: "chose SQLite over bolt\nbecause of FTS5\n\nand the tooling", Line: 8, EndLine: 11},
		{Time: "2026-11-23 15:00", Type: "milestone", Text: "parser done", Line: 12, EndLine: 12},
		{Text: "a human's line\nwith more", Line: 13, EndLine: 14},
		{Text: "2026-11-24 09:00 opinion: not a type", Line: 17, EndLine: 17},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events:\n got %+v\nwant %+v", got, want)
	}
	if got[0].Date() != "2026-11-23" || got[2].Date() != "" {
		t.Errorf("dates %q %q", got[0].Date(), got[2].Date())
	}
	if Events(markdown.Parse("t.md", []byte("no log\n"))) != nil {
		t.Error("a note without a Log section has events")
	}
}

func TestFormatEvent(t *testing.T) {
	at := time.Date(2026, 11, 23, 14, 2, 59, 0, time.UTC)
	for _, c := range []struct{ text, want string }{
		{"chose X", "- 2026-11-23 14:02 note: chose X"},
		{"  first\r\nsecond  \n\n\tthird\n\n", "- 2026-11-23 14:02 note: first\n  second\n\n  \tthird"},
		{"\n\nlate start", "- 2026-11-23 14:02 note: late start"},
	} {
		if got := FormatEvent(at, "note", c.text); got != c.want {
			t.Errorf("FormatEvent(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// FuzzEventRoundTrip: an event appended to a note's log reads back as one
// event with the text given (its lines trimmed as FormatEvent writes
// them), whatever the text, and every earlier event is unchanged.
func FuzzEventRoundTrip(f *testing.F) {
	for _, s := range []string{"chose X", "a\n\nb", "- 2026-01-01 10:00 note: nested\n- item", "```\ncode\n```", "## heading", "\tx\n  y", "line\r\nline"} {
		f.Add(s)
	}
	at := time.Date(2026, 11, 23, 14, 2, 0, 0, time.UTC)
	base := "---\ntype: task\n---\nDo it.\n\n## Log\n\n- 2026-11-22 10:00 note: first\n"
	f.Fuzz(func(t *testing.T, text string) {
		// "%%" opens an Obsidian comment, which is not text of the note.
		if !utf8.ValidString(text) || strings.ContainsAny(text, "\x00\r") || strings.Contains(text, "%%") || strings.TrimSpace(text) == "" {
			return
		}
		// What FormatEvent keeps: lines right-trimmed, the first trimmed,
		// leading and trailing blank lines dropped.
		lines := strings.Split(strings.Trim(strings.TrimRight(text, " \t\n"), "\n"), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " \t")
		}
		lines[0] = strings.TrimSpace(lines[0])
		if strings.ContainsAny(lines[0], "\n") || strings.HasPrefix(lines[0], "#") {
			return
		}
		content := markdown.AppendToSection([]byte(base), LogHeading, FormatEvent(at, "decision", text))
		ev := Events(markdown.Parse("t.md", content))
		if len(ev) != 2 || ev[0].Text != "first" {
			t.Fatalf("text %q: events %+v in\n%s", text, ev, content)
		}
		if ev[1].Type != "decision" || ev[1].Time != "2026-11-23 14:02" {
			t.Fatalf("text %q: event %+v", text, ev[1])
		}
		if strings.Join(strings.Fields(ev[1].Text), " ") != strings.Join(strings.Fields(strings.Join(lines, "\n")), " ") {
			t.Fatalf("text %q read back as %q", text, ev[1].Text)
		}
	})
}
