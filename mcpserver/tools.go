package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/vault"
)

// RememberIn is the remember tool's input.
type RememberIn struct {
	Type        string `json:"type" jsonschema:"user, feedback, project or reference"`
	Name        string `json:"name" jsonschema:"a short name for the memory; also its file name"`
	Description string `json:"description" jsonschema:"one line: what the memory is, to judge its relevance later"`
	Body        string `json:"body" jsonschema:"the memory itself (markdown)"`
	Update      bool   `json:"update,omitempty" jsonschema:"replace an existing memory of the same name"`
}

// RecallIn is the recall tool's input.
type RecallIn struct {
	Query  string `json:"query" jsonschema:"the question or task at hand"`
	Budget int    `json:"budget,omitempty" jsonschema:"at most this many tokens of context (default: by the question's intent, 500-2000)"`
}

// SearchIn is the search tool's input.
type SearchIn struct {
	Query string `json:"query" jsonschema:"words to look for"`
	Mode  string `json:"mode,omitempty" jsonschema:"keyword, vector or hybrid (default)"`
	Limit int    `json:"limit,omitempty" jsonschema:"at most this many results (default 10)"`
}

// SearchOut is the search tool's output.
type SearchOut struct {
	Results []index.Result `json:"results"`
}

// ReadNoteIn is the read_note tool's input.
type ReadNoteIn struct {
	Path string `json:"path" jsonschema:"the note's vault-relative path, e.g. memory/pnpm.md"`
}

// NoteOut is a note as read_note returns it.
type NoteOut struct {
	Path        string         `json:"path"`
	Frontmatter map[string]any `json:"frontmatter"`
	Body        string         `json:"body"`
	Hash        string         `json:"hash" jsonschema:"pass it to write_note as expected_hash"`
}

// WriteNoteIn is the write_note tool's input.
type WriteNoteIn struct {
	Path         string         `json:"path" jsonschema:"the note's vault-relative path (.md added when missing)"`
	Body         *string        `json:"body,omitempty" jsonschema:"the new body; omitted: keep the body"`
	Frontmatter  map[string]any `json:"frontmatter,omitempty" jsonschema:"keys to set; other keys keep their bytes"`
	ExpectedHash string         `json:"expected_hash,omitempty" jsonschema:"the hash read_note gave; the write is refused if the note changed since"`
}

// WriteNoteOut is what write_note did.
type WriteNoteOut struct {
	Path   string `json:"path"`
	Hash   string `json:"hash"`
	Status string `json:"status" jsonschema:"created or updated"`
}

// LinksIn is the links tool's input.
type LinksIn struct {
	Path      string `json:"path" jsonschema:"the note to start from"`
	Direction string `json:"direction,omitempty" jsonschema:"out (links from it), in (backlinks) or both (default)"`
	Depth     int    `json:"depth,omitempty" jsonschema:"how many links away, 1 to 5 (default 1)"`
}

// Link is one edge the links tool found.
type Link struct {
	Source string `json:"source"`
	Target string `json:"target"`
	Depth  int    `json:"depth"`
}

// LinksOut is the links tool's output.
type LinksOut struct {
	Links []Link `json:"links"`
}

// ListNotesIn is the list_notes tool's input.
type ListNotesIn struct {
	Type   string `json:"type,omitempty" jsonschema:"only notes of this frontmatter type (none: untyped)"`
	Tag    string `json:"tag,omitempty" jsonschema:"only notes with this tag or one nested under it"`
	Folder string `json:"folder,omitempty" jsonschema:"only notes under this vault-relative folder"`
}

// ListNotesOut is the list_notes tool's output.
type ListNotesOut struct {
	Notes []index.NoteInfo `json:"notes"`
}

func (s *Server) addTools() {
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "remember", Description: "Write a memory note (user, feedback, project or reference) " +
		"in the vault's memory folder. A different memory already stored under the same name is kept unless update is true."}, s.remember)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "recall", Description: "The context worth knowing about a question, from the whole vault, " +
		"within a token budget: context is the text to use; items say where each piece comes from and why."}, s.recall)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "search", Description: "Search the notes' sections and paragraphs: keyword, vector or hybrid."}, s.search)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "read_note", Description: "Read a note: its frontmatter, body and content hash."}, s.readNote)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "write_note", Description: "Create a note, or update one: set frontmatter keys (the others keep " +
		"their bytes) and/or replace the body. Pass expected_hash from read_note so a note changed since is not overwritten."}, s.writeNote)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "links", Description: "The notes a note links to, the notes linking to it, or both, up to depth links away."}, s.links)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: "list_notes", Description: "List notes, optionally of one type, with one tag or under one folder."}, s.listNotes)
}

