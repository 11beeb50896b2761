package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/app"
)

// RememberIn is the remember tool's input.
type RememberIn struct {
	Type        string `json:"type" jsonschema:"user: who the user is, their role and preferences; feedback: guidance on how to work (a rule, why, how to apply it); project: facts about the work at hand; reference: where to find things"`
	Name        string `json:"name" jsonschema:"a short name for the memory, unique among memories; also its file name"`
	Description string `json:"description" jsonschema:"one line: what the memory is, to judge its relevance later"`
	Body        string `json:"body" jsonschema:"the memory itself (markdown); it must not be empty"`
	Update      bool   `json:"update,omitempty" jsonschema:"replace an existing memory of the same name"`
}

// RecallIn is the recall tool's input.
type RecallIn struct {
	Query  string `json:"query" jsonschema:"the question or task at hand, in natural language"`
	Budget int    `json:"budget,omitempty" jsonschema:"at most this many tokens of context, up to 100000 (0 or omitted: by the question's intent, 500-2000)"`
	AgentIn
	NoFocus bool `json:"no_focus,omitempty" jsonschema:"leave out the context of the agent's focused task (put first otherwise)"`
	Repeat  bool `json:"repeat,omitempty" jsonschema:"give again what this session was given already (left out otherwise: after the conversation was compacted, say)"`
}

// SearchIn is the search tool's input.
type SearchIn struct {
	Query  string `json:"query" jsonschema:"words to look for"`
	Mode   string `json:"mode,omitempty" jsonschema:"keyword (exact words), vector (similar meaning) or hybrid (both; the default)"`
	Limit  int    `json:"limit,omitempty" jsonschema:"at most this many results, 1 to 100 (0 or omitted: 10)"`
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page, to read on"`
	Type   string `json:"type,omitempty" jsonschema:"only notes of this frontmatter type (none: untyped)"`
	Tag    string `json:"tag,omitempty" jsonschema:"only notes with this tag or one nested under it"`
	Folder string `json:"folder,omitempty" jsonschema:"only notes under this vault-relative folder"`
}

// SearchOut is the search tool's output.
type SearchOut struct {
	Results []app.SearchResult `json:"results"`
	// NextCursor reads the next results; "" when there are none.
	NextCursor string `json:"next_cursor,omitempty"`
}

// ReadNoteIn is the read_note tool's input.
type ReadNoteIn struct {
	Path string `json:"path" jsonschema:"the note's vault-relative path, e.g. memory/pnpm.md (.md optional; case does not matter), or its name as a [[wikilink]] names it, e.g. pnpm"`
}

// NoteOut is a note as read_note returns it.
type NoteOut struct {
	Path string `json:"path"`
	// Frontmatter holds dates as they are written ("2024-01-02").
	Frontmatter map[string]any `json:"frontmatter"`
	Body        string         `json:"body"`
	Hash        string         `json:"hash" jsonschema:"pass it to write_note as expected_hash"`
	// Warnings name problems in the note (frontmatter that does not
	// parse, with its line).
	Warnings []string `json:"warnings,omitempty"`
}

// WriteNoteIn is the write_note tool's input. Body is a pointer so that an
// omitted body (keep it) differs from an empty one; its schema is a plain
// optional string (see notNull).
type WriteNoteIn struct {
	Path         string         `json:"path" jsonschema:"the note's vault-relative path (.md added when missing)"`
	Body         *string        `json:"body,omitempty" jsonschema:"the new body; omit it to keep the body"`
	Frontmatter  map[string]any `json:"frontmatter,omitempty" jsonschema:"keys to set; other keys keep their bytes; dates as YYYY-MM-DD"`
	ExpectedHash string         `json:"expected_hash,omitempty" jsonschema:"the hash read_note gave; the write is refused if the note changed since"`
}

