// Package mcpserver serves a vault to agents over the Model Context
// Protocol (the official Go SDK): typed tools to remember, recall,
// search, read and write notes, follow links and list notes, to work
// through a task tree with a focus per agent, and every note as a
// resource vault:///path. Every write goes through the one
// vault.Writer, so an agent can never overwrite what a human changed
// since the agent read it, nor write outside the vault.
//
// It is a front end beside the CLI, and as thin: each tool turns its
// arguments into a call of one use case of the application (package app:
// recall, remember, search, read, write and walk notes, list, Dream, the
// task and lesson use cases) and its answer into the tool's result. What
// only an agent needs (resources, startup progress, wording errors for an
// agent) lives here. It imports no vaultmem package but app (.ci/run
// checks it), and nothing imports it but cmd/vaultmem.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/app"
)

// Options are what a Server serves. App is required.
type Options struct {
	// App is the opened vault (its index open): every tool calls it.
	App *app.App
	// Startup, if set, is the first sync of the index, still running when
	// the server starts: tools that read the index, and resources/list,
	// wait for it.
	Startup *Startup
	// OnPanic, if set, is told of every panic a request handler recovered
	// from (the request is answered with an internal error; the server
	// goes on).
	OnPanic func(error)
	// OnSyncError, if set, is told of every sync before a read that
	// failed (the read answers from the index as it was); the agent is
	// told too, in the tool's result (see Server.syncFailed).
	OnSyncError func(error)
	// Version is reported to clients.
	Version string
	// Agent is the agent id of this server's tool calls when a call gives
	// none (--agent); "" leaves the choice to app.Config.Agent
	// ($VAULTMEM_AGENT, hooks.agent, the MCP client's name made an id with
	// app.AgentID). New rejects an id app.CheckAgent refuses.
	Agent string
}

// Server is an MCP server of one vault. Make one with New.
type Server struct {
	opts Options
	app  *app.App
	mcp  *mcp.Server
	// inputs are the tools' input schemas by name (see addTool), set by
	// New and only read after.
	inputs map[string]*jsonschema.Schema
	// working is the session's working memory (L1): what recall gave the
	// agent and the notes it read or wrote (see app.WorkingMemory). A
	// server on standard input and output serves one session.
	working app.WorkingMemory
}

// New builds the server and its tools and resources. Errors: a missing
// required option; an Agent that is no agent id (a *task.InvalidError).
func New(o Options) (*Server, error) {
	if o.App == nil || !o.App.HasIndex() {
		return nil, errors.New("mcpserver: an App with its index open is required")
	}
	if o.Agent != "" {
		if err := app.CheckAgent(o.Agent); err != nil {
			return nil, fmt.Errorf("mcpserver: %w", err)
		}
	}
	// The lessons' store opens now, so that a vault whose lessons
	// folder cannot be used fails the server's start, not a tool call.
	if err := o.App.CheckLessons(); err != nil {
		return nil, fmt.Errorf("mcpserver: %w", err)
	}
	version := o.Version
	if version == "" {
		version = "dev"
	}
	s := &Server{opts: o, app: o.App, inputs: map[string]*jsonschema.Schema{},
		mcp: mcp.NewServer(&mcp.Implementation{Name: "vaultmem", Version: version}, &mcp.ServerOptions{
			Instructions: Instructions,
		})}
	// Middleware added later wraps what was added before: panics are
	// recovered in every handler, listResources's and checkArguments's
	// included.
	s.mcp.AddReceivingMiddleware(s.listResources, s.checkArguments, warnSyncFailures)
	s.mcp.AddReceivingMiddleware(recoverPanics(func(p *PanicError) {
		if o.OnPanic != nil {
			o.OnPanic(p)
		}
	}))
	s.addTools()
	s.addPrompts()
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{
		Name: "note", URITemplate: "vault:///{+path}", MIMEType: "text/markdown",
		Description: "A note of the vault, by its vault-relative path (percent-encoded).",
	}, s.readResource)
	s.addLessonHealth()
	return s, nil
}

