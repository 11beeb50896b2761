package markdown

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"strings"
)

// Ext is the file extension of a note.
const Ext = ".md"

// Note is one parsed markdown file of a vault. A Note is never nil for a file
// that could be read: problems that still let the note be read (invalid
// frontmatter, for example) are listed in Warnings.
type Note struct {
	// Path is the vault-relative, slash-separated path, e.g. "memory/pnpm.md".
	Path string
	// Name is the file name without the ".md" extension, the name that
	// [[wikilinks]] use.
	Name string
	// Content is the whole file as read.
	Content []byte
	// Hash is the content hash (see [Hash]) taken when the file was read; the
	// Writer uses it to refuse overwriting a note that changed since.
	Hash string
	// Frontmatter is the YAML frontmatter, nil when the note has none or when
	// it does not parse (then Warnings holds a *ParseError).
	Frontmatter *Frontmatter
	// BodyStart is the byte offset in Content where the body begins (after the
	// frontmatter block and its closing delimiter line).
	BodyStart int
	// BodyLine is the 1-based line on which the body begins.
	BodyLine int
	Headings []Heading
	Blocks   []Block
	// Spans are the top-level blocks of the body in order, the units that
	// the index chunks notes into. A span's text may hold comments (see
	// Comments), which the index leaves out.
	Spans []Span
	// Comments are the body's "%%...%%" comments in order, each a span of
	// Kind "comment" from its opening "%%" to the end of its closing one.
	// Obsidian hides them in reading view: nothing inside one is a heading,
	// block id, link, tag or span of the note. A "%%" inside code is text,
	// and so is one that is never closed.
	Comments []Span
	// Tags are the note's tags without '#', from frontmatter and body, in
	// order of first appearance, deduplicated case-insensitively.
	Tags []string
	// Aliases are the frontmatter aliases (search uses them; link resolution
	// does not, as in Obsidian).
	Aliases []string
	Links   []Link
	// Warnings are problems that did not stop the note from being read, each
	// a *ParseError naming the file and line.
	Warnings []error
}

// Heading is an ATX or setext heading.
type Heading struct {
	Level int    `json:"level"`
	Text  string `json:"text"`
	Line  int    `json:"line"`
}

// Span is one top-level block of a note's body: a heading, paragraph,
// list, code block, quote, table, HTML block or math block. Together the
// spans cover the body; the text between two spans is blank or a comment.
// A note read as plain text (see [PlainTextError]) has only paragraphs:
// the runs of lines between blank lines.
type Span struct {
	// Kind is "heading", "paragraph", "list", "code", "quote", "html",
	// "math", "rule" or "other"; in Note.Comments it is "comment"; in
	// what Note.Prose returns, "paragraph" or "heading".
	Kind string
	// Level is a heading's level (1-6), else 0.
	Level int
	// Start and End are byte offsets in Content; trailing blank lines are
	// not included.
	Start, End int
	// Line and EndLine are the 1-based first and last lines.
	Line, EndLine int
}

// Text returns the span's text, comments included.
func (s Span) Text(n *Note) string { return string(n.Content[s.Start:s.End]) }

// Block is a block id ("^id" at the end of a paragraph or list item).
type Block struct {
	// ID is the block id without '^'.
	ID   string `json:"id"`
	Line int    `json:"line"`
}

