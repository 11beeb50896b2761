package markdown_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/fixtures"
	"github.com/vaultmem/vaultmem/markdown"
)

// addFixtureSeeds seeds a fuzz test with every note of the fixture vaults.
func addFixtureSeeds(f *testing.F) {
	for _, name := range fixtures.Names() {
		fsys := fixtures.Vault(name)
		_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && markdown.IsNotePath(p) {
				b, _ := fs.ReadFile(fsys, p)
				f.Add(b)
			}
			return nil
		})
	}
}

func FuzzWikilinks(f *testing.F) {
	addFixtureSeeds(f)
	for _, s := range []string{"[[a#b#c|d]]", "![[x.png]]", "[[a\\|b]]", "$$[[x]]$$", "[t](a%20b.md#c)", "[[#^x]]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		n := markdown.Parse("f.md", src)
		lines := bytes.Count(src, []byte("\n")) + 1
		for _, l := range n.Links {
			if l.Line < 1 || l.Line > lines {
				t.Fatalf("link %+v on line %d of %d", l, l.Line, lines)
			}
			if l.Target == "" && l.Heading == "" && l.Block == "" {
				t.Fatalf("empty link %+v", l)
			}
			if l.Markdown || l.Frontmatter || strings.ContainsAny(l.Target+l.Heading+l.Label+l.Block, "[]|#^\\\n\r`$<>!&*_{}") {
				continue
			}
			// A plain wikilink written back parses to the same link.
			var b strings.Builder
			if l.Embed {
				b.WriteString("!")
			}
			b.WriteString("[[" + l.Target)
			if l.Heading != "" {
				b.WriteString("#" + l.Heading)
			}
			if l.Block != "" {
				b.WriteString("#^" + l.Block)
			}
			if l.Label != "" {
				b.WriteString("|" + l.Label)
			}
			b.WriteString("]]")
			again := markdown.Parse("g.md", []byte(b.String()))
			want := l
			want.Line = 1
			want.Target = strings.TrimSpace(want.Target)
			want.Start, want.End = 0, b.Len() // the link is the whole note
			if len(again.Links) != 1 || !reflect.DeepEqual(again.Links[0], want) {
				t.Fatalf("round trip of %+v via %q gave %+v", l, b.String(), again.Links)
			}
		}
		for _, l := range n.Links {
			if l.End > 0 && (l.Start < 0 || l.End > len(src) || l.Start >= l.End) {
				t.Fatalf("link %+v has offsets outside the note", l)
			}
		}
		if again := markdown.Parse("f.md", src); !reflect.DeepEqual(again.Links, n.Links) || !reflect.DeepEqual(again.Tags, n.Tags) {
			t.Fatalf("parse is not deterministic")
		}
	})
}

func FuzzFrontmatter(f *testing.F) {
	addFixtureSeeds(f)
	f.Add([]byte("---\na: [1, 2]\nb: {c: d}\n---\n"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("---\nx: |\n  multi\n  line\n---\nbody"))
	f.Fuzz(func(t *testing.T, src []byte) {
		n := markdown.Parse("f.md", src)
		if n.BodyStart < 0 || n.BodyStart > len(src) {
			t.Fatalf("body start %d outside %d bytes", n.BodyStart, len(src))
		}
		for _, w := range n.Warnings {
			var pe *markdown.ParseError
			if !errors.As(w, &pe) || pe.Path != "f.md" {
				t.Fatalf("warning %v does not name the file", w)
			}
		}
		fm := n.Frontmatter
		if fm == nil {
			return
		}
		if n.BodyStart == 0 || !bytes.Equal(src[fm.Start:fm.End], fm.Raw) {
			t.Fatalf("frontmatter bounds %d-%d, body at %d", fm.Start, fm.End, n.BodyStart)
		}
		// Every key the typed accessors see is a key of the JSON (but a
		// merge key, whose keys are merged in), and the JSON encodes.
		m := fm.JSON()
		for _, k := range fm.Keys() {
			if _, ok := m[k]; !ok && k != "<<" {
				t.Fatalf("key %q missing from the JSON %v", k, m)
			}
		}
		if _, err := json.Marshal(m); err != nil {
			t.Fatalf("the JSON does not encode: %v", err)
		}
	})
}
