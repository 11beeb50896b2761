package markdown

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/fixtures"
	"github.com/vaultmem/vaultmem/fixtures/gen"
)

// update rewrites testdata/parse.golden from the reference parse.
var update = flag.Bool("update", false, "rewrite testdata/parse.golden")

// RealVaultsEnv names the environment variable that points the tests and
// benchmarks at a folder of real Obsidian vaults, one per subfolder (none
// is in the repository: without it, the checks that need them skip).
const RealVaultsEnv = "VAULTMEM_REAL_VAULTS"

// realVaults is the folder of real vaults, "" when none is given.
func realVaults() string { return os.Getenv(RealVaultsEnv) }

// corpusNote is one ordinary note: a fixture, a generated or a real note.
type corpusNote struct {
	key     string // "fixture:vault/path", "gen:path" or "real:vault/path"
	content []byte
}

// ordinaryCorpus returns every note of the fixture vaults, of a generated
// 600-note vault and of the real vaults when present (real is false when
// they are absent).
func ordinaryCorpus(t testing.TB) (notes []corpusNote, real bool) {
	t.Helper()
	add := func(prefix string, fsys fs.FS) {
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && IsNotePath(p) && !strings.HasPrefix(p, ".") && !strings.Contains(p, "/.") {
				b, err := fs.ReadFile(fsys, p)
				if err != nil {
					return err
				}
				notes = append(notes, corpusNote{prefix + p, b})
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range fixtures.Names() {
		add("fixture:"+name+"/", fixtures.Vault(name))
	}
	add("gen:", gen.MapFS(gen.Options{Notes: 600, Seed: 7}))
	dir := realVaults()
	if dir == "" {
		return notes, false
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("%s=%s: %v", RealVaultsEnv, dir, err)
	}
	for _, e := range entries {
		if e.IsDir() {
			add("real:"+e.Name()+"/", os.DirFS(filepath.Join(dir, e.Name())))
		}
	}
	return notes, len(entries) > 0
}

// dumpNote prints what parsing found in a note.
func dumpNote(n *Note) string {
	var b strings.Builder
	fmt.Fprintf(&b, "body %d line %d\n", n.BodyStart, n.BodyLine)
	if fm := n.Frontmatter; fm != nil {
		fmt.Fprintf(&b, "frontmatter %d-%d line %d keys %q\n", fm.Start, fm.End, fm.Line, fm.Keys())
	}
	// Links as the old parser knew them: without their offsets.
	type oldLink struct {
		Target, Heading, Block, Label string
		Embed, Frontmatter, Markdown  bool
		Line                          int
	}
	links := make([]oldLink, len(n.Links))
	for i, l := range n.Links {
		links[i] = oldLink{l.Target, l.Heading, l.Block, l.Label, l.Embed, l.Frontmatter, l.Markdown, l.Line}
	}
	fmt.Fprintf(&b, "headings %+v\nblocks %+v\ntags %q\naliases %q\nlinks %+v\n", n.Headings, n.Blocks, n.Tags, n.Aliases, links)
	for _, w := range n.Warnings {
		fmt.Fprintf(&b, "warning %v\n", w)
	}
	for _, s := range n.Spans {
		fmt.Fprintf(&b, "span %+v\n", s)
	}
	return b.String()
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

const goldenPath = "testdata/parse.golden"

func writeGolden(t *testing.T, parse func(p string, content []byte) *Note) {
	t.Helper()
	notes, real := ordinaryCorpus(t)
	if !real {
		t.Fatalf("the real vaults (%s) are needed to update %s", RealVaultsEnv, goldenPath)
	}
	var b strings.Builder
	for _, c := range notes {
		fmt.Fprintf(&b, "%s\t%s\n", c.key, digest(dumpNote(parse("n.md", c.content))))
	}
	if err := os.WriteFile(goldenPath, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOrdinaryNotesParseAsBefore checks that bounded parsing changes
// nothing for ordinary notes: every note of the fixture vaults, of a
// generated vault and of the real vaults (when present) stays well within
// its bounds, parses (comments aside) to what the parser gave before
// bounds and comments existed (testdata/parse.golden, written by that
// parser), and with comments differs only by what lies inside them.
func TestOrdinaryNotesParseAsBefore(t *testing.T) {
	if *update {
		writeGolden(t, func(p string, content []byte) *Note { return parse(p, content, false) })
	}
	golden := map[string]string{}
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		k, v, _ := strings.Cut(l, "\t")
		golden[k] = v
	}
	notes, real := ordinaryCorpus(t)
	checked, commented := 0, 0
	worst, worstKey := 0.0, ""
	for _, c := range notes {
		src := bytes.TrimPrefix(c.content, bom)
		s := boundScan{src: src, budget: budgetBase + budgetPerByte*int64(len(src))}
		s.run()
		if r := float64(s.total) / float64(s.budget); r > worst {
			worst, worstKey = r, c.key
		}
		if s.total*10 > s.budget || s.reason != "" {
			t.Errorf("%s: estimated work %d is over a tenth of its budget %d (%q)", c.key, s.total, s.budget, s.reason)
		}
		want, ok := golden[c.key]
		if !ok {
			continue // a vault added since the golden file was written
		}
		checked++
		old := parse("n.md", c.content, false)
		if got := digest(dumpNote(old)); got != want {
			t.Errorf("%s parses differently from before:\n%s", c.key, dumpNote(old))
			continue
		}
		n := Parse("n.md", c.content)
		for _, w := range n.Warnings {
			var pt *PlainTextError
			if errors.As(w, &pt) {
				t.Errorf("%s read as plain text: %v", c.key, w)
			}
		}
		if len(n.Comments) == 0 {
			if got, want := dumpNote(n), dumpNote(old); got != want {
				t.Errorf("%s has no comment but parses differently:\n got %s\nwant %s", c.key, got, want)
			}
			continue
		}
		commented++
		checkCommentsOnly(t, c.key, n, old)
	}
	if checked < 600 || real && checked < 1800 {
		t.Errorf("checked %d notes against %s", checked, goldenPath)
	}
	t.Logf("%d notes checked, %d with comments; highest work estimate %.4f of the budget (%s)", checked, commented, worst, worstKey)
}

// checkCommentsOnly checks that n differs from old, the same note parsed
// with comments read as text, only by what lies inside n's comments.
func checkCommentsOnly(t *testing.T, key string, n, old *Note) {
	t.Helper()
	inside := func(start, end int) bool {
		for _, c := range n.Comments {
			if start >= c.Start && end <= c.End {
				return true
			}
		}
		return false
	}
	lineInside := func(line int) bool {
		for _, c := range n.Comments {
			if line >= c.Line && line <= c.EndLine {
				return true
			}
		}
		return false
	}
	var spans []Span
	for _, s := range old.Spans {
		if !inside(s.Start, s.End) {
			spans = append(spans, s)
		}
	}
	if !reflect.DeepEqual(n.Spans, spans) {
		t.Errorf("%s: spans\n got %+v\nwant %+v (those outside comments)", key, n.Spans, spans)
	}
	var links []Link
	for _, l := range old.Links {
		if l.Frontmatter || !lineInside(l.Line) {
			links = append(links, l)
		}
	}
	if !reflect.DeepEqual(n.Links, links) || !reflect.DeepEqual(n.Headings, old.Headings) || !reflect.DeepEqual(n.Tags, old.Tags) {
		t.Errorf("%s: links, headings or tags differ beyond the comments:\n got %+v %+v %q\nwant %+v %+v %q",
			key, n.Links, n.Headings, n.Tags, links, old.Headings, old.Tags)
	}
}