// Link is one outgoing link of a note as written; resolving it to a file is
// the job of package graph.
type Link struct {
	// Target is the linked file as written, without fragment: "Note",
	// "folder/Note", "Note.md", "image.png". It is "" for a link to a heading
	// or block of the same note ([[#Heading]]). Markdown-link targets are
	// URL-decoded.
	Target string `json:"target"`
	// Heading is the heading fragment; nested headings are joined by '#'
	// ("H1#H2").
	Heading string `json:"heading"`
	// Block is the block id fragment without '^'.
	Block string `json:"block"`
	// Label is the display text when one was given ("" otherwise).
	Label string `json:"label"`
	// Embed is true for ![[...]] and ![](...).
	Embed bool `json:"embed"`
	// Frontmatter is true for a link inside a frontmatter value.
	Frontmatter bool `json:"frontmatter"`
	// Field is the top-level frontmatter key a frontmatter link is under
	// ("parent", "depends_on", "related"); "" for a link in the body.
	Field string `json:"field,omitempty"`
	// Markdown is true for a [text](target) link rather than a wikilink.
	Markdown bool `json:"markdown"`
	// Line is the 1-based line of the link in the file.
	Line int `json:"line"`
	// Start and End are the byte offsets in the note's content of the link
	// as written ("[[Note|label]]", "![[img.png]]", "[text](Note.md)"), so
	// that a link can be rewritten in place; both 0 when not known.
	Start int `json:"-"`
	End   int `json:"-"`
}

// Type is the note's frontmatter "type:", trimmed and lower-cased ("" when
// it has none): what kind of note vaultmem takes it for (a memory, a task,
// a lesson; packages memory, task and lesson name theirs).
func (n *Note) Type() string {
	if n.Frontmatter == nil {
		return ""
	}
	s, _ := n.Frontmatter.String("type")
	return strings.ToLower(strings.TrimSpace(s))
}

// Title is what a reader calls the note: frontmatter "title", else
// frontmatter "name", else the file name.
func (n *Note) Title() string {
	if n.Frontmatter != nil {
		for _, k := range []string{"title", "name"} {
			if s, ok := n.Frontmatter.String(k); ok && strings.TrimSpace(s) != "" {
				return strings.TrimSpace(s)
			}
		}
	}
	return n.Name
}

// IsExcalidraw reports whether the note is a drawing of the Excalidraw
// plugin: its frontmatter has the key "excalidraw-plugin", or its name ends
// in ".excalidraw". Such a note keeps the words drawn in its "Text
// Elements" section and the drawing itself, as JSON, in its "Drawing"
// section.
func (n *Note) IsExcalidraw() bool {
	return strings.HasSuffix(strings.ToLower(n.Name), ".excalidraw") || n.Frontmatter.Value("excalidraw-plugin") != nil
}

// Body returns the note's text after the frontmatter.
func (n *Note) Body() []byte { return n.Content[n.BodyStart:] }

// Written is the day the note was last written, by its frontmatter: the
// latest of updated, created and date (YYYY-MM-DD), "" when it has none.
func (n *Note) Written() string {
	day := ""
	for _, k := range []string{"updated", "created", "date"} {
		if d, ok := n.Frontmatter.String(k); ok && len(d) >= 10 && d[:10] > day {
			day = d[:10]
		}
	}
	return day
}

// Pinned reports whether the frontmatter pins the note (pinned: true, or
// "yes").
func (n *Note) Pinned() bool {
	s, ok := n.Frontmatter.String("pinned")
	return ok && (strings.EqualFold(s, "true") || strings.EqualFold(s, "yes"))
}

// HasTag reports whether the note has tag t (case-insensitive; a leading '#'
// is ignored). A parent tag matches its nested tags: "a" matches "a/b".
func (n *Note) HasTag(t string) bool {
	t = strings.ToLower(strings.TrimPrefix(t, "#"))
	for _, have := range n.Tags {
		h := strings.ToLower(have)
		if h == t || strings.HasPrefix(h, t+"/") {
			return true
		}
	}
	return false
}

// Hash returns the content hash vaultmem uses for compare-before-write: the
// hex SHA-256 of the bytes.
func Hash(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

// NameOf returns the link name of a vault path: the base name without ".md".
func NameOf(p string) string {
	return strings.TrimSuffix(path.Base(p), Ext)
}

// IsNotePath reports whether p names a markdown note (by extension,
// case-insensitively, as Obsidian does).
func IsNotePath(p string) bool {
	return strings.EqualFold(path.Ext(p), Ext)
}
