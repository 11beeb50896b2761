package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCLIDocsEveryCommand: every command `vaultmem --help` lists has a
// section of its own in docs/cli.md (## NAME, or ## NAME SUBCOMMAND for a
// command of one subcommand such as eval locomo) and a link to it in the
// page's list of commands, so that a new command cannot go undocumented.
func TestCLIDocsEveryCommand(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	r := vaultmem(t, t.TempDir(), "", "--help")
	if r.code != 0 {
		t.Fatalf("vaultmem --help: exit %d: %s", r.code, r.stderr)
	}
	_, after, ok := strings.Cut(r.stdout, "COMMANDS:\n")
	if !ok {
		t.Fatalf("vaultmem --help lists no commands:\n%s", r.stdout)
	}
	section, _, _ := strings.Cut(after, "\n\n")
	commands := 0
	for _, line := range strings.Split(section, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		name := strings.TrimSuffix(f[0], ",")
		commands++
		heading := regexp.MustCompile(`(?m)^## ` + regexp.QuoteMeta(name) + `( [a-z]+)?$`).FindString(text)
		if heading == "" {
			t.Errorf("docs/cli.md has no section \"## %s\" for the command %s", name, name)
			continue
		}
		anchor := strings.ReplaceAll(strings.TrimPrefix(heading, "## "), " ", "-")
		if !strings.Contains(text, "](#"+anchor+")") {
			t.Errorf("docs/cli.md's list of commands does not link to #%s", anchor)
		}
	}
	if commands < 20 {
		t.Errorf("read %d commands from vaultmem --help, want the 20 and more it has:\n%s", commands, section)
	}
}