func (s *Server) remember(ctx context.Context, _ *mcp.CallToolRequest, in RememberIn) (*mcp.CallToolResult, memory.Result, error) {
	res, err := memory.Remember(ctx, s.opts.Writer, s.opts.MemoryFolder,
		memory.Memory{Type: vault.Kind(in.Type), Name: in.Name, Description: in.Description, Body: in.Body}, in.Update)
	if err != nil {
		return nil, memory.Result{}, toolError(err)
	}
	if content, hash, err := s.opts.Writer.Read(res.Path); err == nil {
		s.l1.put(note{res.Path, string(content), hash}, s.root)
	}
	return nil, res, nil
}

func (s *Server) fresh(ctx context.Context) {
	if s.opts.Sync != nil {
		s.opts.Sync(ctx) // a failed sync leaves the last state; the read still answers
	}
}

func (s *Server) recall(ctx context.Context, _ *mcp.CallToolRequest, in RecallIn) (*mcp.CallToolResult, *recall.Result, error) {
	if in.Budget < 0 {
		return nil, nil, errors.New("invalid budget: must be a positive number of tokens")
	}
	s.fresh(ctx)
	res, err := s.opts.Recall.Recall(ctx, recall.Request{Query: in.Query, Budget: in.Budget})
	if err != nil {
		return nil, nil, toolError(err)
	}
	return nil, res, nil
}

func (s *Server) search(ctx context.Context, _ *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, SearchOut, error) {
	mode, err := index.ParseMode(in.Mode)
	if err != nil {
		return nil, SearchOut{}, err
	}
	if in.Limit < 0 || in.Limit > 100 {
		return nil, SearchOut{}, errors.New("invalid limit: from 1 to 100")
	}
	s.fresh(ctx)
	res, err := s.opts.Index.Search(ctx, index.Query{Text: in.Query, Mode: mode, Limit: in.Limit})
	if err != nil {
		return nil, SearchOut{}, toolError(err)
	}
	return nil, SearchOut{Results: res}, nil
}

func (s *Server) readNote(ctx context.Context, _ *mcp.CallToolRequest, in ReadNoteIn) (*mcp.CallToolResult, NoteOut, error) {
	n, err := s.read(in.Path)
	if err != nil {
		return nil, NoteOut{}, toolError(err)
	}
	parsed := vault.Parse(n.path, []byte(n.content))
	fm, err := parsed.Frontmatter.Map()
	if err != nil || fm == nil {
		fm = map[string]any{}
	}
	return nil, NoteOut{Path: n.path, Frontmatter: fm, Body: string(parsed.Body()), Hash: n.hash}, nil
}

func (s *Server) writeNote(ctx context.Context, _ *mcp.CallToolRequest, in WriteNoteIn) (*mcp.CallToolResult, WriteNoteOut, error) {
	p, err := vault.CleanPath(in.Path)
	if err != nil {
		return nil, WriteNoteOut{}, toolError(err)
	}
	current, hash, err := s.opts.Writer.Read(p)
	exists := err == nil
	if err != nil && !errors.Is(err, vault.ErrNotFound) {
		return nil, WriteNoteOut{}, toolError(err)
	}
	var next []byte
	switch {
	case !exists:
		if in.ExpectedHash != "" {
			return nil, WriteNoteOut{}, toolError(&vault.ConflictError{Path: p, Expected: in.ExpectedHash})
		}
		var fields []vault.Field
		for _, k := range sortedKeys(in.Frontmatter) {
			fields = append(fields, vault.Field{Key: k, Value: in.Frontmatter[k]})
		}
		body := ""
		if in.Body != nil {
			body = *in.Body
		}
		if len(fields) == 0 { // no frontmatter at all, not an empty one
			next = []byte(strings.TrimRight(body, "\n") + "\n")
		} else {
			next = vault.Format(fields, body)
		}
	default:
		if in.ExpectedHash != "" && in.ExpectedHash != hash {
			return nil, WriteNoteOut{}, toolError(&vault.ConflictError{Path: p, Expected: in.ExpectedHash, Actual: hash})
		}
		next = current
		for _, k := range sortedKeys(in.Frontmatter) {
			if next, err = vault.SetFrontmatter(p, next, k, in.Frontmatter[k]); err != nil {
				return nil, WriteNoteOut{}, toolError(err)
			}
		}
		if in.Body != nil {
			next = vault.SetBody(next, *in.Body)
		}
	}
	expected := hash // compare-before-write against what was read above
	if !exists {
		expected = ""
	}
	newHash, err := s.opts.Writer.Write(ctx, p, next, expected)
	if err != nil {
		return nil, WriteNoteOut{}, toolError(err)
	}
	s.l1.put(note{p, string(next), newHash}, s.root)
	status := "updated"
	if !exists {
		status = "created"
	}
	return nil, WriteNoteOut{Path: p, Hash: newHash, Status: status}, nil
}

