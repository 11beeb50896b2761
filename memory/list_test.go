package memory_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
)

var someEntries = []memory.Entry{
	{Path: "memory/user_role.md", Type: memory.User, Title: "User role", Hook: "senior Go engineer, prefers terse answers", Date: "2026-01-02"},
	{Path: "memory/feedback_testing.md", Type: memory.Feedback, Title: "Testing feedback", Hook: "integration tests hit a real database"},
	{Path: "memory/project_freeze.md", Type: memory.Project, Title: "Release freeze", Hook: "merge freeze from 2026-03-05"},
	{Path: "memory/a note (draft).md", Type: memory.Project, Title: "A [draft] note", Hook: ""},
	{Path: "memory/reference_linear.md", Type: memory.Reference, Title: "Bug tracker", Hook: "pipeline bugs live in Linear INGEST"},
}

func TestRenderNew(t *testing.T) {
	out, st, err := memory.Render("MEMORY.md", nil, someEntries, []memory.Review{{A: someEntries[1], B: someEntries[2], Reason: "always vs never"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `# Memory

<!-- vaultmem:memory-index:begin -->
## User

- [User role](memory/user_role.md) — senior Go engineer, prefers terse answers

## Feedback

- [Testing feedback](memory/feedback_testing.md) — integration tests hit a real database

## Project

- [A \[draft\] note](memory/a%20note%20%28draft%29.md)
- [Release freeze](memory/project_freeze.md) — merge freeze from 2026-03-05

## Reference

- [Bug tracker](memory/reference_linear.md) — pipeline bugs live in Linear INGEST

## Needs review

- [Testing feedback](memory/feedback_testing.md) and [Release freeze](memory/project_freeze.md) may contradict each other: always vs never

<!-- vaultmem:memory-index:end -->
`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	if st.Omitted != 0 || st.Lines != strings.Count(want, "\n") || st.Bytes != len(want) {
		t.Errorf("stats %+v", st)
	}
}

// TestRenderKeepsHumanText: text outside the markers keeps every byte, and
// rendering again changes nothing.
func TestRenderKeepsHumanText(t *testing.T) {
	human := "# My memory\r\n\r\nNotes I keep by hand.  \n\n" + memory.Begin + "\nold\n" + memory.End + "\n\nMore by hand.\n"
	out, _, err := memory.Render("MEMORY.md", []byte(human), someEntries, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "# My memory\r\n\r\nNotes I keep by hand.  \n\n"+memory.Begin+"\n") ||
		!strings.HasSuffix(string(out), memory.End+"\n\nMore by hand.\n") || strings.Contains(string(out), "old") {
		t.Errorf("human text changed:\n%q", out)
	}
	again, _, err := memory.Render("MEMORY.md", out, someEntries, nil)
	if err != nil || string(again) != string(out) {
		t.Errorf("a second render changed the file:\n%q\n%q", out, again)
	}
	// Without markers, the region goes after the human text.
	out, _, _ = memory.Render("MEMORY.md", []byte("Hand-made index.\n"), someEntries[:1], nil)
	if !strings.HasPrefix(string(out), "Hand-made index.\n\n"+memory.Begin+"\n") {
		t.Errorf("region not appended:\n%s", out)
	}
}

func TestRenderBadMarkers(t *testing.T) {
	for _, in := range []string{
		"a\n" + memory.Begin + "\nb\n",
		"a\nb\n" + memory.End + "\n",
		"a\n" + memory.End + "\n" + memory.Begin + "\n",
		memory.Begin + "\n" + memory.End + "\n" + memory.Begin + "\n" + memory.End + "\n",
	} {
		_, _, err := memory.Render("MEMORY.md", []byte(in), someEntries, nil)
		var pe *markdown.ParseError
		if !errors.As(err, &pe) || pe.Path != "MEMORY.md" || pe.Line == 0 {
			t.Errorf("%q: %v, want a *markdown.ParseError with the line", in, err)
		}
	}
}

// TestRenderLimits: far more memories than fit leave a file Claude Code
// loads whole, keeping the most important, and saying what was left out.
func TestRenderLimits(t *testing.T) {
	var entries []memory.Entry
	kinds := []memory.Type{memory.User, memory.Feedback, memory.Project, memory.Reference}
	for i := range 400 {
		entries = append(entries, memory.Entry{Path: fmt.Sprintf("memory/m%04d.md", i), Type: kinds[i%4],
			Title: fmt.Sprintf("Memory %d", i), Hook: strings.Repeat("word ", 40), Date: fmt.Sprintf("2026-%02d-%02d", 1+i%12, 1+i%28),
			Pinned: i == 5}) // an old feedback memory
	}
	out, st, err := memory.Render("MEMORY.md", []byte("By hand.\n"), entries, nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) > memory.MaxLines || len(out) > memory.MaxBytes || st.Omitted == 0 || st.Lines != len(lines) {
		t.Fatalf("%d lines, %d bytes, stats %+v", len(lines), len(out), st)
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > memory.MaxLineChars {
			t.Errorf("line of %d characters: %q", n, l)
		}
	}
	s := string(out)
	if !strings.Contains(s, "m0005.md") {
		t.Error("the pinned feedback memory was left out")
	}
	if !strings.Contains(s, "## User") || strings.Count(s, "- [Memory") != len(entries)-st.Omitted {
		t.Errorf("counts: %d listed, %d omitted", strings.Count(s, "- [Memory"), st.Omitted)
	}
	if !strings.Contains(s, fmt.Sprintf("_%d more memories not listed", st.Omitted)) || !strings.Contains(s, "vaultmem list --type TYPE") {
		t.Errorf("no line saying what was left out:\n%s", s[len(s)-300:])
	}
	// Type order first: every user memory is kept while feedback goes, and
	// no reference is kept while a project memory was left out.
	for i := 0; i < 400; i += 4 {
		if !strings.Contains(s, fmt.Sprintf("m%04d.md", i)) {
			t.Fatalf("user memory m%04d left out before the others", i)
		}
	}
	if strings.Contains(s, "## Reference") {
		t.Error("references kept while memories of higher types were left out")
	}
	// Within feedback, the newest are kept.
	var kept, dropped []string
	for i := 1; i < 400; i += 4 {
		if i == 5 {
			continue
		}
		e := entries[i]
		if strings.Contains(s, e.Path) {
			kept = append(kept, e.Date)
		} else {
			dropped = append(dropped, e.Date)
		}
	}
	for _, k := range kept {
		for _, d := range dropped {
			if k < d {
				t.Fatalf("feedback of %s kept, of %s left out", k, d)
			}
		}
	}
}

// TestRenderDeterministic: the same memories in any order give the same
// bytes.
func TestRenderDeterministic(t *testing.T) {
	want, _, _ := memory.Render("MEMORY.md", nil, someEntries, nil)
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		shuffled := append([]memory.Entry(nil), someEntries...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if got, _, _ := memory.Render("MEMORY.md", nil, shuffled, nil); string(got) != string(want) {
			t.Fatalf("order changed the bytes:\n%s", got)
		}
	}
}

func TestLine(t *testing.T) {
	long := memory.Entry{Path: "feedback_testing.md", Type: memory.Feedback, Title: "Testing", Hook: strings.Repeat("integration tests hit a real database ", 10)}
	l := memory.Line(".", long)
	if utf8.RuneCountInString(l) > memory.MaxLineChars || !strings.HasSuffix(l, "…") || strings.HasSuffix(l, " …") {
		t.Errorf("long hook: %q", l)
	}
	if got := memory.Line("memory", memory.Entry{Path: "memory/x.md", Title: "X"}); got != "- [X](x.md)" {
		t.Errorf("relative to the memory folder: %q", got)
	}
	if got := memory.Line("notes", memory.Entry{Path: "memory/x.md", Title: "X"}); got != "- [X](../memory/x.md)" {
		t.Errorf("from another folder: %q", got)
	}
	huge := memory.Entry{Path: "memory/" + strings.Repeat("p", 100) + ".md", Title: strings.Repeat("T", 200), Hook: "h"}
	if l := memory.Line(".", huge); utf8.RuneCountInString(l) > memory.MaxLineChars {
		t.Errorf("long title and path: %d characters", utf8.RuneCountInString(l))
	}
}

// TestRenderKeepsCRLF: text outside the region of a CRLF file keeps its
// bytes, line endings included.
func TestRenderKeepsCRLF(t *testing.T) {
	in := "# Mine\r\n\r\n" + memory.Begin + "\r\nold\r\n" + memory.End + "\r\nAfter text\r\n"
	out, _, err := memory.Render("MEMORY.md", []byte(in), someEntries[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if !strings.HasPrefix(s, "# Mine\r\n\r\n"+memory.Begin) || !strings.HasSuffix(s, memory.End+"\r\nAfter text\r\n") {
		t.Errorf("%q", s)
	}
}

// TestRenderMarkersInCode: markers shown in a fenced block, an indented
// block or inline code are a human's text, kept byte for byte; only those
// on lines of their own outside code bound the region.
func TestRenderMarkersInCode(t *testing.T) {
	example := "# Memory\n\nHow the region looks:\n\n```markdown\n" + memory.Begin + "\n- [X](x.md) — an example\n" + memory.End + "\n```\n\n" +
		"    " + memory.Begin + "\n\nInline: `" + memory.Begin + "` and `" + memory.End + "`.\n\n~~~~\n" + memory.End + "\n~~~~\n\n"
	for _, tt := range []struct {
		name, content, after string
	}{
		{"no real region", example, ""},
		{"a real region after", example + memory.Begin + "\nold\n" + memory.End + "\n\nAfter.\n", "\nAfter.\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, _, err := memory.Render("MEMORY.md", []byte(tt.content), someEntries[:1], nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(out), strings.TrimRight(example, "\n")) {
				t.Errorf("the human's example changed:\n%s", out)
			}
			if !strings.HasSuffix(string(out), memory.End+"\n"+tt.after) || strings.Contains(string(out), "\nold\n") {
				t.Errorf("the region is not where the real markers are:\n%s", out)
			}
			if n := strings.Count(string(out), "[User role](memory/user_role.md)"); n != 1 {
				t.Errorf("%d lists, want 1:\n%s", n, out)
			}
		})
	}
}

// TestRenderReport: the link to Dream's report comes last under "Needs
// review", after the contradictions and the proposals, relative to
// MEMORY.md's folder.
func TestRenderReport(t *testing.T) {
	reviews := []memory.Review{
		{A: memory.Entry{Path: "memory/dream-log.md", Title: memory.ReportTitle}, Report: true},
		memory.ReviewOf(memory.Proposal{Path: "memory/terse.md", Type: "user", Title: "Terse", Source: "s1"}),
		{A: someEntries[1], B: someEntries[2], Reason: "always vs never"},
	}
	out, _, err := memory.Render("notes/MEMORY.md", nil, someEntries, reviews)
	if err != nil {
		t.Fatal(err)
	}
	want := "## Needs review\n\n" +
		"- [Testing feedback](../memory/feedback_testing.md) and [Release freeze](../memory/project_freeze.md) may contradict each other: always vs never\n" +
		"- [Terse](../memory/terse.md) proposed by Dream from [[s1]]: accept by removing status: proposed\n" +
		"- [Dream's report](../memory/dream-log.md): what each Dream run merged, archived, flagged and proposed, and why\n\n" +
		"<!-- vaultmem:memory-index:end -->\n"
	if !strings.HasSuffix(string(out), want) {
		t.Errorf("got\n%s\nwant it to end with\n%s", out, want)
	}
}
