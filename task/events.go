package task

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vaultmem/vaultmem/markdown"
)

// LogHeading is the heading of the section where a task's events are
// appended ("## Log").
const LogHeading = "Log"

// EventTypes are the kinds of events a task's log holds: why a choice was
// made, what was found on the way, what stops the work, what was reached.
var EventTypes = []string{"decision", "note", "blocker", "milestone"}

// EventTimeLayout is how an event's time is written: minutes, local time.
const EventTimeLayout = "2006-01-02 15:04"

// Event is one entry of a task's log: a list item of its "## Log" section,
// "- 2026-11-23 14:02 decision: chose SQLite over bolt because ...", with
// the lines indented under it as the rest of its text.
type Event struct {
	// Time is when it was logged as written ("2026-11-23 14:02"); "" for
	// an item a human wrote in another form.
	Time string `json:"time,omitempty"`
	// Type is one of EventTypes; "" for an item in another form.
	Type string `json:"type,omitempty"`
	// Text is what was logged: the item's first line after the type, then
	// its other lines with their indentation removed.
	Text string `json:"text"`
	// Line and EndLine are the item's first and last lines (1-based).
	Line    int `json:"line"`
	EndLine int `json:"-"`
}

// Date is the day of the event ("2026-11-23"), "" when it has no time.
func (e Event) Date() string {
	if len(e.Time) < len(time.DateOnly) {
		return ""
	}
	return e.Time[:len(time.DateOnly)]
}

// eventRe matches the first line of an event as FormatEvent writes it.
var eventRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-*+] (\d{4}-\d{2}-\d{2} \d{2}:\d{2}) ([A-Za-z]+): ?(.*)$`)
})

// IsEventType reports whether t is one of EventTypes.
func IsEventType(t string) bool { return slices.Contains(EventTypes, t) }

// FormatEvent is the log line of an event of type typ logged at t: text's
// first line after the time and type, its other lines indented two spaces
// under it (blank lines kept blank), so that the whole stays one list
// item. text must not be empty.
func FormatEvent(t time.Time, typ, text string) string {
	text = strings.TrimRight(strings.ReplaceAll(text, "\r\n", "\n"), " \t\n")
	text = strings.TrimLeft(text, "\n")
	lines := strings.Split(text, "\n")
	var b strings.Builder
	fmt.Fprintf(&b, "- %s %s: %s", t.Format(EventTimeLayout), typ, strings.TrimSpace(lines[0]))
	for _, l := range lines[1:] {
		b.WriteByte('\n')
		if strings.TrimSpace(l) != "" {
			b.WriteString("  " + strings.TrimRight(l, " \t"))
		}
	}
	return b.String()
}

// LogEvents returns the events of n's "## Log" section, in the order they
// are written; nil when it has none. Every list item of the section is an
// event; one not in FormatEvent's form has no Time or Type. What is no
// list (a human's paragraph, a code block) is left out.
func Events(n *markdown.Note) []Event {
	_, start, end, ok := markdown.FindSection(n, LogHeading)
	if !ok {
		return nil
	}
	var out []Event
	var cur *Event
	var rest []string // cur's later lines
	flush := func() {
		if cur == nil {
			return
		}
		for len(rest) > 0 && strings.TrimSpace(rest[len(rest)-1]) == "" {
			rest = rest[:len(rest)-1]
		}
		cur.EndLine = cur.Line + len(rest)
		if len(rest) > 0 {
			cur.Text += "\n" + dedent(rest)
		}
		out = append(out, *cur)
		cur, rest = nil, nil
	}
	for _, s := range n.Spans {
		if s.Start < start || s.Start >= end {
			continue
		}
		if s.Kind != "list" { // a paragraph, code: not the log's
			flush()
			continue
		}
		line := s.Line
		for i := s.Start; i < s.End; line++ {
			j := bytes.IndexByte(n.Content[i:s.End], '\n')
			next := s.End
			if j >= 0 {
				next = i + j + 1
			}
			l := strings.TrimRight(string(n.Content[i:next]), "\r\n")
			i = next
			switch {
			case isItem(l):
				flush()
				cur = &Event{Line: line}
				if m := eventRe().FindStringSubmatch(l); m != nil && IsEventType(strings.ToLower(m[2])) {
					cur.Time, cur.Type, cur.Text = m[1], strings.ToLower(m[2]), m[3]
				} else {
					cur.Text = strings.TrimSpace(l[2:])
				}
			case cur != nil:
				rest = append(rest, l)
			}
		}
	}
	flush()
	return out
}

// TaskDescription is what a task note says it is about: its body before
// the "## Log" section (all of it when there is none), trimmed.
func Description(n *markdown.Note) string {
	body := n.Content[n.BodyStart:]
	if head, _, _, ok := markdown.FindSection(n, LogHeading); ok && head >= n.BodyStart {
		body = n.Content[n.BodyStart:head]
	}
	return strings.TrimSpace(string(body))
}

// isItem reports whether l begins a list item at the left margin.
func isItem(l string) bool {
	return len(l) >= 2 && (l[0] == '-' || l[0] == '*' || l[0] == '+') && (l[1] == ' ' || l[1] == '\t')
}

// dedent removes from lines the indentation they all share (blank lines
// aside) and joins them.
func dedent(lines []string) string {
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if common < 0 || n < common {
			common = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) >= common && common > 0 {
			out[i] = l[common:]
		} else {
			out[i] = strings.TrimSpace(l)
		}
	}
	return strings.Join(out, "\n")
}
