package markdown_test

import (
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

func TestAppendToSection(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"section with lines", "# Task\n\nDo it.\n\n## Log\n\n- one\n- two\n", "# Task\n\nDo it.\n\n## Log\n\n- one\n- two\n- new\n"},
		{"section then another", "## Log\n\n- one\n\n## Notes\n\nx\n", "## Log\n\n- one\n- new\n\n## Notes\n\nx\n"},
		{"next heading right after", "## Log\n- one\n## Notes\n", "## Log\n- one\n- new\n## Notes\n"},
		{"empty section", "# T\n\n## Log\n\n## Notes\n", "# T\n\n## Log\n\n- new\n\n## Notes\n"},
		{"empty section at end", "# T\n\n## Log\n", "# T\n\n## Log\n\n- new\n"},
		{"no section", "# T\n\nBody.\n", "# T\n\nBody.\n\n## Log\n\n- new\n"},
		{"no section, no final newline", "Body.", "Body.\n\n## Log\n\n- new\n"},
		{"empty note", "", "## Log\n\n- new\n"},
		{"last line without newline", "## Log\n\n- one", "## Log\n\n- one\n- new\n"},
		{"subsection stays inside", "## Log\n\n- one\n\n### Detail\n\nd\n\n## Next\n", "## Log\n\n- one\n\n### Detail\n\nd\n- new\n\n## Next\n"},
		{"case-insensitive, any level", "# LOG\n\n- one\n", "# LOG\n\n- one\n- new\n"},
		{"heading in code is not one", "```\n## Log\n```\n", "```\n## Log\n```\n\n## Log\n\n- new\n"},
		{"CRLF kept", "## Log\r\n\r\n- one\r\n", "## Log\r\n\r\n- one\r\n- new\r\n"},
		{"frontmatter kept", "---\ntype: task\n---\n## Log\n- one\n", "---\ntype: task\n---\n## Log\n- one\n- new\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(markdown.AppendToSection([]byte(tc.in), "Log", "- new"))
			if got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
			// Nothing of the note is lost or changed: its bytes are a
			// subsequence of the result.
			if !subsequence(tc.in, got) {
				t.Errorf("the result drops or changes bytes of the note")
			}
		})
	}
	// Multi-line text is appended whole.
	got := string(markdown.AppendToSection([]byte("## Log\n- a\n"), "Log", "- b\n  more\n"))
	if got != "## Log\n- a\n- b\n  more\n" {
		t.Errorf("multi-line: %q", got)
	}
}

// subsequence reports whether a's bytes appear in b in order.
func subsequence(a, b string) bool {
	i := 0
	for j := 0; i < len(a) && j < len(b); j++ {
		if a[i] == b[j] {
			i++
		}
	}
	return i == len(a)
}
