package similar

import (
	"crypto/sha256"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/meaning"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/sameness"
	"github.com/vaultmem/vaultmem/text"
)

// Memory is what finding duplicates and contradictions needs of a
// memory: where it is, its type and name, its note as read (and the hash
// of its content on disk), and its content as planned so far. It keeps
// what comparing reads from it (its words, sentences, meaning, normal
// form, its differences with others) until its planned content changes
// (see Set). A Memory is not safe for concurrent use.
type Memory struct {
	Path string
	Kind memory.Type
	Name string         // the frontmatter name (the file name when none)
	Note *markdown.Note // as read
	Hash string         // of the content on disk: as read, or as the run last wrote it
	// Changed says it changed since the last run: Find compares only the
	// pairs with a changed memory.
	Changed bool
	// CopyOf is the memory it is a sync service's conflict copy of
	// (CopyService names the service), nil when it is none (see
	// MarkCopies).
	CopyOf      *Memory
	CopyService string

	next []byte         // the content as planned; nil while unchanged
	view *markdown.Note // next parsed, once asked for
	// sentences caches what sentences finds in it, meant its meaning (see
	// meaning), canon what it says in normal form (see canonical), each
	// forgotten when next changes (see Set).
	sentences *[]sentence
	meant     *meaning.Meaning
	canon     *string
	// diffs caches differ's answers with other memories.
	diffs map[*Memory]difference
	// wordList caches its words as read (see words).
	wordList []string
	// size caches the words of its body as read (see bodyWords), once
	// sized.
	size  int
	sized bool
}

// Set plans next as the memory's content (nil: unchanged), forgetting
// what was read from the content before.
func (m *Memory) Set(next []byte) {
	m.next, m.sentences, m.view, m.meant, m.canon = next, nil, nil, nil, nil
}

// Next is the memory's content as planned, nil while unchanged.
func (m *Memory) Next() []byte { return m.next }

// Parsed is the memory as planned so far, parsed.
func (m *Memory) Parsed() *markdown.Note {
	switch {
	case m.next == nil:
		return m.Note
	case m.view == nil:
		m.view = markdown.Parse(m.Path, m.next)
	}
	return m.view
}

// Current is the memory's content as planned so far.
func (m *Memory) Current() []byte {
	if m.next != nil {
		return m.next
	}
	return m.Note.Content
}

// created is the memory's frontmatter created date (YYYY-MM-DD) as read,
// "" when it has none.
func (m *Memory) created() string {
	s, _ := m.Note.Frontmatter.String("created")
	if len(s) >= 10 {
		return s[:10]
	}
	return ""
}

// words are a memory's description and body as read, as words, for
// comparing (as shown: see Shown).
func (m *Memory) words() []string {
	if m.wordList == nil {
		desc, _ := m.Note.Frontmatter.String("description")
		m.wordList = text.Words(Shown(desc + "\n" + string(m.Note.Body())))
	}
	return m.wordList
}

// tokens are the distinct words of the memory's description and body as
// read (see Shown), sorted: what alikeCandidates and apartFacts compare.
func (m *Memory) tokens() []string { return distinct(m.words()) }

