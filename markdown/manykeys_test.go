package markdown_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

func TestFrontmatterManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "k%d: v%d\n", i, i)
	}
	b.WriteString("nested:\n")
	for i := range 3000 {
		fmt.Fprintf(&b, "  n%d: [%d]\n", i, i)
	}
	b.WriteString("---\nbody")
	src := []byte(b.String())
	n := markdown.Parse("f.md", src)
	if m := n.Frontmatter.JSON(); len(m) != 5001 || len(m["nested"].(map[string]any)) != 3000 {
		t.Errorf("JSON: %d keys", len(m))
	}
	var v struct {
		K4999  string           `yaml:"k4999"`
		Nested map[string][]int `yaml:"nested"`
	}
	if err := n.Frontmatter.Decode("f.md", &v); err != nil || v.K4999 != "v4999" || len(v.Nested) != 3000 {
		t.Errorf("Decode: %v, k4999 %q, %d nested", err, v.K4999, len(v.Nested))
	}
	dup := []byte(strings.Replace(b.String(), "k4999:", "k7:", 1))
	if err := markdown.Parse("f.md", dup).Frontmatter.Decode("f.md", &v); err == nil || !strings.Contains(err.Error(), `mapping key "k7" already defined`) {
		t.Errorf("Decode with a duplicate key: %v", err)
	}
}

// BenchmarkFrontmatterJSON turns a frontmatter of 40,000 keys into JSON
// values (yaml.v3's own decoding took 3 s: it compares every pair of keys).
func BenchmarkFrontmatterJSON(b *testing.B) {
	var src strings.Builder
	src.WriteString("---\n")
	for i := range 40000 {
		fmt.Fprintf(&src, "k%d: v\n", i)
	}
	src.WriteString("---\nbody")
	fm := markdown.Parse("f.md", []byte(src.String())).Frontmatter
	for b.Loop() {
		if m := fm.JSON(); len(m) != 40000 {
			b.Fatalf("JSON: %d keys", len(m))
		}
	}
}
