package memory

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// Dream, with an LLM, proposes memories and lessons from the session
// notes the agent hooks write. A proposal is a note like any other, with
// status: proposed in its frontmatter and a link to the session it came
// from; it is not live (not in MEMORY.md's list, not merged by Dream, not
// matched as a lesson) until a person or an agent accepts it by deleting
// status: proposed or setting status: accepted. MEMORY.md lists the
// proposals under "Needs review".

// SourceKey is the frontmatter key of a proposed memory that links to the
// session note it was proposed from; a proposed lesson uses its
// source_episodes.
const SourceKey = "source"

// Proposal is a note Dream proposed, waiting to be accepted: a memory or
// a lesson whose frontmatter status is proposed.
type Proposal struct {
	Path string `json:"path"`
	// Type is the note's type: a memory type, or lesson.
	Type  string `json:"type"`
	Title string `json:"title"`
	// Source is the link target of the session note it was proposed from
	// ("sessions/2026-03-01 1004 claude-code 3f2a9c"), "" when the note
	// names none.
	Source string `json:"source,omitempty"`
	// Owner is whose memory it would be (see OwnerKey), "" for none.
	Owner string `json:"owner,omitempty"`
}

// ProposalOf returns the proposal note n is: ok is false when its status
// is not proposed, or it is archived. Its kind is not checked: the index
// lists only memories and lessons (see the index's Proposed).
func ProposalOf(n *markdown.Note) (Proposal, bool) {
	if !vault.IsProposed(n) || vault.IsArchived(n) {
		return Proposal{}, false
	}
	return ProposalFrom(n.Path, n.Type(), n.Title(), n.Frontmatter.JSON()), true
}

// ProposalFrom is the proposal at vault path p of type kind, whose title
// (its file name, or first heading) is title and whose frontmatter, as
// markdown.Frontmatter.JSON gives it, is fm: its title is its frontmatter
// name when it has one, its owner its frontmatter owner, its source the
// target of its source link, else of its first source_episodes link.
func ProposalFrom(p, kind, title string, fm map[string]any) Proposal {
	pr := Proposal{Path: p, Type: kind, Title: title}
	if name, ok := fm["name"].(string); ok && strings.TrimSpace(name) != "" {
		pr.Title = strings.TrimSpace(name)
	}
	if owner, ok := fm[OwnerKey].(string); ok {
		pr.Owner = strings.TrimSpace(owner)
	}
	switch v := fm[SourceKey].(type) {
	case string:
		pr.Source = linkTarget(v)
	}
	if pr.Source == "" {
		switch v := fm["source_episodes"].(type) {
		case string:
			pr.Source = linkTarget(v)
		case []any:
			if len(v) > 0 {
				if s, ok := v[0].(string); ok {
					pr.Source = linkTarget(s)
				}
			}
		}
	}
	return pr
}

// linkTarget is the note a frontmatter link ("[[a/b|label]]", "[[b#h]]",
// or a bare name) names: "a/b", "b".
func linkTarget(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimPrefix(s, "[["), "]]")
	s, _, _ = strings.Cut(s, "|")
	s, _, _ = strings.Cut(s, "#")
	return strings.TrimSpace(s)
}

// maxProposalNames bounds the file names Propose tries.
const maxProposalNames = 100

// Propose writes m as a new memory note with status: proposed and source:
// "[[source]]" (source is the link text of the session note it was drawn
// from), in the memory folder at <safe name>.md, or <safe name>-2.md and
// on when a note is there: it never writes over a note, nor updates a
// memory of the same name. MEMORY.md is not rewritten (the caller lists
// the memories again once it has written what it proposes). It returns
// the path and hash written. A proposed user memory names its owner as
// Remember's does (see OwnerKey). Errors: ErrInvalid (an *InvalidError); the
// Writer's.
func (s *Store) Propose(ctx context.Context, m Memory, source string) (string, string, error) {
	m.Type = Type(strings.ToLower(strings.TrimSpace(string(m.Type))))
	m.Name, m.Description = strings.TrimSpace(m.Name), strings.TrimSpace(m.Description)
	if err := m.Validate(); err != nil {
		return "", "", err
	}
	fields := []markdown.Field{
		{Key: "name", Value: m.Name},
		{Key: "description", Value: m.Description},
		{Key: "type", Value: string(m.Type)},
		{Key: "status", Value: vault.StatusProposed},
	}
	if me := s.owner(); m.Type == User && me != "" {
		// Proposed from a session on this machine: the person's own.
		fields = append(fields, markdown.Field{Key: OwnerKey, Value: me})
	}
	if source = linkTarget(source); source != "" {
		fields = append(fields, markdown.Field{Key: SourceKey, Value: "[[" + source + "]]"})
	}
	fields = append(fields, markdown.Field{Key: "created", Value: dateNode(s.today())})
	content := markdown.Format(fields, m.Body)
	slug, _ := vault.SafeName(m.Name) // Validate checked it
	for i := 1; i <= maxProposalNames; i++ {
		name := slug
		if i > 1 {
			name = fmt.Sprintf("%s-%d", slug, i)
		}
		p, err := s.w.Resolve(path.Join(s.folder, name+markdown.Ext))
		if err != nil {
			return "", "", err
		}
		hash, err := s.w.Write(ctx, p, content, "")
		if errors.Is(err, vault.ErrExists) {
			continue
		}
		if err != nil {
			return "", "", err
		}
		return p, hash, nil
	}
	return "", "", fmt.Errorf("propose %q: %d notes of that name in %s already", m.Name, maxProposalNames, s.folder)
}