// addedDate is a date as Dream adds it after a relative one: " (2026-03-05)";
// shownWiki and shownMD are links, whose text Obsidian shows.
var (
	addedDate = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` \(\d{4}-\d{2}-\d{2}\)`) })
	shownWiki = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`!?\[\[([^\]|]*)(?:\|([^\]]*))?\]\]`) })
	shownMD   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(!?\[[^\]]*\])\([^)\s]*\)`) })
)

// Shown is s as alike memories are compared: links as Obsidian shows them
// (a wikilink by its label, else its target; a markdown link by its
// text), and without the dates Dream adds after relative ones. Dream's
// own writes (dates, links pointed at a merged memory's winner) then
// change nothing of how two memories compare (how many words they share,
// what differs), so a run over every memory finds the pairs the run
// before it found.
func Shown(s string) string {
	if !strings.Contains(s, "[") && !strings.Contains(s, " (") {
		return s // no link, no added date: most memories
	}
	s = addedDate().ReplaceAllString(s, "")
	s = shownWiki().ReplaceAllStringFunc(s, func(l string) string {
		m := shownWiki().FindStringSubmatch(l)
		if m[2] != "" {
			return m[2]
		}
		return strings.ReplaceAll(m[1], "#", " > ")
	})
	return shownMD().ReplaceAllString(s, "$1")
}

// Said is what a memory says, as merges compare it: its body as planned,
// or its description when it has no body (a name and a description are
// reworded freely).
func (m *Memory) Said() string {
	n := m.Parsed()
	if body := strings.TrimSpace(string(n.Body())); body != "" {
		return body
	}
	desc, _ := n.Frontmatter.String("description")
	return desc
}

// canonical is Said in its normal form (see sameness.Canonical), cached.
func (m *Memory) canonical() string {
	if m.canon == nil {
		c := sameness.Canonical(m.Said())
		m.canon = &c
	}
	return *m.canon
}

// differ reports how a and b differ in meaning (see meaning.Differ). A
// pair is asked several times in a run (is it opposite, a contradiction,
// apart in facts, what differs), so the answer is kept on a, for as long
// as neither's meaning changes.
func differ(a, b *Memory) (meaning.Difference, bool) {
	am, bm := a.meaning(), b.meaning()
	if r, ok := a.diffs[b]; ok && r.a == am && r.b == bm {
		return r.d, r.differs
	}
	d, differs := am.Differ(bm)
	if a.diffs == nil {
		a.diffs = map[*Memory]difference{}
	}
	a.diffs[b] = difference{a: am, b: bm, d: d, differs: differs}
	return d, differs
}

// difference is what differ found between two meanings.
type difference struct {
	a, b    *meaning.Meaning
	d       meaning.Difference
	differs bool
}

// meaning is m, as planned, read for comparing: its facts from the name,
// description and body; its words from the body alone (the description
// when there is none), which is what a merge keeps: a name and a
// description are reworded freely.
func (m *Memory) meaning() *meaning.Meaning {
	if m.meant == nil {
		n := m.Parsed()
		desc, _ := n.Frontmatter.String("description")
		words := strings.TrimSpace(string(n.Body()))
		if words == "" {
			words = desc
		}
		m.meant = meaning.NewMeaning(Shown(m.Name+"\n"+desc+"\n"+string(n.Body())), Shown(words))
	}
	return m.meant
}

// TextKey is the hash of a memory's body as read with case and spacing
// ignored, "" for an empty body: memories with one key are compared
// whatever else they say.
func TextKey(m *Memory) string {
	body := strings.Join(strings.Fields(strings.ToLower(string(m.Note.Body()))), " ")
	if body == "" {
		return ""
	}
	return fmt.Sprintf("%x", sha256.Sum256([]byte(body)))
}

// settled reports whether a person settled a and b with key (either's
// frontmatter as read naming the other: see memory.Names).
func settled(a, b *Memory, key string) bool {
	return memory.Names(a.Note, key, b.Path, b.Name) || memory.Names(b.Note, key, a.Path, a.Name)
}

// moreComplete orders memories the most complete first: more words in
// the body as read, then the older (by created; one without comes after),
// then by path. It reads nothing but the memories, so every machine
// orders them alike.
func moreComplete(a, b *Memory) int {
	if na, nb := a.bodyWords(), b.bodyWords(); na != nb {
		return nb - na
	}
	ca, cb := a.created(), b.created()
	switch {
	case ca != cb && ca == "":
		return 1
	case ca != cb && cb == "":
		return -1
	case ca != cb:
		return strings.Compare(ca, cb)
	}
	return strings.Compare(a.Path, b.Path)
}

// bodyWords counts the words of m's body as read (cached: sorting by
// completeness asks it often).
func (m *Memory) bodyWords() int {
	if !m.sized {
		m.size, m.sized = len(text.Words(string(m.Note.Body()))), true
	}
	return m.size
}

// distinct returns the distinct words of seq, sorted.
func distinct(seq []string) []string {
	out := slices.Clone(seq)
	slices.Sort(out)
	return slices.Compact(out)
}

// intersect returns the words of both sorted lists.
func intersect(a, b []string) []string {
	var out []string
	for _, w := range a {
		if _, ok := slices.BinarySearch(b, w); ok {
			out = append(out, w)
		}
	}
	return out
}
