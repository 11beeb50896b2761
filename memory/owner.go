package memory

import (
	"context"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
)

// A user memory (who the user is: role, preferences) is one person's; the
// other kinds (feedback, project, reference) are the project's. In a vault
// several people share (a team's git repository), one person's "answer in
// French" must not become every teammate's: each user memory names its
// person under OwnerKey, MEMORY.md (one committed file, loaded by every
// agent) lists none that has an owner, and the session start and recall
// give each person their own and never a teammate's. A vault one person
// keeps (the Claude Code memory folder, say) is listed as it always was.

// OwnerKey is the frontmatter key of a user memory that names whose it is
// (an email address, as git knows the person, or whatever the person's
// own config says). Remember writes it on a new user memory.
const OwnerKey = "owner"

// OwnerOf is the owner note n names (see OwnerKey), trimmed; "" when none.
func OwnerOf(n *markdown.Note) string {
	o, _ := n.Frontmatter.String(OwnerKey)
	return strings.TrimSpace(o)
}

// SameOwner reports whether two owners name the same person: equal but
// for case (email addresses are compared so) and surrounding space.
func SameOwner(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
}

// Sharing says how a Store tells whether its vault is shared by several
// people.
type Sharing int

// The ways of telling.
const (
	// SharedIfOwners: shared when the live user memories name more than
	// one owner (the default).
	SharedIfOwners Sharing = iota
	// AlwaysShared: shared, whatever the memories say (memory.shared:
	// true in the vault's config).
	AlwaysShared
	// NeverShared: one person's vault (memory.shared: false).
	NeverShared
)

// Shared reports whether a vault whose live memories are es is shared,
// by this way of telling.
func (sh Sharing) Shared(es []Entry) bool {
	switch sh {
	case AlwaysShared:
		return true
	case NeverShared:
		return false
	}
	first := ""
	for _, e := range es {
		if e.Type != User || e.Owner == "" {
			continue
		}
		if first == "" {
			first = e.Owner
		} else if !SameOwner(first, e.Owner) {
			return true
		}
	}
	return false
}

// Personal reports whether e is a person's own memory: a user memory that
// names its owner. A user memory without one is everyone's (as it was
// before owners were written), and so is every other kind.
func Personal(e Entry) bool { return e.Type == User && e.Owner != "" }

// ForPerson reports whether e is given to the person me ("" when vaultmem
// does not know who is asking) in a shared vault: it is not personal, or
// it is me's own.
func ForPerson(e Entry, me string) bool { return !Personal(e) || me != "" && SameOwner(e.Owner, me) }

// owner is the person the Store writes and reads for ("" when unknown).
func (s *Store) owner() string {
	if s.ownerOf == nil {
		return ""
	}
	return strings.TrimSpace(s.ownerOf())
}

// Shared reports whether the vault is shared by several people (see
// Sharing), by the live memories the index holds. Errors: the index's.
func (s *Store) Shared(ctx context.Context) (bool, error) {
	if s.sharing != SharedIfOwners {
		return s.sharing == AlwaysShared, nil
	}
	live, err := s.memories(ctx)
	if err != nil {
		return false, err
	}
	return s.sharing.Shared(entries(live, Entry{})), nil
}

// Personal are the live memories of the person the store reads for
// (StoreOptions.Owner), and the live and proposed memories of teammates,
// by vault path, in a shared vault: what the session start gives the
// person besides MEMORY.md, and what it and recall leave out. In a vault one person keeps both are empty and
// shared is false. Errors: the index's.
func (s *Store) Personal(ctx context.Context) (mine []Entry, theirs map[string]bool, shared bool, err error) {
	live, err := s.memories(ctx)
	if err != nil {
		return nil, nil, false, err
	}
	es := entries(live, Entry{})
	if !s.sharing.Shared(es) {
		return nil, nil, false, nil
	}
	me := s.owner()
	theirs = map[string]bool{}
	for _, e := range es {
		switch {
		case !Personal(e):
		case ForPerson(e, me):
			mine = append(mine, e)
		default:
			theirs[e.Path] = true
		}
	}
	proposals, err := s.ix.Proposed(ctx)
	if err != nil {
		return nil, nil, false, err
	}
	for _, p := range proposals {
		if e := proposalEntry(p); Personal(e) && !ForPerson(e, me) {
			theirs[p.Path] = true // a teammate's, proposed from their session
		}
	}
	return byDisplay(mine), theirs, true, nil
}

// proposalEntry is what sharing needs of a proposal: its path, type and
// owner.
func proposalEntry(p Proposal) Entry { return Entry{Path: p.Path, Type: Type(p.Type), Owner: p.Owner} }

// Unowned are the live user memories without an owner in a shared vault
// (none in a vault one person keeps): everyone's, listed in MEMORY.md and
// given to every teammate, which a person should settle by adding owner:
// to their own, or by making a project's a feedback or project memory.
// Errors: the index's.
func (s *Store) Unowned(ctx context.Context) ([]Entry, error) {
	live, err := s.memories(ctx)
	if err != nil {
		return nil, err
	}
	es := entries(live, Entry{})
	if !s.sharing.Shared(es) {
		return nil, nil
	}
	var out []Entry
	for _, e := range es {
		if e.Type == User && e.Owner == "" {
			out = append(out, e)
		}
	}
	return out, nil
}

// listable drops the personal memories from es, and the personal
// proposals from ps, when es makes, or the config makes, a shared vault:
// MEMORY.md is one committed file that every teammate's agent loads.
func (s *Store) listable(es []Entry, ps []Proposal) ([]Entry, []Proposal) {
	if !s.sharing.Shared(es) {
		return es, ps
	}
	outE := make([]Entry, 0, len(es))
	for _, e := range es {
		if !Personal(e) {
			outE = append(outE, e)
		}
	}
	outP := make([]Proposal, 0, len(ps))
	for _, p := range ps {
		if !Personal(proposalEntry(p)) {
			outP = append(outP, p)
		}
	}
	return outE, outP
}
