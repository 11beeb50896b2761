// Package memory writes memory notes: the user, feedback, project and
// reference memories of Claude Code's memory-file format (frontmatter
// name, description and type; then the body), one note per memory under
// the vault's memory folder. The CLI's remember command and the MCP
// server's remember tool both call Remember.
//
// The package owns the memory kinds: their types (Type), what the index
// keeps of a live memory (Live, Read), MEMORY.md's list and how git merges
// a memory note (MergeRules). It imports markdown and vault; the index
// answers it through the small Index interface it declares.
package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// Errors of Remember.
var (
	// ErrInvalid is matched by an *InvalidError.
	ErrInvalid = errors.New("memory: invalid memory")
	// ErrNameTaken is matched by a *TakenError.
	ErrNameTaken = errors.New("memory: name taken")
)

// InvalidError says what is wrong with a Memory: which field, and why.
type InvalidError struct {
	// Field is "type", "name", "description" or "body".
	Field  string
	Reason string
}

func (e *InvalidError) Error() string { return fmt.Sprintf("invalid memory: %s %s", e.Field, e.Reason) }

// Is makes errors.Is(err, ErrInvalid) true.
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

// TakenError reports that a memory's name is in use: the note it maps to
// holds another note (Other), or a different memory of that name that
// only an update may replace.
type TakenError struct {
	Path string
	// Name is the name the note there has.
	Name  string
	Other bool
}

func (e *TakenError) Error() string {
	if e.Other {
		return fmt.Sprintf("%s already holds another note (name %q); choose a different name", e.Path, e.Name)
	}
	return fmt.Sprintf("%s already holds a different memory named %q; update it to replace it", e.Path, e.Name)
}

// Is makes errors.Is(err, ErrNameTaken) true.
func (e *TakenError) Is(target error) bool { return target == ErrNameTaken }

// Memory is what to remember.
type Memory struct {
	Type        Type
	Name        string
	Description string
	Body        string
}

// Validate checks m: a memory type, a one-line name and description, a
// body that says something.
func (m Memory) Validate() error {
	switch {
	case !IsType(string(m.Type)):
		return &InvalidError{"type", fmt.Sprintf("must be one of user, feedback, project, reference; got %q", m.Type)}
	case strings.TrimSpace(m.Name) == "":
		return &InvalidError{"name", "must not be empty"}
	case strings.TrimSpace(m.Description) == "":
		return &InvalidError{"description", "must not be empty"}
	case strings.ContainsAny(m.Name, "\n\r"):
		return &InvalidError{"name", "must be one line"}
	case strings.ContainsAny(m.Description, "\n\r"):
		return &InvalidError{"description", "must be one line"}
	case looksLikePath(m.Name):
		return &InvalidError{"name", fmt.Sprintf("%q looks like a file path; a memory's name is a few words, and vaultmem picks its file", m.Name)}
	}
	if _, err := vault.SafeName(m.Name); err != nil {
		return &InvalidError{"name", fmt.Sprintf("%q has no letter or digit to make a file name from", m.Name)}
	}
	if strings.TrimSpace(m.Body) == "" {
		return &InvalidError{"body", "must not be empty"}
	}
	return nil
}

// looksLikePath reports whether a name tries to climb or root a path
// ("../../etc/passwd", "/etc/passwd", "~/x", "C:\\x"): such a name is an
// attack or a mistake, never a memory's name.
func looksLikePath(name string) bool {
	n := strings.TrimSpace(name)
	if strings.HasPrefix(n, "/") || strings.HasPrefix(n, "\\") || strings.HasPrefix(n, "~/") ||
		len(n) >= 3 && n[1] == ':' && (n[2] == '\\' || n[2] == '/') {
		return true
	}
	for _, part := range strings.FieldsFunc(n, func(r rune) bool { return r == '/' || r == '\\' }) {
		if strings.TrimSpace(part) == ".." {
			return true
		}
	}
	return false
}

