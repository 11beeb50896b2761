package markdown_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

func TestFrontmatterJSON(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       string // the JSON of Frontmatter.JSON()
	}{
		{"date stays text", "created: 2024-01-02", `{"created":"2024-01-02"}`},
		{"datetime stays text", "at: 2024-01-02T10:30:00Z", `{"at":"2024-01-02T10:30:00Z"}`},
		{"quoted date is a string", `d: "2024-01-02"`, `{"d":"2024-01-02"}`},
		{"integer keys", "years: {2023: 5, 2024: 6}", `{"years":{"2023":5,"2024":6}}`},
		{"nan and inf", "a: .nan\nb: .inf\nc: -.Inf", `{"a":".nan","b":".inf","c":"-.Inf"}`},
		{"huge integer", "n: 123456789012345678901234567890", `{"n":"123456789012345678901234567890"}`},
		{"plain values", "s: text\ni: 42\nf: 1.5\nb: true\nz: null\nl: [a, 1]", `{"b":true,"f":1.5,"i":42,"l":["a",1],"s":"text","z":null}`},
		{"merge key", "base: &b {x: 1, y: 2}\nobj: {<<: *b, y: 3}", `{"base":{"x":1,"y":2},"obj":{"x":1,"y":3}}`},
		{"complex key", "? [a, b]\n: v", `{"[a, b]":"v"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := markdown.Parse("n.md", []byte("---\n"+tc.yaml+"\n---\nbody\n"))
			if len(n.Warnings) > 0 {
				t.Fatal(n.Warnings)
			}
			got, err := json.Marshal(n.Frontmatter.JSON())
			if err != nil {
				t.Fatalf("JSON() cannot be marshalled: %v", err)
			}
			if string(got) != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
}

// TestFrontmatterJSONAliasBomb: a billion laughs expands to a bounded
// value, quickly, instead of exhausting memory.
func TestFrontmatterJSONAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\na: &a [x, x, x, x, x, x, x, x, x, x]\n")
	prev := "a"
	for i, c := range "bcdefghi" {
		name := string(c)
		b.WriteString(name + ": &" + name + " [")
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*" + prev)
		}
		b.WriteString("]\n")
		prev = name
		_ = i
	}
	b.WriteString("---\n")
	n := markdown.Parse("bomb.md", []byte(b.String()))
	m := n.Frontmatter.JSON()
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > 10<<20 {
		t.Fatalf("the alias bomb expanded to %d bytes", len(out))
	}
}

// TestFromJSONRoundTrip: frontmatter read as JSON and written back keeps
// its dates unquoted, so Obsidian still reads them as dates.
func TestFromJSONRoundTrip(t *testing.T) {
	src := "---\ncreated: 2024-01-02\nat: 2024-01-02T10:30:00Z\ntitle: \"2024-01-02 notes\"\ncount: 3\n---\nbody\n"
	n := markdown.Parse("n.md", []byte(src))
	var decoded map[string]any // as an agent's JSON arrives
	b, _ := json.Marshal(n.Frontmatter.JSON())
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	out := []byte("---\n---\nbody\n")
	var err error
	for _, k := range []string{"created", "at", "title", "count"} {
		if out, err = markdown.SetFrontmatter("n.md", out, k, markdown.FromJSON(decoded[k])); err != nil {
			t.Fatal(err)
		}
	}
	for _, line := range []string{"created: 2024-01-02\n", "at: 2024-01-02T10:30:00Z\n", "title: 2024-01-02 notes\n", "count: 3\n"} {
		if !strings.Contains(string(out), line) {
			t.Errorf("written back:\n%s\nwant the line %q", out, line)
		}
	}
	again := markdown.Parse("n.md", out).Frontmatter.JSON()
	if !reflect.DeepEqual(again, markdown.Parse("n.md", []byte(src)).Frontmatter.JSON()) {
		t.Fatalf("round trip changed the values: %v", again)
	}
}
