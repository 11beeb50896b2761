package memory

import (
	"path"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// Type is a memory's type, its frontmatter type: the four of Claude Code's
// memory folder.
type Type string

// The memory types.
const (
	User      Type = "user"      // who the user is: role, preferences
	Feedback  Type = "feedback"  // guidance for the agent: a rule, why, how to apply it
	Project   Type = "project"   // facts of the work at hand
	Reference Type = "reference" // where to find things
)

// Types are the memory types, in the order MEMORY.md lists them.
var Types = []Type{User, Feedback, Project, Reference}

// IsType reports whether t, a note's type (see markdown.Note.Type), is a
// memory type.
func IsType(t string) bool { return slices.Contains(Types, Type(t)) }

// Is reports whether n is a memory note (archived or not).
func Is(n *markdown.Note) bool { return IsType(n.Type()) }

// IsLive reports whether n is a live memory: a memory note that is
// neither history (archived, or merged into another by Dream: see
// vault.IsArchived) nor a proposal no one has accepted (vault.IsProposed).
// Only a live memory is listed in MEMORY.md, merged by Dream, or updated
// by remember; the index's memories are the live ones by the same rule.
func IsLive(n *markdown.Note) bool { return Is(n) && !vault.IsArchived(n) && !vault.IsProposed(n) }

// Live is a live memory (a note of one of the memory types, neither
// archived nor proposed) as the index holds it.
type Live struct {
	Path string
	// Type is the memory type.
	Type Type
	// Name is the frontmatter name, the memory's identity; "" when it has
	// none (then Title stands for it).
	Name        string
	Title       string
	Description string
	// Pinned is the frontmatter pinned.
	Pinned bool
	// Date is the day it was last written: the latest of its frontmatter
	// updated, created and date (YYYY-MM-DD), "" when it has none.
	Date string
	// Hash is the content hash of the note as indexed.
	Hash string
	// Owner is whose memory it is: the frontmatter owner (see OwnerKey),
	// "" when it names none.
	Owner string
}

// Read returns what the index keeps of memory note n; ok is false when n
// is no live memory (another type, archived: see vault.IsArchived, or a
// proposal not yet accepted: see vault.IsProposed).
func Read(n *markdown.Note) (l Live, ok bool) {
	t := n.Type()
	if !IsType(t) || vault.IsArchived(n) || vault.IsProposed(n) {
		return Live{}, false
	}
	name, _ := n.Frontmatter.String("name")
	desc, _ := n.Frontmatter.String("description")
	return Live{Path: n.Path, Type: Type(t), Name: strings.TrimSpace(name), Title: n.Title(), Description: desc,
		Pinned: n.Pinned(), Date: n.Written(), Hash: n.Hash, Owner: OwnerOf(n)}, true
}

// MergeRules are how git's merge driver combines two machines' changes to
// a memory note (see markdown.MergeRules). When two machines' Dreams
// archived one memory differently (into different survivors, on different
// days), the earlier day and the first survivor by path are kept, as
// either machine would pick: the next Dream then converges on one
// survivor (see dream's converge), instead of a person settling markers
// in a note neither wrote.
var MergeRules = markdown.MergeRules{Later: []string{"updated"}, Earlier: []string{"created", "archived", "merged_into"}}

// InFolder reports whether the note at vault path p is in the memory
// folder folder, and so is a memory when its type is a memory type: a
// note elsewhere that carries type: project (a common property in a
// person's vault) is the person's own, never listed, merged, dated or
// archived. Folder "" is "memory"; "." (a Claude Code memory folder opened
// as a vault) holds the notes at the top only. Case is ignored, as
// Obsidian ignores it.
func InFolder(p, folder string) bool {
	if folder == "" {
		folder = "memory"
	}
	folder = strings.Trim(path.Clean("/"+folder), "/")
	if folder == "" { // "." (or "/"): the notes at the top
		return p != "" && !strings.Contains(p, "/")
	}
	prefix := folder + "/"
	return len(p) > len(prefix) && strings.EqualFold(p[:len(prefix)], prefix)
}

// Keys of a memory's frontmatter by which a person settles a possible
// duplicate (see FlagKind): SameAsKey links the memory it is the same as
// (Dream merges them), NotSameAsKey the one it is not (never listed
// again).
const (
	SameAsKey    = "same_as"
	NotSameAsKey = "not_same_as"
)

// Names reports whether note n's frontmatter key links the note at vault
// path p, whose name (frontmatter name, or title) is name: a wikilink or a
// plain value naming it by name, by file name or by path, case ignored.
func Names(n *markdown.Note, key, p, name string) bool {
	stem := strings.ToLower(strings.TrimSuffix(p, ".md"))
	for _, v := range n.Frontmatter.Strings(key) {
		t := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(v), "[["), "]]")
		t, _, _ = strings.Cut(t, "|")
		t, _, _ = strings.Cut(t, "#")
		t = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(t), ".md"))
		if t != "" && (t == stem || strings.HasSuffix(stem, "/"+t) || t == strings.ToLower(strings.TrimSpace(name))) {
			return true
		}
	}
	return false
}
