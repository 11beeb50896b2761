package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/vaultmem/vaultmem/internal/localrpc"

	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/vault"
)

// While a long-running process (watch, mcp) holds a vault, it answers the
// read use cases for the CLI processes and hooks of this machine over a
// local socket (package localrpc): search, recall, show, links, list,
// lesson matching, a task's context, a hook's event. They are answered on
// its open index (its keyword index and vectors in memory, its lessons'
// hot cache) by the same use cases a front end runs in process, so the
// answer is the one the front end would have made itself.

// Op is one op a server answers for a client: its name on the wire and
// the use case it runs, typed by its request and its result, so that a
// client's call (Ask) and the server's answer (Handle) cannot disagree on
// either. The ops are the variables below; a server answers those in
// handlers.
type Op[Req, Res any] struct {
	Name string
	Run  func(*App, context.Context, Req) (Res, error)
}

// opOf is the op named name of use case f of the group of use cases
// group gives (App.Notes, App.Tasks, ...).
func opOf[G, Req, Res any](name string, group func(*App) G, f func(G, context.Context, Req) (Res, error)) Op[Req, Res] {
	return Op[Req, Res]{name, func(a *App, ctx context.Context, req Req) (Res, error) { return f(group(a), ctx, req) }}
}

// The ops a server answers (see Handle).
var (
	OpSearch  = opOf("search", (*App).Notes, Notes.Search)
	OpRecall  = Op[RecallRequest, *recall.Result]{"recall", (*App).RecallFresh}
	OpShow    = opOf("show", (*App).Notes, Notes.Show)
	OpLinks   = opOf("links", (*App).Notes, Notes.Links)
	OpList    = opOf("list", (*App).Notes, Notes.List)
	OpMatch   = opOf("lessons.match", (*App).Lessons, Lessons.Match)
	OpContext = opOf("tasks.context", (*App).Tasks, Tasks.Context)
	OpHook    = Op[HookEvent, HookAnswer]{"hook", (*App).Hook}
	// OpLessonHealth is answered live only by a server: a client that
	// answers it in its own process gets the outcome log's part alone.
	OpLessonHealth = opOf("lessons.health", (*App).Lessons, Lessons.Health)
)

// handlers are the ops a server answers, by name.
var handlers = map[string]func(context.Context, *App, json.RawMessage) (any, error){}

func init() {
	for _, h := range []struct {
		name   string
		handle func(context.Context, *App, json.RawMessage) (any, error)
	}{
		{OpSearch.Name, OpSearch.handle}, {OpRecall.Name, OpRecall.handle}, {OpShow.Name, OpShow.handle},
		{OpLinks.Name, OpLinks.handle}, {OpList.Name, OpList.handle}, {OpMatch.Name, OpMatch.handle},
		{OpContext.Name, OpContext.handle}, {OpHook.Name, OpHook.handle}, {OpLessonHealth.Name, OpLessonHealth.handle},
	} {
		handlers[h.name] = h.handle
	}
}

// handle runs op on a for its request as JSON.
func (op Op[Req, Res]) handle(ctx context.Context, a *App, raw json.RawMessage) (any, error) {
	var req Req
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, invalid(fmt.Errorf("a request of %T: %w", req, err))
	}
	return op.Run(a, ctx, req)
}

// Handle runs op with args (its request, as JSON) on a: what a server
// does for a client. Errors: an Invalid error for an op it does not know
// or a request that does not decode; the op's.
func (a *App) Handle(ctx context.Context, op string, args json.RawMessage) (any, error) {
	h, ok := handlers[op]
	if !ok {
		return nil, invalid(fmt.Errorf("no op %q", op))
	}
	return h(ctx, a, args)
}

// The client's bounds and options, and the transport's addresses: see
// package localrpc.
const (
	DefaultFirstByte = localrpc.DefaultFirstByte
	DefaultWait      = localrpc.DefaultWait
	MaxAnswer        = localrpc.MaxAnswer
)

type (
	// AskOptions say how long a client waits for a server.
	AskOptions = localrpc.AskOptions
)

var (
	// ErrUnanswered is Ask's error when the server took a request asked
	// with OnceTaken but did not answer it in time.
	ErrUnanswered = localrpc.ErrUnanswered
	// Dial connects to a server's socket, if it is this user's.
	Dial = localrpc.Dial
	// Listen makes a server's socket that only this user can reach.
	Listen = localrpc.Listen
)

// ServerAddress is the socket of the server of the vault in folder dir
// (see localrpc.Address): in the vault's temporary folder when it may be.
func ServerAddress(dir string) string {
	return localrpc.Address(dir, filepath.Join(dir, filepath.FromSlash(vault.TmpDir)))
}

// Ask asks the server of the vault in dir, if one runs, to run op for
// req, and returns its result. answered is false when no server answered
// (see localrpc.Ask): the caller then answers in its own process. An
// error the op returned comes back as a *ClassError of its class; ctx's
// error when it ends.
func Ask[Req, Res any](ctx context.Context, dir string, op Op[Req, Res], req Req, o AskOptions) (res Res, answered bool, err error) {
	answered, err = ask(ctx, dir, op.Name, req, &res, o)
	return res, answered, err
}

// ask is Ask for an op by name, its request args and its result out.
func ask(ctx context.Context, dir, op string, args, out any, o AskOptions) (bool, error) {
	answered, err := localrpc.Ask(ctx, ServerAddress(dir), dir, op, args, out, o)
	var re *localrpc.RemoteError
	if errors.As(err, &re) {
		err = &ClassError{Class: Class(re.Class), Err: errors.New(re.Message)}
	}
	return answered, err
}

// listen answers the ops of CLI processes and hooks for a's vault, until
// ctx ends (see localrpc.Server.Listen).
func (a *App) listen(ctx context.Context, logf func(string, ...any)) (stop func(), err error) {
	return localrpc.Server{
		Vault:  a.Vault.Dir,
		Addr:   ServerAddress(a.Vault.Dir),
		Takes:  func(op string) bool { _, ok := handlers[op]; return ok },
		Answer: a.Handle,
		Class:  func(err error) int { return int(ClassOf(err)) },
		Logf:   logf,
	}.Listen(ctx)
}
