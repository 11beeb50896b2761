package index

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

// chunkTexts chunks a note and prints each chunk as "heading | text".
func chunkTexts(p, src string) []string {
	var out []string
	for _, c := range chunkNote(markdown.Parse(p, []byte(src)), 512) {
		out = append(out, c.heading+" | "+c.text)
	}
	return out
}

func TestChunkLeavesOutComments(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"inline", "before %%secret%% after", []string{" | before  after"}},
		{"block between paragraphs", "one\n\n%%\nsecret\n\nmore secret\n%%\n\ntwo", []string{" | one\n\ntwo"}},
		{"block inside a paragraph", "one\n%%secret\nstill secret%%\ntwo", []string{" | one\n\ntwo"}},
		{"heading inside a comment", "# A\n\ntext\n\n%%\n# Secret\nhidden\n%%\n\nmore", []string{"A | text\n\nmore"}},
		{"comment in a heading", "# A %%secret%%\n\ntext", []string{"A | text"}},
		{"whole body a comment", "---\nname: n\n---\n%%\nall of it\n%%\n", []string{" | "}},
		{"code wins", "`%%code%%` and\n```\n%%fenced\n```", []string{" | `%%code%%` and\n```\n%%fenced\n```"}},
		{"unclosed", "text %% not a comment", []string{" | text %% not a comment"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := chunkTexts("n.md", tt.src); strings.Join(got, "\n~\n") != strings.Join(tt.want, "\n~\n") {
				t.Errorf("chunks of %q\n got %q\nwant %q", tt.src, got, tt.want)
			}
		})
	}
}

func TestChunkLongNoteWithComments(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "paragraph %d has words %%%%and a secret %d%%%% in it\n\n", i, i)
	}
	b.WriteString("%%\n" + strings.Repeat("secret line\n", 2000) + "%%\n")
	chunks := chunkNote(markdown.Parse("n.md", []byte(b.String())), 128)
	if len(chunks) < 10 {
		t.Fatalf("%d chunks", len(chunks))
	}
	for _, c := range chunks {
		if c.text == "" || strings.Contains(c.text, "secret") || strings.Contains(c.text, "%%") {
			t.Fatalf("chunk %q", c.text)
		}
		if c.tokens > 128 {
			t.Errorf("chunk of %d tokens", c.tokens)
		}
	}
	if last := chunks[len(chunks)-1].text; !strings.HasPrefix(last, "paragraph") || !strings.HasSuffix(last, "in it") {
		t.Errorf("last chunk %q", last)
	}
}

// The Excalidraw plugin's file (plugin 2.x): the drawing, compressed, in a
// comment.
const excalidrawNote = `---

excalidraw-plugin: parsed
tags: [excalidraw]

---
==⚠  Switch to EXCALIDRAW VIEW in the MORE OPTIONS menu of this document. ⚠== You can decompress Drawing data with the command palette: 'Decompress current Excalidraw file'. For more info check in plugin settings under 'Saving'


# Excalidraw Data

## Text Elements
51% attack ^kX3Pq9aB

Majority hashrate ^Zz81aaQw

%%
## Drawing
` + "```compressed-json\nN4KAkARALgngDgUwgLgAQQQDwMYEMA2AlgCYBOuA7gEw\n\nAbCdEf+/ghIj\n```\n%%"

// An older plugin's file: the drawing as JSON, not in a comment, and no
// excalidraw-plugin key (the name says what it is).
const oldExcalidrawNote = "==⚠  Switch to EXCALIDRAW VIEW in the MORE OPTIONS menu of this document. ⚠==\n\n\n" +
	"# Text Elements\nhashrate ^a1\n\n# Drawing\n```json\n{\"type\": \"excalidraw\", \"elements\": [{\"type\": \"text\", \"text\": \"hashrate\", \"strokeColor\": \"#000\"}]}\n```\n\n## Below the drawing\n\nstill drawing\n\n# After\n\nprose after"

func TestChunkExcalidraw(t *testing.T) {
	tests := []struct {
		name, path, src string
		want            []string
	}{
		{"plugin 2", "Attack.excalidraw.md", excalidrawNote, []string{"Excalidraw Data > Text Elements | 51% attack ^kX3Pq9aB\n\nMajority hashrate ^Zz81aaQw"}},
		{"plugin key, any name", "Attack.md", excalidrawNote, []string{"Excalidraw Data > Text Elements | 51% attack ^kX3Pq9aB\n\nMajority hashrate ^Zz81aaQw"}},
		{"older plugin", "Old.excalidraw.md", oldExcalidrawNote, []string{"Text Elements | hashrate ^a1", "After | prose after"}},
		{"not a drawing", "Old.md", oldExcalidrawNote, []string{
			" | ==⚠  Switch to EXCALIDRAW VIEW in the MORE OPTIONS menu of this document. ⚠==",
			"Text Elements | hashrate ^a1",
			"Drawing | ```json\n{\"type\": \"excalidraw\", \"elements\": [{\"type\": \"text\", \"text\": \"hashrate\", \"strokeColor\": \"#000\"}]}\n```",
			"Drawing > Below the drawing | still drawing",
			"After | prose after"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := chunkTexts(tt.path, tt.src); strings.Join(got, "\n~\n") != strings.Join(tt.want, "\n~\n") {
				t.Errorf("chunks\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestChunkBlocksAndLongWords(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "paragraph %d ^b%d\n\n", i, i)
	}
	word := strings.Repeat("x", 100000)
	b.WriteString(word + "\n")
	n := markdown.Parse("n.md", []byte(b.String()))
	chunks := chunkNote(n, 64)
	var joined strings.Builder
	for _, c := range chunks {
		var want []string
		for _, blk := range n.Blocks {
			if blk.Line >= c.lineStart && blk.Line <= c.lineEnd {
				want = append(want, blk.ID)
			}
		}
		if strings.Join(c.blocks, " ") != strings.Join(want, " ") {
			t.Fatalf("chunk of lines %d-%d has blocks %v, want %v", c.lineStart, c.lineEnd, c.blocks, want)
		}
		if c.tokens > 64 {
			t.Fatalf("chunk of %d tokens", c.tokens)
		}
		if c.lineStart == 3000*2+1 {
			joined.WriteString(c.text)
		}
	}
	if joined.String() != word {
		t.Errorf("the long word comes back as %d bytes", joined.Len())
	}
}
