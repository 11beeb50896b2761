// Package memory writes memory notes: the user, feedback, project and
// reference memories of Claude Code's memory-file format (frontmatter
// name, description and type; then the body), one note per memory under
// the vault's memory folder. The CLI's remember command and the MCP
// server's remember tool both call Remember.
package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/vaultmem/vaultmem/vault"
)

// Errors of Remember.
var (
	// ErrInvalid wraps what is wrong with a Memory.
	ErrInvalid = errors.New("memory: invalid memory")
	// ErrNameTaken is returned when the note a memory's name maps to holds
	// another memory, or a different memory of that name without update.
	ErrNameTaken = errors.New("memory: name taken")
)

// Memory is what to remember.
type Memory struct {
	Type        vault.Kind
	Name        string
	Description string
	Body        string
}

// Validate checks m: a memory type, a one-line name and description.
func (m Memory) Validate() error {
	switch {
	case !m.Type.IsMemory():
		return fmt.Errorf("%w: type must be one of user, feedback, project, reference; got %q", ErrInvalid, m.Type)
	case strings.TrimSpace(m.Name) == "":
		return fmt.Errorf("%w: name must not be empty", ErrInvalid)
	case strings.TrimSpace(m.Description) == "":
		return fmt.Errorf("%w: description must not be empty", ErrInvalid)
	case strings.ContainsAny(m.Name, "\n\r") || strings.ContainsAny(m.Description, "\n\r"):
		return fmt.Errorf("%w: name and description must be one line each", ErrInvalid)
	case looksLikePath(m.Name):
		return fmt.Errorf("%w: name %q looks like a file path; a memory's name is a few words, and vaultmem picks its file", ErrInvalid, m.Name)
	}
	if _, err := vault.SafeName(m.Name); err != nil {
		return fmt.Errorf("%w: name %q has no letter or digit to make a file name from", ErrInvalid, m.Name)
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
}

// Remember writes m to folder/<safe name>.md through w (the folder as it is
// spelt on disk, see vault.Writer.Resolve). An existing note there is
// replaced only with opts.Update, only if it holds the memory of the same
// name, and keeping its other frontmatter keys byte for byte.
// Errors: ErrInvalid (m, or a name that makes no safe file name),
// ErrNameTaken, a *vault.ConflictError when the note changed since
// opts.ExpectedHash, and the writer's (a note whose frontmatter does not
// parse is never rewritten; one over the size limit is refused).
func Remember(ctx context.Context, w *vault.Writer, folder string, m Memory, opts Options) (Result, error) {
	m.Type = vault.Kind(strings.ToLower(strings.TrimSpace(string(m.Type))))
	m.Name, m.Description = strings.TrimSpace(m.Name), strings.TrimSpace(m.Description)
	if err := m.Validate(); err != nil {
		return Result{}, err
	}
	slug, _ := vault.SafeName(m.Name) // Validate checked it
	p, err := w.Resolve(path.Join(folder, slug+vault.Ext))
	if err != nil {
		return Result{}, err
	}
	content := vault.Format([]vault.Field{
		{Key: "name", Value: m.Name},
		{Key: "description", Value: m.Description},
		{Key: "type", Value: string(m.Type)},
	}, m.Body)

	hash, err := w.Write(ctx, p, content, "")
	if err == nil {
		return Result{Path: p, Status: "created", Hash: hash}, nil
	}
	if !errors.Is(err, vault.ErrConflict) && !errors.Is(err, vault.ErrExists) {
		return Result{}, err
	}
	status := "unchanged"
	hash, err = w.Update(ctx, p, func(current []byte) ([]byte, error) {
		if h := vault.Hash(current); opts.ExpectedHash != "" && h != opts.ExpectedHash {
			return nil, &vault.ConflictError{Path: p, Expected: opts.ExpectedHash, Actual: h}
		}
		if bytes.Equal(current, content) {
			return current, nil
		}
		old := vault.Parse(p, current)
		if len(old.Warnings) > 0 {
			return nil, fmt.Errorf("%w; fix it by hand before updating this memory", old.Warnings[0])
		}
		oldName, _ := old.Frontmatter.String("name")
		if !strings.EqualFold(strings.TrimSpace(oldName), m.Name) {
			return nil, fmt.Errorf("%w: %s already holds another note (name %q); choose a different name", ErrNameTaken, p, oldName)
		}
		if !opts.Update {
			return nil, fmt.Errorf("%w: %s already holds a different memory named %q; update it to replace it", ErrNameTaken, p, oldName)
		}
		next, err := vault.SetFrontmatter(p, current, "description", m.Description)
		if err != nil {
			return nil, err
		}
		if next, err = vault.SetFrontmatter(p, next, "type", string(m.Type)); err != nil {
			return nil, err
		}
		status = "updated"
		return vault.SetBody(next, m.Body), nil
	})
	if err != nil {
		return Result{}, err
	}
	return Result{Path: p, Status: status, Hash: hash}, nil
}