// Options say how Remember treats a memory of the same name.
type Options struct {
	// Update replaces an existing memory of the same name (its body,
	// description and type; its other frontmatter keys keep their bytes).
	Update bool
	// ExpectedHash, with Update, is the hash the caller read the memory
	// with: the update is refused (a *vault.ConflictError) when the note
	// changed since.
	ExpectedHash string
}

// Result is what Remember did.
type Result struct {
	Path string `json:"path"`
	// Status is "created", "updated" or "unchanged".
	Status string `json:"status"`
	Hash   string `json:"hash"`
	// ListLine is the memory's line in MEMORY.md, written at once; "" when
	// MEMORY.md could not be written, and ListError says why (the memory
	// itself is written).
	ListLine  string `json:"memory_index_line,omitempty"`
	ListError string `json:"memory_index_error,omitempty"`
	// Owner is whose memory the note says it is (see OwnerKey); "" for
	// none.
	Owner string `json:"owner,omitempty"`
}

// Remember writes m as a memory note and lists it in MEMORY.md at once. A
// memory's identity is its name (case-insensitive), whatever its file is
// called: a live memory of that name anywhere in the vault is the one
// remembered again (replaced only with opts.Update, keeping its other
// frontmatter keys byte for byte and setting updated:), else a new note
// folder/<safe name>.md is written with created: today. A note already at
// that path that holds another note is never touched. A new user memory
// names its owner (StoreOptions.Owner, when known; see OwnerKey), and so
// does one an update turns into a user memory; another person's user
// memory is never the one remembered again, nor written over: a memory of
// the same name gets a note of its own beside it.
//
// Errors: ErrInvalid (an *InvalidError), ErrNameTaken (a *TakenError), a
// *vault.ConflictError when the note changed since opts.ExpectedHash (or
// while it was written), and the Writer's (a note whose frontmatter does
// not parse is never rewritten; one over the size limit is refused). A
// MEMORY.md that cannot be written is not an error: see
// Result.ListError.
func (s *Store) Remember(ctx context.Context, m Memory, opts Options) (Result, error) {
	m.Type = Type(strings.ToLower(strings.TrimSpace(string(m.Type))))
	m.Name, m.Description = strings.TrimSpace(m.Name), strings.TrimSpace(m.Description)
	if err := m.Validate(); err != nil {
		return Result{}, err
	}
	live, err := s.memories(ctx)
	if err != nil {
		return Result{}, err
	}
	p, me := "", s.owner()
	for _, e := range live {
		// A teammate's user memory of that name is theirs: never the one
		// written (a new note beside it is).
		if strings.EqualFold(e.name, m.Name) && ForPerson(e.Entry, me) {
			p = e.Path
			break
		}
	}
	today := s.today()
	var res Result
	if p != "" {
		res, err = s.write(ctx, p, m, opts, today)
	} else {
		res, err = s.create(ctx, m, opts, today)
	}
	if err != nil {
		return Result{}, err
	}
	entry := Entry{Path: res.Path, Type: m.Type, Title: m.Name, Hook: m.Description, Date: today, Owner: res.Owner}
	for _, e := range live {
		if e.Path == res.Path {
			entry.Pinned = e.Pinned
		}
	}
	if res.Status != "unchanged" || !s.listed(ctx, entry) {
		if err := s.relistWith(ctx, live, entry); err != nil {
			res.ListError = err.Error()
			return res, nil
		}
	}
	res.ListLine = Line(path.Dir(s.listFile), entry)
	return res, nil
}