// LinksIn is the links tool's input.
type LinksIn struct {
	Path      string `json:"path" jsonschema:"the note to start from"`
	Direction string `json:"direction,omitempty" jsonschema:"out (links from it), in (backlinks) or both (default)"`
	Depth     int    `json:"depth,omitempty" jsonschema:"how many links away, 1 to 5 (0 or omitted: 1)"`
	Limit     int    `json:"limit,omitempty" jsonschema:"at most this many links, 1 to 1000 (0 or omitted: 100)"`
	Cursor    string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page, to read on"`
}

// LinksOut is the links tool's output: one page of the links, and where it
// lies among them all.
type LinksOut struct {
	Links []app.LinkHop `json:"links"`
	app.PageInfo
}

// ListNotesIn is the list_notes tool's input.
type ListNotesIn struct {
	Type   string `json:"type,omitempty" jsonschema:"only notes of this frontmatter type (none: untyped)"`
	Tag    string `json:"tag,omitempty" jsonschema:"only notes with this tag or one nested under it"`
	Folder string `json:"folder,omitempty" jsonschema:"only notes under this vault-relative folder"`
	Limit  int    `json:"limit,omitempty" jsonschema:"at most this many notes, 1 to 1000 (0 or omitted: 100)"`
	Cursor string `json:"cursor,omitempty" jsonschema:"next_cursor of the previous page, to read on"`
}

