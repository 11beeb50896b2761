package markdown

import (
	"bytes"
	"strings"
)

// AppendToSection returns content with text appended at the end of the
// section under the heading named heading ("Log" for "## Log"; matched
// case-insensitively, at any level), after the section's last line that is
// not blank: the lines of a task's log, a lesson's history. Every other
// byte of content is kept, so two machines appending to the same note
// merge in git without a conflict in the common case (each adds lines at
// the end of the section). When the note has no such heading, the section
// is added at the end of the note as a level-2 heading ("## Log"), after a
// blank line. A heading inside code, math or HTML is not a heading. The
// note's line endings are kept (CRLF in, CRLF out); text needs no final
// newline.
func AppendToSection(content []byte, heading, text string) []byte {
	crlf := bytes.Contains(content, []byte("\r\n"))
	text = strings.TrimRight(strings.ReplaceAll(text, "\r\n", "\n"), "\n") + "\n"
	if crlf {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	nl := "\n"
	if crlf {
		nl = "\r\n"
	}
	if _, start, end, ok := sectionOf(Parse("section.md", content), heading); ok {
		return appendIn(content, start, end, text, nl)
	}
	out := bytes.TrimRight(content, " \t\r\n")
	if len(out) > 0 {
		out = append(out[:len(out):len(out)], nl+nl...)
	}
	out = append(out, "## "+heading+nl+nl...)
	return append(out, text...)
}

// sectionOf returns where the section under the heading named heading
// (matched case-insensitively, at any level) lies in n's content: the
// heading at head, its body from start (the line after the heading) to end
// (the next heading of its level or above, or the end of the note). A
// heading inside code, math or HTML is no heading.
func sectionOf(n *Note, heading string) (head, start, end int, ok bool) {
	start, level := -1, 0
	for _, s := range n.Spans {
		if s.Kind != "heading" {
			continue
		}
		if start >= 0 && s.Level <= level {
			return head, start, s.Start, true
		}
		if start < 0 && strings.EqualFold(headingText(n.Content[s.Start:s.End]), heading) {
			head, start, level = s.Start, lineEnd(n.Content, s.End), s.Level
		}
	}
	if start >= 0 {
		return head, start, len(n.Content), true
	}
	return 0, 0, 0, false
}

// headingText is an ATX or setext heading's text: its first line without
// the '#' marks and a closing '#' run.
func headingText(h []byte) string {
	line, _, _ := bytes.Cut(h, []byte("\n"))
	s := strings.TrimSpace(strings.TrimRight(string(line), "\r"))
	s = strings.TrimSpace(strings.TrimLeft(s, "#"))
	if t := strings.TrimRight(s, "#"); t != s && (t == "" || strings.HasSuffix(t, " ")) {
		s = strings.TrimSpace(t)
	}
	return s
}

// lastText returns the offset just after the last line of content[from:to]
// that is not blank (from itself when all are blank), including that
// line's line break.
func lastText(content []byte, from, to int) int {
	end := from
	for i := from; i < to; {
		j := bytes.IndexByte(content[i:to], '\n')
		next := to
		if j >= 0 {
			next = i + j + 1
		}
		if len(bytes.TrimSpace(content[i:next])) > 0 {
			end = next
		}
		i = next
	}
	return end
}

// lineEnd returns the offset after the line break of the line holding
// offset i (len(content) on the last line).
func lineEnd(content []byte, i int) int {
	if j := bytes.IndexByte(content[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(content)
}

// appendIn puts text after the last line that is not blank of the section
// body content[from:to]; in a section with none, after a blank line under
// its heading.
func appendIn(content []byte, from, to int, text, nl string) []byte {
	at := lastText(content, from, to)
	out := make([]byte, 0, len(content)+len(text)+2*len(nl))
	out = append(out, content[:at]...)
	if at > 0 && content[at-1] != '\n' {
		out = append(out, nl...)
	}
	if at == from {
		out = append(out, nl...)
	}
	out = append(out, text...)
	return append(out, content[at:]...)
}

// Section returns the text of the section under the heading named heading
// (matched as AppendToSection matches it), without the heading line; ok is
// false when n has no such section.
func Section(n *Note, heading string) (string, bool) {
	_, start, end, ok := sectionOf(n, heading)
	if !ok {
		return "", false
	}
	return string(n.Content[start:end]), true
}

// FindSection finds the section under the heading named heading (matched
// as AppendToSection matches it): the offsets in n.Content of its heading
// line, of its first line after the heading and of its end; ok is false
// when n has no such section.
func FindSection(n *Note, heading string) (head, start, end int, ok bool) {
	return sectionOf(n, heading)
}

// WithoutSection returns n's body without the section under the heading
// named heading (its heading line included), trimmed: the body as it reads
// without a log a section keeps.
func WithoutSection(n *Note, heading string) string {
	body := string(n.Body())
	if head, _, end, ok := sectionOf(n, heading); ok {
		body = string(n.Content[n.BodyStart:head]) + string(n.Content[end:])
	}
	return strings.TrimSpace(body)
}