// create writes m to folder/<safe name>.md, or, when an archived memory
// (merged or superseded by Dream: history, not the live memory) or a
// proposed one (not accepted yet) holds that file, to
// folder/<safe name>-2.md and on: neither is ever written over.
func (s *Store) create(ctx context.Context, m Memory, opts Options, today string) (Result, error) {
	slug, _ := vault.SafeName(m.Name) // Validate checked it
	for i := 1; ; i++ {
		name := slug
		if i > 1 {
			name = fmt.Sprintf("%s-%d", slug, i)
		}
		p, err := s.w.Resolve(path.Join(s.folder, name+markdown.Ext))
		if err != nil {
			return Result{}, err
		}
		res, err := s.write(ctx, p, m, opts, today)
		if !errors.Is(err, errArchived) && !errors.Is(err, errNotYours) || i == maxArchivedNames {
			return res, err
		}
	}
}

// errArchived is write's refusal to write over an archived or proposed
// memory.
var errArchived = errors.New("an archived or proposed memory holds this file")

// errNotYours is write's refusal to write over another person's user
// memory (see OwnerKey).
var errNotYours = errors.New("another person's user memory holds this file")

// maxArchivedNames bounds the files create tries past archived ones.
const maxArchivedNames = 100

// write creates or updates the memory note at p.
func (s *Store) write(ctx context.Context, p string, m Memory, opts Options, today string) (Result, error) {
	me := s.owner()
	fields := []markdown.Field{
		{Key: "name", Value: m.Name},
		{Key: "description", Value: m.Description},
		{Key: "type", Value: string(m.Type)},
	}
	owner := ""
	if m.Type == User && me != "" {
		owner = me
		fields = append(fields, markdown.Field{Key: OwnerKey, Value: me})
	}
	content := markdown.Format(append(fields, markdown.Field{Key: "created", Value: dateNode(today)}), m.Body)
	hash, err := s.w.Write(ctx, p, content, "")
	if err == nil {
		return Result{Path: p, Status: "created", Hash: hash, Owner: owner}, nil
	}
	if !errors.Is(err, vault.ErrConflict) && !errors.Is(err, vault.ErrExists) {
		return Result{}, err
	}
	status := "unchanged"
	hash, err = s.w.Update(ctx, p, func(current []byte) ([]byte, error) {
		if h := markdown.Hash(current); opts.ExpectedHash != "" && h != opts.ExpectedHash {
			return nil, &vault.ConflictError{Path: p, Expected: opts.ExpectedHash, Actual: h}
		}
		old := markdown.Parse(p, current)
		if len(old.Warnings) > 0 {
			return nil, fmt.Errorf("%w; fix it by hand before updating this memory", old.Warnings[0])
		}
		if vault.IsArchived(old) || vault.IsProposed(old) {
			return nil, errArchived // history, or a proposal: never the live memory
		}
		if e := NoteEntry(old); !ForPerson(e, me) {
			return nil, errNotYours
		}
		oldName, _ := old.Frontmatter.String("name")
		if !strings.EqualFold(strings.TrimSpace(oldName), m.Name) {
			return nil, &TakenError{Path: p, Name: oldName, Other: true}
		}
		owner = OwnerOf(old)
		next, err := markdown.SetFrontmatter(p, current, "description", m.Description)
		if err == nil {
			next, err = markdown.SetFrontmatter(p, next, "type", string(m.Type))
		}
		if err == nil && m.Type == User && old.Type() != string(User) && owner == "" && me != "" {
			// Made a user memory by this update: it is the writer's.
			owner = me
			next, err = markdown.SetFrontmatter(p, next, OwnerKey, me)
		}
		if err != nil {
			return nil, err
		}
		next = markdown.SetBody(next, m.Body)
		if bytes.Equal(next, current) {
			return current, nil // the same memory again
		}
		if !opts.Update {
			return nil, &TakenError{Path: p, Name: oldName}
		}
		status = "updated"
		return markdown.SetFrontmatter(p, next, "updated", dateNode(today))
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Path: p, Status: status, Hash: hash, Owner: owner}, nil
}

// dateNode is a day written as a YAML date (unquoted), as Obsidian's date
// properties want it.
func dateNode(day string) any { return markdown.FromJSON(day) }
