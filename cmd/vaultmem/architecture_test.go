package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestArchitectureImports: every package docs/architecture.md's table
// says "Imports ..." of imports exactly those of vaultmem's packages, as
// `go list` has them, so the document cannot drift from the code.
func TestArchitectureImports(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}|{{join .Imports ","}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/vaultmem/vaultmem/"
	imports := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		pkg, deps, _ := strings.Cut(strings.TrimSpace(line), "|")
		var own []string
		for d := range strings.SplitSeq(deps, ",") {
			if strings.HasPrefix(d, module) {
				own = append(own, strings.TrimPrefix(d, module))
			}
		}
		slices.Sort(own)
		imports[strings.TrimPrefix(pkg, module)] = own
	}
	row := regexp.MustCompile("^\\| `([^`]+)` \\| (.*) \\|$")
	tick := regexp.MustCompile("`([^`]+)`")
	checked := 0
	for line := range strings.Lines(string(doc)) {
		m := row.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		pkg, desc := m[1], m[2]
		_, says, ok := strings.Cut(desc, "Imports ")
		if !ok {
			continue
		}
		// The sentence that names them: up to a ";" or the sentence's end.
		if i := strings.IndexAny(says, ";"); i >= 0 {
			says = says[:i]
		}
		if i := strings.Index(says, ". "); i >= 0 {
			says = says[:i]
		}
		var named []string
		if !strings.HasPrefix(says, "nothing") {
			for _, tm := range tick.FindAllStringSubmatch(says, -1) {
				named = append(named, tm[1])
			}
		}
		slices.Sort(named)
		have, known := imports[pkg]
		if !known {
			t.Errorf("docs/architecture.md names package %s, which go list does not know", pkg)
			continue
		}
		if !slices.Equal(named, have) {
			t.Errorf("docs/architecture.md: %s imports %v, it says %v", pkg, have, named)
		}
		checked++
	}
	if checked < 10 {
		t.Errorf("only %d packages' imports checked: the table's form changed?", checked)
	}
}