// NoteItem is one note of list_notes.
type NoteItem struct {
	Path string `json:"path"`
	// FileName is the file's name without .md: what [[wikilinks]] use.
	FileName string `json:"file_name"`
	// Title is the frontmatter title or name, else the file name.
	Title       string   `json:"title"`
	Type        string   `json:"type"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
}

// ListNotesOut is the list_notes tool's output: one page of the notes, and
// where it lies among them all.
type ListNotesOut struct {
	Notes []NoteItem `json:"notes"`
	app.PageInfo
}

// DreamIn is the dream tool's input.
type DreamIn struct {
	DryRun bool `json:"dry_run,omitempty" jsonschema:"plan and report only; write nothing"`
	Full   bool `json:"full,omitempty" jsonschema:"look at every memory, not only those changed since the last run"`
}

// maxSearchLimit is the most results of one search call.
const maxSearchLimit = 100

func (s *Server) addTools() {
	closed := false // every tool works on the vault alone
	addTool(s, &mcp.Tool{Name: "remember", Description: "Store a durable memory as a note in the vault's memory folder, for this and later sessions: " +
		"user (who the user is, their role, preferences), feedback (how to work: a rule, why, how to apply it), " +
		"project (facts about the work at hand), reference (where to find things). A different memory already " +
		"stored under the same name is kept unless update is true.",
		InputSchema: schemaFor[RememberIn](enum("type", "user", "feedback", "project", "reference")),
		Annotations: &mcp.ToolAnnotations{Title: "Remember", DestructiveHint: &closed, OpenWorldHint: &closed}}, s.remember)
	addTool(s, &mcp.Tool{Name: "recall", Description: "The context worth knowing for a question or task, gathered from the whole vault " +
		"(memories, notes, linked notes, dated notes) and cut to a token budget: call it first, with the question in plain words, " +
		"when you need what the user or the project already decided or knows. The text content is the context to use; " +
		"the structured result says where each piece comes from and why. Use search instead to find notes by exact words.",
		InputSchema: schemaFor[RecallIn](bounds("budget", 0, app.RecallMaxBudget)),
		Annotations: &mcp.ToolAnnotations{Title: "Recall", ReadOnlyHint: true, OpenWorldHint: &closed}}, s.recall)
	addTool(s, &mcp.Tool{Name: "search", Description: "Find the sections and paragraphs of notes that match words (keyword), " +
		"meaning (vector) or both (hybrid), optionally within one type, tag or folder; results are ranked, with a snippet each. " +
		"For the context needed to answer a question, call recall.",
		InputSchema: schemaFor[SearchIn](enum("mode", "keyword", "vector", "hybrid"), bounds("limit", 0, maxSearchLimit)),
		Annotations: &mcp.ToolAnnotations{Title: "Search notes", ReadOnlyHint: true, OpenWorldHint: &closed}}, framed(s.search))
	addTool(s, &mcp.Tool{Name: "read_note", Description: "Read a note, by its path or its name: its frontmatter, body and content hash (pass the hash to write_note).",
		InputSchema: schemaFor[ReadNoteIn](),
		Annotations: &mcp.ToolAnnotations{Title: "Read note", ReadOnlyHint: true, OpenWorldHint: &closed}}, framed(s.readNote))
	addTool(s, &mcp.Tool{Name: "write_note", Description: "Create a note, or update one: set frontmatter keys (the others keep " +
		"their bytes) and/or replace the body. Pass expected_hash from read_note so a note changed since (by a human in Obsidian) is not overwritten.",
		InputSchema: schemaFor[WriteNoteIn](),
		Annotations: &mcp.ToolAnnotations{Title: "Write note", DestructiveHint: ptr(true), OpenWorldHint: &closed}}, s.writeNote)
	addTool(s, &mcp.Tool{Name: "links", Description: "The notes a note links to, the notes linking to it, or both, up to depth links away, a page at a time.",
		InputSchema: schemaFor[LinksIn](enum("direction", "out", "in", "both"), bounds("depth", 0, app.MaxLinkDepth), bounds("limit", 0, app.MaxLimit)),
		Annotations: &mcp.ToolAnnotations{Title: "Follow links", ReadOnlyHint: true, OpenWorldHint: &closed}}, framed(s.links))
	{
		addTool(s, &mcp.Tool{Name: "dream", Description: "Consolidate the memories: merge duplicates into the most complete one " +
			"(the others are archived, never deleted, and links to them follow), flag memories that may contradict each other for the user " +
			"(never resolved here), make relative dates absolute, and rewrite MEMORY.md. Each run is logged in the dream log note. " +
			"Use dry_run to see the plan first.",
			InputSchema: schemaFor[DreamIn](),
			Annotations: &mcp.ToolAnnotations{Title: "Dream", DestructiveHint: &closed, IdempotentHint: true, OpenWorldHint: &closed}}, s.dream)
	}
	addTool(s, &mcp.Tool{Name: "list_notes", Description: "List notes by path, optionally of one type, with one tag or under one folder, a page at a time.",
		InputSchema: schemaFor[ListNotesIn](bounds("limit", 0, app.MaxLimit)),
		Annotations: &mcp.ToolAnnotations{Title: "List notes", ReadOnlyHint: true, OpenWorldHint: &closed}}, framed(s.listNotes))
	s.addTaskTools()
	s.addLessonTools()
}

func ptr[T any](v T) *T { return &v }

func (s *Server) remember(ctx context.Context, req *mcp.CallToolRequest, in RememberIn) (*mcp.CallToolResult, app.MemoryResult, error) {
	if err := s.opts.Startup.wait(ctx, req); err != nil {
		return nil, app.MemoryResult{}, toolError(err)
	}
	res, err := s.app.Remember(ctx, app.Memory{Type: app.MemoryType(in.Type), Name: in.Name, Description: in.Description, Body: in.Body},
		app.MemoryOptions{Update: in.Update})
	if err != nil {
		return nil, app.MemoryResult{}, toolError(err)
	}
	s.working.Wrote(res.Path)
	return nil, res, nil
}

// fresh makes the index current before a read: it waits for the first
// sync (see Startup), then syncs when no watcher does.
func (s *Server) fresh(ctx context.Context, req *mcp.CallToolRequest) error {
	if err := s.opts.Startup.wait(ctx, req); err != nil {
		return err
	}
	if _, err := s.app.Sync(ctx, app.SyncOptions{}); err != nil {
		s.syncFailed(ctx, req.Session, err) // the read answers from the index as it was
	}
	return nil
}

// syncIndex brings the index up to date with the vault now, whether or
// not a watcher keeps it current (the watcher syncs after a pause), for a
// tool that must see a note written a moment before.
func (s *Server) syncIndex(ctx context.Context) error {
	_, err := s.app.Sync(ctx, app.SyncOptions{Always: true})
	return err
}

func (s *Server) recall(ctx context.Context, req *mcp.CallToolRequest, in RecallIn) (*mcp.CallToolResult, *app.RecallResult, error) {
	if err := s.fresh(ctx, req); err != nil {
		return nil, nil, toolError(err)
	}
	agent, err := s.agent(req, in.AgentIn)
	if err != nil {
		return nil, nil, toolError(err)
	}
	r := app.RecallRequest{Query: in.Query, Budget: in.Budget, Agent: agent, NoFocus: in.NoFocus}
	if !in.Repeat {
		r = s.working.Request(r)
	}
	res, err := s.app.Recall(ctx, r)
	if err != nil {
		return nil, nil, toolError(err)
	}
	s.working.Gave(res)
	text := res.Context
	switch {
	case text == "" && res.Repeats > 0:
		text = fmt.Sprintf("What the vault holds on this (%d passages) was given earlier in this session; call again with repeat: true to have it again.", res.Repeats)
	case text == "":
		text = "Nothing in the vault matches this question."
	case res.Repeats > 0:
		text += fmt.Sprintf("\n(%d more passages were given earlier in this session; repeat: true gives them again.)", res.Repeats)
	}
	// The text is the context alone: the agent reads it, and it costs the
	// budget and no more; the rest is in the structured result.
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, res, nil
}

func (s *Server) search(ctx context.Context, req *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, SearchOut, error) {
	mode, err := app.ParseSearchMode(in.Mode)
	if err != nil {
		return nil, SearchOut{}, toolError(err)
	}
	limit := in.Limit
	if limit == 0 {
		limit = 10
	}
	offset, err := app.ParseCursor(in.Cursor)
	if err != nil {
		return nil, SearchOut{}, toolError(err)
	}
	if limit < 1 || limit > maxSearchLimit || offset > app.MaxLimit {
		return nil, SearchOut{}, toolError(fmt.Errorf("%w: limit from 1 to %d, and at most %d results in all", app.ErrBadPage, maxSearchLimit, app.MaxLimit))
	}
	if err := (app.SearchRequest{Query: in.Query, Limit: limit, Offset: offset}).Check(); err != nil {
		return nil, SearchOut{}, toolError(err) // before waiting for the index
	}
	if err := s.fresh(ctx, req); err != nil {
		return nil, SearchOut{}, toolError(err)
	}
	res, err := s.app.Notes().Search(ctx, app.SearchRequest{Query: in.Query, Mode: mode, Type: in.Type, Tag: in.Tag, Folder: in.Folder,
		Limit: limit, Offset: offset, NoSync: true})
	if err != nil {
		return nil, SearchOut{}, toolError(err)
	}
	out := SearchOut{Results: res.Results}
	if res.NextOffset > 0 {
		out.NextCursor = fmt.Sprint(res.NextOffset)
	}
	return nil, out, nil
}

func (s *Server) readNote(ctx context.Context, req *mcp.CallToolRequest, in ReadNoteIn) (*mcp.CallToolResult, NoteOut, error) {
	// The tools wait for the first index (see Startup); a name is then
	// looked up in the index as the watcher keeps it (app.ReadNote syncs
	// once more for a name it does not know yet).
	if err := s.opts.Startup.wait(ctx, req); err != nil {
		return nil, NoteOut{}, toolError(err)
	}
	n, err := s.app.Notes().Read(ctx, app.ReadNoteRequest{Note: in.Path, NoSync: true})
	if err != nil {
		return nil, NoteOut{}, toolError(err)
	}
	s.working.Read(n.Path)
	return nil, NoteOut{Path: n.Path, Frontmatter: n.Frontmatter, Body: n.Body, Hash: n.Hash, Warnings: n.Warnings}, nil
}

// WriteNoteOut is what write_note did: the note written and, for a
// memory, why MEMORY.md could not list it (see app.App.WriteNote).
type WriteNoteOut = app.NoteWritten

func (s *Server) writeNote(ctx context.Context, _ *mcp.CallToolRequest, in WriteNoteIn) (*mcp.CallToolResult, WriteNoteOut, error) {
	out, err := s.app.Notes().Write(ctx, app.WriteNoteRequest{Path: in.Path, Frontmatter: in.Frontmatter, Body: in.Body, ExpectedHash: in.ExpectedHash})
	if err != nil {
		return nil, WriteNoteOut{}, toolError(err)
	}
	s.working.Wrote(out.Path)
	return nil, out, nil
}

func (s *Server) links(ctx context.Context, req *mcp.CallToolRequest, in LinksIn) (*mcp.CallToolResult, LinksOut, error) {
	offset, err := app.ParseCursor(in.Cursor)
	if err != nil {
		return nil, LinksOut{}, toolError(err)
	}
	if err := s.fresh(ctx, req); err != nil {
		return nil, LinksOut{}, toolError(err)
	}
	walk, err := s.app.Notes().Walk(ctx, app.WalkRequest{Note: in.Path, Direction: in.Direction, Depth: in.Depth,
		Page: app.Page{Offset: offset, Limit: in.Limit}, NoSync: true})

	if err != nil {
		return nil, LinksOut{}, toolError(err)
	}
	return nil, LinksOut(walk), nil
}

func (s *Server) listNotes(ctx context.Context, req *mcp.CallToolRequest, in ListNotesIn) (*mcp.CallToolResult, ListNotesOut, error) {
	offset, err := app.ParseCursor(in.Cursor)
	if err != nil {
		return nil, ListNotesOut{}, toolError(err)
	}
	if _, err := (app.Page{Offset: offset, Limit: in.Limit}).Check(); err != nil {
		return nil, ListNotesOut{}, toolError(err)
	}
	if err := s.fresh(ctx, req); err != nil {
		return nil, ListNotesOut{}, toolError(err)
	}
	list, err := s.app.Notes().List(ctx, app.ListRequest{Type: in.Type, Tag: in.Tag, Folder: in.Folder,
		Page: app.Page{Offset: offset, Limit: in.Limit}, NoSync: true})
	if err != nil {
		return nil, ListNotesOut{}, toolError(err)
	}
	out := ListNotesOut{Notes: make([]NoteItem, len(list.Notes)), PageInfo: list.Page}
	for i, n := range list.Notes {
		out.Notes[i] = NoteItem{Path: n.Path, FileName: n.Name, Title: n.Title, Type: n.Type, Description: n.Description, Tags: n.Tags}
	}
	return nil, out, nil
}

// toolError words an error for an agent: what kind of failure, then the
// detail. The kind comes from the error's type, never from its text.
func toolError(err error) error {
	var conflict *app.ConflictError
	switch {
	case errors.As(err, &conflict):
		msg := fmt.Sprintf("conflict: %s changed since it was read", conflict.Path)
		switch {
		case conflict.Other != "":
			msg = "conflict: " + conflict.Error()
		case conflict.Actual != "" && conflict.Expected != "":
			msg += fmt.Sprintf(" (its hash is now %s); read_note it again and redo your change", conflict.Actual)
		case conflict.Expected != "":
			msg += " (it no longer exists)"
		default:
			msg = fmt.Sprintf("conflict: %s already exists; read_note it and pass its hash as expected_hash", conflict.Path)
		}
		return errors.New(msg)
	case errors.Is(err, app.ErrNoQuery):
		return errors.New("invalid query: it has no words to search for")
	}
	if l := app.Label(err); l != "" {
		return fmt.Errorf("%s: %v", l, err)
	}
	return err
}

func (s *Server) dream(ctx context.Context, req *mcp.CallToolRequest, in DreamIn) (*mcp.CallToolResult, *app.DreamReport, error) {
	if err := s.opts.Startup.wait(ctx, req); err != nil {
		return nil, nil, toolError(err)
	}
	// Dream plans from the index: it must know a memory remembered a
	// moment before, which a watcher indexes only after a pause (app.Dream
	// syncs now).
	rep, err := s.app.Dream(ctx, app.DreamOptions{DryRun: in.DryRun, Full: in.Full})
	if err != nil {
		return nil, nil, toolError(err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: rep.Summary()}}}, rep, nil
}