func (s *Server) links(ctx context.Context, _ *mcp.CallToolRequest, in LinksIn) (*mcp.CallToolResult, LinksOut, error) {
	p, err := vault.CleanPath(in.Path)
	if err != nil {
		return nil, LinksOut{}, toolError(err)
	}
	dir := in.Direction
	if dir == "" {
		dir = "both"
	}
	if dir != "out" && dir != "in" && dir != "both" {
		return nil, LinksOut{}, fmt.Errorf("invalid direction %q: want out, in or both", in.Direction)
	}
	depth := in.Depth
	if depth == 0 {
		depth = 1
	}
	if depth < 1 || depth > 5 {
		return nil, LinksOut{}, errors.New("invalid depth: from 1 to 5")
	}
	s.fresh(ctx)
	if found, err := s.opts.Index.List(ctx, index.Query{Paths: []string{p}}); err != nil || len(found) == 0 {
		return nil, LinksOut{}, toolError(fmt.Errorf("%w: %s", vault.ErrNotFound, p))
	}
	out := LinksOut{Links: []Link{}}
	seen := map[string]bool{p: true}
	frontier := []string{p}
	for d := 1; d <= depth && len(frontier) > 0; d++ {
		var next []string
		for _, from := range frontier {
			if dir != "in" {
				targets, err := s.opts.Index.Outgoing(ctx, from)
				if err != nil {
					return nil, LinksOut{}, toolError(err)
				}
				for _, t := range targets {
					out.Links = append(out.Links, Link{from, t, d})
					if !seen[t] {
						seen[t] = true
						next = append(next, t)
					}
				}
			}
			if dir != "out" {
				sources, err := s.opts.Index.Backlinks(ctx, from)
				if err != nil {
					return nil, LinksOut{}, toolError(err)
				}
				for _, src := range sources {
					out.Links = append(out.Links, Link{src, from, d})
					if !seen[src] {
						seen[src] = true
						next = append(next, src)
					}
				}
			}
		}
		frontier = next
	}
	return nil, out, nil
}

func (s *Server) listNotes(ctx context.Context, _ *mcp.CallToolRequest, in ListNotesIn) (*mcp.CallToolResult, ListNotesOut, error) {
	s.fresh(ctx)
	notes, err := s.opts.Index.List(ctx, index.Query{Type: in.Type, Tag: in.Tag, Folder: in.Folder})
	if err != nil {
		return nil, ListNotesOut{}, toolError(err)
	}
	return nil, ListNotesOut{Notes: notes}, nil
}

// toolError words an error for an agent: what kind of failure, then the
// detail.
func toolError(err error) error {
	var conflict *vault.ConflictError
	switch {
	case errors.As(err, &conflict):
		msg := fmt.Sprintf("conflict: %s changed since it was read", conflict.Path)
		if conflict.Actual != "" {
			msg += fmt.Sprintf(" (its hash is now %s); read_note it again and redo your change", conflict.Actual)
		} else if conflict.Expected != "" {
			msg += " (it no longer exists)"
		} else {
			msg = fmt.Sprintf("conflict: %s already exists; read_note it and pass its hash as expected_hash", conflict.Path)
		}
		return errors.New(msg)
	case errors.Is(err, vault.ErrInvalidPath):
		if strings.Contains(err.Error(), "..") || strings.Contains(err.Error(), "absolute") || strings.Contains(err.Error(), "dot") {
			return fmt.Errorf("outside the vault: %v", err)
		}
		return fmt.Errorf("invalid name: %v", err)
	case errors.Is(err, vault.ErrNotFound):
		return fmt.Errorf("not found: %v", err)
	case errors.Is(err, memory.ErrInvalid):
		return fmt.Errorf("invalid memory: %s", strings.TrimPrefix(err.Error(), memory.ErrInvalid.Error()+": "))
	case errors.Is(err, memory.ErrNameTaken):
		return fmt.Errorf("conflict: %s", strings.TrimPrefix(err.Error(), memory.ErrNameTaken.Error()+": "))
	case errors.Is(err, recall.ErrEmptyQuery):
		return errors.New("invalid query: it has no words")
	}
	return err
}
