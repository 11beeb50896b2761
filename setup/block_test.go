package setup

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBlockRoundTrip: the block is appended after one line break (a blank
// line when the text ends with one), or replaced where it is; taking it
// out gives back the text byte for byte.
func TestBlockRoundTrip(t *testing.T) {
	block := "<!-- vaultmem:begin -->\nnew\n<!-- vaultmem:end -->\n"
	tests := []struct{ name, in, want string }{
		{"empty", "", block},
		{"no final line break", "# Rules", "# Rules\n" + block},
		{"final line break", "# Rules\n", "# Rules\n\n" + block},
		{"blank line at the end", "# Rules\n\n", "# Rules\n\n\n" + block},
		{"CRLF", "# Rules\r\nUse pnpm.\r\n", "# Rules\r\nUse pnpm.\r\n\r\n" + strings.ReplaceAll(block, "\n", "\r\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := putBlock("f.md", tt.in, block, mdMarkers)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("put: %q, want %q", got, tt.want)
			}
			again, err := putBlock("f.md", got, block, mdMarkers)
			if err != nil || again != got {
				t.Errorf("put again: %q (%v), want it unchanged", again, err)
			}
			back, err := cutBlock("f.md", got, mdMarkers)
			if err != nil {
				t.Fatal(err)
			}
			if back != tt.in {
				t.Errorf("cut: %q, want %q", back, tt.in)
			}
		})
	}
}

// TestBlockReplacedInPlace: an old block is replaced where it is, the
// text around it kept; the end marker may end the file without a line
// break.
func TestBlockReplacedInPlace(t *testing.T) {
	block := "<!-- vaultmem:begin -->\nnew\n<!-- vaultmem:end -->\n"
	tests := []struct{ in, want string }{
		{"before\n\n<!-- vaultmem:begin -->\nold\nlines\n<!-- vaultmem:end -->\nafter\n",
			"before\n\n" + block + "after\n"},
		{"before\n<!-- vaultmem:begin -->\nold\n  <!-- vaultmem:end -->", "before\n" + strings.TrimSuffix(block, "\n")},
	}
	for _, tt := range tests {
		got, err := putBlock("f.md", tt.in, block, mdMarkers)
		if err != nil || got != tt.want {
			t.Errorf("%q: got %q (%v), want %q", tt.in, got, err, tt.want)
		}
	}
	got, err := cutBlock("f.md", "before\n\n"+block+"after\n", mdMarkers)
	if want := "before\nafter\n"; err != nil || got != want {
		t.Errorf("cut: %q (%v), want %q", got, err, want)
	}
}

// TestBlockMarkerErrors: a marker without its pair, or two blocks, is an
// error naming the file and line.
func TestBlockMarkerErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a\n<!-- vaultmem:begin -->\nb\n", "f.md:2: <!-- vaultmem:begin --> without <!-- vaultmem:end --> after it"},
		{"a\n\n<!-- vaultmem:end -->\n", "f.md:3: <!-- vaultmem:end --> without <!-- vaultmem:begin --> before it"},
		{"<!-- vaultmem:begin -->\n<!-- vaultmem:end -->\n<!-- vaultmem:begin -->\n<!-- vaultmem:end -->\n", "f.md:3: a second <!-- vaultmem:begin -->"},
	}
	for _, tt := range tests {
		for _, op := range []func() (string, error){
			func() (string, error) { return putBlock("f.md", tt.in, "x\n", mdMarkers) },
			func() (string, error) { return cutBlock("f.md", tt.in, mdMarkers) },
		} {
			if _, err := op(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%q: error %v, want %q", tt.in, err, tt.want)
			}
		}
	}
}

// TestShellQuote: a word is left bare when no shell treats its characters
// specially, else single-quoted; shellWords reads back what shellQuote
// writes.
func TestShellQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"vaultmem", "vaultmem"},
		{"/home/u/agent-memory", "/home/u/agent-memory"},
		{"/home/u/my vault", "'/home/u/my vault'"},
		{"/v/100%", "'/v/100%'"},
		{"/v/#1", "'/v/#1'"},
		{"/v/😀", "'/v/😀'"},
		{"/v/it's", `'/v/it'\''s'`},
		{"~/v", "'~/v'"},
		{"/v/$HOME", "'/v/$HOME'"},
		{`C:\Users\u\vault`, `'C:\Users\u\vault'`},
	}
	for _, tt := range tests {
		got := shellQuote(tt.in)
		if got != tt.want {
			t.Errorf("shellQuote(%q) = %s, want %s", tt.in, got, tt.want)
		}
		words, ok := shellWords("vaultmem --vault " + got)
		if !ok || len(words) != 3 || words[2] != tt.in {
			t.Errorf("shellWords(%s) = %q, %v", got, words, ok)
		}
	}
}

// TestIsHookCommand: setup's hooks are told from the user's by the form
// of their command.
func TestIsHookCommand(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		{"vaultmem --vault /v hook --client claude-code", true},
		{"'/opt/my bin/vaultmem' --vault '/v/it'\\''s' hook --client claude-code", true},
		{"vaultmem --vault /v hook --client codex", false},
		{"vaultmem --vault /v --quiet hook --client claude-code", false},
		{"vaultmem hook --client claude-code", false},
		{"~/bin/check.sh && vaultmem --vault /v hook --client claude-code", false},
		{"vaultmem --vault \"/v\" hook --client claude-code", false},
		{"vaultmem --vault /v lesson match --hook", false},
	}
	for _, tt := range tests {
		if got := isHookCommand(tt.cmd, ClaudeCode); got != tt.want {
			t.Errorf("isHookCommand(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

// TestInstructionBlock: the block is short and names only tools the MCP
// server has.
func TestInstructionBlock(t *testing.T) {
	if n := strings.Count(instructionBlock, "\n"); n > 25 {
		t.Errorf("the block has %d lines, more than 25", n)
	}
	var server strings.Builder
	files, _ := filepath.Glob(filepath.Join("..", "mcpserver", "*.go"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		server.Write(b)
	}
	names := regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(instructionBlock, -1)
	notTools := map[string]bool{"vaultmem": true, "user": true, "feedback": true, "project": true, "reference": true}
	for _, m := range names {
		if !notTools[m[1]] && !strings.Contains(server.String(), `Name: "`+m[1]+`"`) {
			t.Errorf("the block names %s, which is no tool of mcpserver", m[1])
		}
	}
	if len(names) < 10 {
		t.Errorf("found only %d tool names in the block", len(names))
	}
}