// Run serves one client over t until it disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	return s.mcp.Run(ctx, t)
}

// listChangedMarker is the URI of a resource added and removed at once to
// make the SDK send notifications/resources/list_changed (see
// NotesChanged); it lies under .vaultmem/, where no note is.
const listChangedMarker = "vault:///.vaultmem/list-changed"

// NotesChanged tells clients that the list of resources changed: notes
// were added, changed or removed; the watcher's batches call it. The list
// itself is read from the index on each resources/list (see
// listResources). The SDK (v1.8.0) sends list_changed only when a
// resource is added or removed through it, so a marker is added and
// removed; the two changes, debounced, make one notification, and
// listResources never shows the marker.
func (s *Server) NotesChanged() {
	s.mcp.AddResource(&mcp.Resource{URI: listChangedMarker, Name: "list-changed"}, s.readResource)
	s.mcp.RemoveResources(listChangedMarker)
}

// listResources is receiving middleware that answers resources/list from
// the index, index.MaxLimit notes a page, each under its URI. Holding a
// resource for every note in the SDK instead cost a resident server ~7 MB
// of heap on a vault of 13,400 notes, twice that in RSS. While the first
// sync runs (see Startup), a list waits for it, with progress
// notifications when the client asked for them: the index of a vault
// never indexed is empty, and an empty list with no cursor would look
// complete.
func (s *Server) listResources(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r, ok := req.(*mcp.ListResourcesRequest)
		if method != "resources/list" || !ok {
			return next(ctx, method, req)
		}
		var cursor string
		var token any
		if r.Params != nil {
			cursor, token = r.Params.Cursor, r.Params.GetProgressToken()
		}
		offset, err := app.ParseCursor(cursor)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		if err := s.opts.Startup.waitFor(ctx, token, r.Session); err != nil {
			return nil, err
		}
		if offset == 0 {
			// Once a listing, at its first page: a sync a page would walk
			// the vault fourteen times to list 13,400 notes.
			if _, err := s.app.Sync(ctx, app.SyncOptions{}); err != nil {
				s.syncFailed(ctx, r.Session, err) // the list answers from the index as it was
			}
		}
		list, err := s.app.Notes().List(ctx, app.ListRequest{Page: app.Page{Offset: offset, Limit: app.MaxLimit}, NoSync: true})
		if err != nil {
			return nil, err
		}
		res := &mcp.ListResourcesResult{Resources: make([]*mcp.Resource, len(list.Notes)), NextCursor: list.Page.NextCursor}
		for i, n := range list.Notes {
			res.Resources[i] = &mcp.Resource{URI: URI(n.Path), Name: n.Path, Title: n.Title, Description: n.Description, MIMEType: "text/markdown"}
		}
		return res, nil
	}
}

// URI is the resource URI of the note at vault path p: vault:/// and the
// path, each name percent-encoded, so that names with '%', '?', '#',
// spaces or emoji make valid URIs that a client normalising them (Node's
// new URL()) gives back unchanged.
func URI(p string) string {
	parts := strings.Split(p, "/")
	for i, part := range parts {
		parts[i] = url.PathEscape(part)
	}
	return "vault:///" + strings.Join(parts, "/")
}

// pathOf returns the vault path a vault:/// URI names, decoded.
func pathOf(u string) (string, bool) {
	p, ok := strings.CutPrefix(u, "vault:///")
	if !ok {
		return "", false
	}
	decoded, err := url.PathUnescape(p)
	return decoded, err == nil
}

// readResource serves vault:///path: the note in the frame (see
// framedNote), as an agent's context holds it.
func (s *Server) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	u := req.Params.URI
	p, ok := pathOf(u)
	if !ok {
		return nil, mcp.ResourceNotFoundError(u)
	}
	n, err := s.app.Notes().Read(ctx, app.ReadNoteRequest{Note: p, PathOnly: true})
	if err != nil {
		return nil, mcp.ResourceNotFoundError(u)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: u, MIMEType: "text/markdown", Text: s.app.Notes().Framed(resourcePreamble, n)}}}, nil
}
