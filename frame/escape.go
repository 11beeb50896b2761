package frame

import "strings"

// Escape returns note text as it may stand inside the frame, in one pass
// over its lines:
//
//   - "<" is written "&lt;" where it starts a closing tag ("</…", which
//     covers </vaultmem-notes>, </note>, </system-reminder>,
//     </hook_context> and any client's closer, in any case), a comment or
//     declaration ("<!", "<?"), a chat-template token ("<|"), or an
//     opening tag whose name starts like a wrapper a client or vaultmem
//     uses (<system>, <system-reminder>, <note>, <vaultmem-notes>,
//     <user>, <assistant>, <instructions>, …, see reserved);
//   - a line that would be a heading ("# …", "## …", at any indentation)
//     gets a backslash before its first '#', so no note heading is ever a
//     heading of the text around it;
//   - a line that is only '-', '=', '*' or '_' (a rule, or the underline
//     that makes the line above a heading, or a YAML "---") gets a
//     backslash before it too;
//   - a code fence (``` or ~~~, indented at most three spaces) left open
//     at the end is closed, so it cannot swallow what follows;
//   - "\r\n" and a lone "\r" become "\n".
//
// Everything else is kept byte for byte: code, links, JSON quotes and
// backslashes (which the clients' JSON encoding quotes). Escape is
// idempotent: Escape(Escape(s)) == Escape(s).
func Escape(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/64 + 8)
	escapeTo(&b, s)
	return b.String()
}

// escapeTo writes Escape(s) to b.
func escapeTo(b *strings.Builder, s string) {
	var f fenceState
	for n := 0; ; n++ {
		end := strings.IndexAny(s, "\r\n")
		line := s
		if end >= 0 {
			line = s[:end]
		}
		if n > 0 {
			b.WriteByte('\n')
		}
		escapeLine(b, line, &f)
		if end < 0 {
			break
		}
		next := end + 1
		if s[end] == '\r' && next < len(s) && s[next] == '\n' {
			next++ // "\r\n" is one break
		}
		s = s[next:]
	}
	if f.char != 0 {
		b.WriteByte('\n')
		for range f.n {
			b.WriteByte(f.char)
		}
	}
}

// fenceState is the code fence open at a line: its character ('`' or
// '~') and length; char 0 when none is open.
type fenceState struct {
	char byte
	n    int
}

// escapeLine writes one line (no line break in it) escaped, and follows
// the code fences it opens and closes.
func escapeLine(b *strings.Builder, line string, f *fenceState) {
	ind := 0
	for ind < len(line) && (line[ind] == ' ' || line[ind] == '\t') {
		ind++
	}
	body := line[ind:]
	b.WriteString(line[:ind])
	switch c, run := fenceRun(body); {
	case run >= 3 && ind <= 3 && !strings.Contains(line[:ind], "\t"):
		// CommonMark's fences: indented at most three spaces; a closing
		// one is of the opening character, at least as long, and has
		// nothing after it.
		switch {
		case f.char == 0 && (c == '~' || !strings.Contains(body[run:], "`")):
			f.char, f.n = c, run
		case f.char == c && run >= f.n && strings.TrimSpace(body[run:]) == "":
			f.char, f.n = 0, 0
		}
	case heading(body), rule(body):
		b.WriteByte('\\')
	}
	escapeTags(b, body)
}

// fenceRun is the character and length of the run of '`' or '~' that s
// starts with; 0 when it starts with neither.
func fenceRun(s string) (byte, int) {
	if s == "" || s[0] != '`' && s[0] != '~' {
		return 0, 0
	}
	n := 1
	for n < len(s) && s[n] == s[0] {
		n++
	}
	return s[0], n
}

// heading reports whether s, a line without its indentation, would be
// an ATX heading: '#'s then a space, a tab or the end of the line.
func heading(s string) bool {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	return n > 0 && (n == len(s) || s[n] == ' ' || s[n] == '\t')
}

// rule reports whether s, a line without its indentation, is only '-',
// '=', '*' or '_' (and spaces): a thematic break, a setext heading's
// underline, or YAML's document marker.
func rule(s string) bool {
	marks := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '-', '=', '*', '_':
			marks++
		case ' ', '\t':
		default:
			return false
		}
	}
	return marks > 0
}

// escapeTags writes s with each '<' that starts a tag to escape (see
// Escape) written "&lt;".
func escapeTags(b *strings.Builder, s string) {
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i])
		if tagStart(s[i+1:]) {
			b.WriteString("&lt;")
		} else {
			b.WriteByte('<')
		}
		s = s[i+1:]
	}
}

// tagStart reports whether what follows a '<' makes it a tag to escape.
func tagStart(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] {
	case '/', '!', '?', '|':
		return true
	}
	n := 0
	for n < len(s) && n < maxReserved && nameByte(s[n]) {
		n++
	}
	if n == 0 {
		return false
	}
	name := strings.ToLower(s[:n])
	for _, r := range reserved {
		if strings.HasPrefix(name, r) {
			return true
		}
	}
	return false
}

// nameByte reports whether c may be in a tag's name.
func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == ':' || c == '.'
}

// reserved are the starts of the opening tags' names Escape escapes: the
// frame's own (vaultmem-notes, note) and the wrappers agent clients and
// model vendors put around system, developer, user and tool text. A
// generic type in code (List<String>) is left alone.
var reserved = []string{"vaultmem", "note", "system", "hook", "user", "assistant", "human", "developer",
	"instruction", "tool", "function", "antml", "im_", "context", "document", "untrusted", "prompt", "command", "important"}

// maxReserved is the most bytes of a name tagStart reads: enough for
// any prefix in reserved.
const maxReserved = 16
