package vault_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/vault"
)

func TestCleanPath(t *testing.T) {
	long := strings.Repeat("a", 252) // + ".md" = 255 bytes
	tests := []struct {
		in, want string
		reason   string // substring of the PathError reason; "" when valid
	}{
		{in: "note", want: "note.md"},
		{in: "note.md", want: "note.md"},
		{in: "memory/User prefers pnpm.md", want: "memory/User prefers pnpm.md"},
		{in: "memory/User prefers pnpm", want: "memory/User prefers pnpm.md"},
		{in: "./a//b/c", want: "a/b/c.md"},
		{in: "a/./b.md", want: "a/b.md"},
		{in: "日本語/メモ", want: "日本語/メモ.md"},
		{in: "Note.MD", want: "Note.MD"},
		{in: "Meeting 2024.01.05", want: "Meeting 2024.01.05.md"},
		{in: "Dr. Who", want: "Dr. Who.md"},
		{in: "node.js.md", want: "node.js.md"},
		{in: "con-notes/conference", want: "con-notes/conference.md"},
		{in: "a:b", reason: "contains ':'"},
		{in: long, want: long + ".md"},

		{in: "", reason: "is empty"},
		{in: "../x.md", reason: "contains '..'"},
		{in: "a/../../x.md", reason: "contains '..'"},
		{in: "a/../b.md", reason: "contains '..'"},
		{in: "..", reason: "contains '..'"},
		{in: "/etc/x.md", reason: "is absolute"},
		{in: "\\x.md", reason: "is absolute"},
		{in: `C:\x.md`, reason: "absolute Windows path"},
		{in: "C:/x.md", reason: "absolute Windows path"},
		{in: "c:", reason: "absolute Windows path"},
		{in: `a\b.md`, reason: "backslash"},
		{in: "a\x00b.md", reason: "NUL"},
		{in: "a\nb.md", reason: "control character"},
		{in: "a\u2028b.md", reason: "control character"},
		{in: "a\x7fb.md", reason: "control character"},
		{in: "\xff.md", reason: "UTF-8"},
		{in: ".obsidian/x.md", reason: "inside the dot-folder .obsidian"},
		{in: "a/.git/x.md", reason: "inside the dot-folder .git"},
		{in: ".vaultmem/state/x", reason: "inside the dot-folder .vaultmem"},
		{in: ".trash/x.md", reason: "inside the dot-folder .trash"},
		{in: ".hidden.md", reason: "hidden file"},
		{in: "a/.md", reason: "hidden file"},
		{in: ".", reason: "names no file"},
		{in: "a/", reason: "names a folder"},
		{in: strings.Repeat("a", 253), reason: "longer than 255 bytes"},
		{in: strings.Repeat("a", 256) + "/b.md", reason: "longer than 255 bytes"},
		{in: strings.Repeat("abcdefgh/", 114) + "x", reason: "longer than 1024 bytes"},
		{in: "CON", reason: "reserved on Windows"},
		{in: "con.md", reason: "reserved on Windows"},
		{in: "a/Nul.txt.md", reason: "reserved on Windows"},
		{in: "com1/x.md", reason: "reserved on Windows"},
		{in: "LPT9.md", reason: "reserved on Windows"},
		{in: "aux /x.md", reason: "ends in a space"},
		{in: "note.", reason: "ends in a space or '.'"},
		{in: "folder./x.md", reason: "ends in a space or '.'"},
		{in: "a*b.md", reason: "contains '*'"},
		{in: `a"b.md`, reason: `contains '"'`},
		{in: "a<b>.md", reason: "contains '<'"},
		{in: "a|b.md", reason: "contains '|'"},
		{in: "what?.md", reason: "contains '?'"},
		{in: "C#.md", reason: "contains '#'"},
		{in: "a^b.md", reason: "contains '^'"},
		{in: "[[x]].md", reason: "contains '['"},
		{in: "photo.png", reason: "has the extension .png"},
		{in: "board.canvas", reason: "has the extension .canvas"},
		{in: "node.js", reason: "has the extension .js"},
	}
	for _, tt := range tests {
		got, err := vault.CleanPath(tt.in)
		if tt.reason == "" {
			if err != nil || got != tt.want {
				t.Errorf("CleanPath(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
			continue
		}
		var pe *vault.PathError
		if !errors.As(err, &pe) || !errors.Is(err, vault.ErrInvalidPath) {
			t.Errorf("CleanPath(%q) = %q, %v; want a *PathError", tt.in, got, err)
			continue
		}
		if !strings.Contains(pe.Reason, tt.reason) || pe.Path != tt.in {
			t.Errorf("CleanPath(%q): got %q, want a reason with %q", tt.in, err, tt.reason)
		}
	}
}

func TestSafeName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"User prefers pnpm", "user-prefers-pnpm"},
		{"../../etc/passwd", "etc-passwd"},
		{"日本語のメモ", "日本語のメモ"},
		{"a/b:c", "a-b-c"},
		{"  Hello,   World!  ", "hello-world"},
		{"C# vs. F#", "c-vs-f"},
		{"v1.2 release", "v1-2-release"},
		{".obsidian", "obsidian"},
		{"...dots...", "dots"},
		{"[[Wiki Link]]", "wiki-link"},
		{"Ünïcödé Straße", "ünïcödé-straße"},
		{"हिन्दी नोट", "हिन्दी-नोट"},
		{"emoji 🎉 party", "emoji-party"},
		{"tab\tand\nnewline", "tab-and-newline"},
		{"a\x00b", "a-b"},
		{"bad \xff utf8", "bad-utf8"},
		{"CON", "con-"},
		{"nul", "nul-"},
		{"com1", "com1-"},
		{"console", "console"},
		{strings.Repeat("ab ", 60), strings.Repeat("ab-", 33) + "a"}, // cut at 100 bytes
		{strings.Repeat("語", 40), strings.Repeat("語", 33)},           // 3 bytes each: 99 of 100
	}
	for _, tt := range tests {
		got, err := vault.SafeName(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("SafeName(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
		if _, err := vault.CleanPath(got); err != nil {
			t.Errorf("CleanPath(SafeName(%q)): %v", tt.in, err)
		}
	}
	for _, in := range []string{"", "   ", "../..", "!!!", "🎉", "\xff\xfe"} {
		got, err := vault.SafeName(in)
		var pe *vault.PathError
		if !errors.As(err, &pe) || !errors.Is(err, vault.ErrInvalidPath) {
			t.Errorf("SafeName(%q) = %q, %v; want a *PathError", in, got, err)
		}
	}
}

func FuzzSafeName(f *testing.F) {
	for _, s := range []string{"User prefers pnpm", "../../etc/passwd", "日本語のメモ", "a/b:c", "CON", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got, err := vault.SafeName(name)
		if err != nil {
			if !errors.Is(err, vault.ErrInvalidPath) {
				t.Fatalf("SafeName(%q): %v", name, err)
			}
			return
		}
		if len(got) > 101 { // 100 bytes, plus the '-' a reserved name gets
			t.Fatalf("SafeName(%q) = %q: %d bytes", name, got, len(got))
		}
		clean, err := vault.CleanPath(got)
		if err != nil || clean != got+".md" {
			t.Fatalf("CleanPath(SafeName(%q) = %q) = %q, %v", name, got, clean, err)
		}
		if again, err := vault.SafeName(got); err != nil || again != got {
			t.Fatalf("SafeName(SafeName(%q) = %q) = %q, %v", name, got, again, err)
		}
	})
}
