package app

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"

	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/task"
)

// While a long-running process (watch, mcp) holds a vault, it answers the
// read use cases for the CLI processes and hooks of this machine over a
// local socket (a named pipe on Windows): search, recall, show, links,
// list, lesson matching, a task's context. They are answered on its open
// index (its keyword index and vectors in memory, its lessons' hot cache)
// by the same App methods a front end calls in process, so the answer is
// the one the front end would have made itself.
//
// The protocol: the client sends one JSON request {vault, op, args}; the
// server sends one newline as soon as it has taken it (before it runs the
// op, so that however long the op takes, a live server is told from a
// stopped one within milliseconds), then one JSON answer {result} or
// {error, class}. A client answers in process when no server accepts
// within serverWait, when none takes the request within its first-byte
// wait (a server stopped with kill -STOP, whose connections the kernel
// still accepts), when the answer does not come within its wait, and when
// it is larger than MaxAnswer.

// Op is one op a server answers for a client: its name on the wire and
// the use case it runs, typed by its request and its result, so that a
// client's call (Ask) and the server's answer (Handle) cannot disagree on
// either. The ops are the variables below; a server answers those in
// handlers.
type Op[Req, Res any] struct {
	Name string
	Run  func(*App, context.Context, Req) (Res, error)
}

// The ops a server answers (see Handle).
var (
	OpSearch  = Op[SearchRequest, Search]{"search", (*App).Search}
	OpRecall  = Op[RecallRequest, *recall.Result]{"recall", (*App).RecallFresh}
	OpShow    = Op[NoteRequest, NoteView]{"show", (*App).Show}
	OpLinks   = Op[LinksRequest, Links]{"links", (*App).Links}
	OpList    = Op[ListRequest, List]{"list", (*App).List}
	OpMatch   = Op[MatchRequest, lesson.Result]{"lessons.match", (*App).MatchLessons}
	OpContext = Op[ContextRequest, task.Context]{"tasks.context", (*App).TaskContext}
	OpHook    = Op[HookEvent, HookAnswer]{"hook", (*App).Hook}
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
		{OpContext.Name, OpContext.handle}, {OpHook.Name, OpHook.handle},
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

// Bounds of the protocol.
const (
	// serverWait is how long a client waits for a server to accept.
	serverWait = 100 * time.Millisecond
	// DefaultFirstByte is how long a client waits, once connected, for a
	// server to take its request, unless it sets its own. A live server
	// takes it within milliseconds, even on a busy machine; one that has
	// not in half a second is stopped or stuck.
	DefaultFirstByte = 500 * time.Millisecond
	// DefaultWait is how long a client waits for the answer once the
	// server took the request: an op takes milliseconds, and a server
	// that takes this long is stuck.
	DefaultWait = 30 * time.Second
	// MaxAnswer bounds the answer a client reads and a server sends: a
	// larger one is made in the client's process instead. The largest
	// answers are far smaller: a recall with the largest budget (100,000
	// tokens) is 1.1 MB on a vault of 2,900 notes; a show of a note at the
	// default size limit (10 MiB) some 11 MB.
	MaxAnswer = 32 << 20
	// maxRequest bounds what a server reads of one request; requestWait
	// is how long it waits for a client to send it, and to read the
	// answer.
	maxRequest  = 16 << 20
	requestWait = 30 * time.Second
	// closeWait bounds how long a stopping server waits for its listener
	// to close.
	closeWait = 2 * time.Second
)

// request is one op a client asks of a server.
type request struct {
	Vault string          `json:"vault"`
	Op    string          `json:"op"`
	Args  json.RawMessage `json:"args"`
}

// answer is an op's result, or its error and the error's class.
type answer struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
	Class  Class           `json:"class,omitempty"`
}

// AskOptions say how long a client waits for a server. The zero value
// works.
type AskOptions struct {
	// FirstByte is how long to wait for the server to take the request
	// (0: DefaultFirstByte): a hook, which must answer within a bound of
	// its own, sets a shorter one.
	FirstByte time.Duration
	// Wait is how long to wait for the answer once taken (0: DefaultWait).
	Wait time.Duration
	// Notify, if set, is told why a server that was there did not answer.
	Notify func(msg string)
	// OnceTaken is for an op that writes, which must not run twice: once
	// the server took the request, an answer that does not come within
	// Wait is ErrUnanswered, not a cue to answer in process.
	OnceTaken bool
}

// ErrUnanswered is Ask's error when the server took a request asked with
// OnceTaken but did not answer it in time.
var ErrUnanswered = errors.New("the vault's server took the request but did not answer in time")

// Ask asks the server of the vault in dir, if one runs, to run op for
// req, and returns its result. answered is false
// when no server answered: none runs (or one of another user's), it did
// not take the request or answer in time, or its answer is over
// MaxAnswer; the caller then answers in its own process. An error the op
// returned comes back as a *ClassError of its class; ctx's error when it
// ends.
func Ask[Req, Res any](ctx context.Context, dir string, op Op[Req, Res], req Req, o AskOptions) (res Res, answered bool, err error) {
	answered, err = ask(ctx, dir, op.Name, req, &res, o)
	return res, answered, err
}

// ask is Ask for an op by name, its request args and its result out.
func ask(ctx context.Context, dir, op string, args, out any, o AskOptions) (answered bool, err error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return false, err
	}
	conn, err := Dial(ctx, ServerAddress(dir))
	if err != nil {
		return false, nil
	}
	defer conn.Close()
	firstByte, wait := o.FirstByte, o.Wait
	if firstByte <= 0 {
		firstByte = DefaultFirstByte
	}
	if wait <= 0 {
		wait = DefaultWait
	}
	notify := func(format string, args ...any) {
		if o.Notify != nil {
			o.Notify(fmt.Sprintf(format, args...))
		}
	}
	// The request is sent, and taken, within firstByte: a stopped server
	// takes neither (one larger than the socket's buffer would block).
	conn.SetDeadline(time.Now().Add(firstByte))
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	defer stop()
	in := bufio.NewReader(conn)
	err = json.NewEncoder(conn).Encode(request{Vault: dir, Op: op, Args: raw})
	if err == nil {
		_, err = in.Peek(1)
	}
	if err != nil {
		if ctx.Err() != nil {
			return true, ctx.Err()
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			notify("the vault's server did not take the request within %v; answering here", firstByte)
		}
		return false, nil // the server went away or is stopped
	}
	conn.SetReadDeadline(time.Now().Add(wait))
	if ctx.Err() != nil { // ended before the deadline above: not to be waited for
		return true, ctx.Err()
	}
	limited := &io.LimitedReader{R: in, N: MaxAnswer + 1}
	var ans answer
	if err := json.NewDecoder(limited).Decode(&ans); err != nil {
		switch {
		case ctx.Err() != nil:
			return true, ctx.Err()
		case past(ctx):
			// ctx's deadline passed, and the read's with it, before ctx
			// said so: the caller's bound, not the server, ended it.
			return true, context.DeadlineExceeded
		case o.OnceTaken:
			return true, ErrUnanswered
		case limited.N <= 0:
			notify("the vault's server's answer is over %d MiB; answering here", MaxAnswer>>20)
		case errors.Is(err, os.ErrDeadlineExceeded):
			notify("the vault's server did not answer within %v; answering here", wait)
		}
		return false, nil // the server went away or is stuck
	}
	if ans.Error != "" || ans.Result == nil {
		if ans.Error == "" && o.OnceTaken {
			return true, ErrUnanswered
		}
		if ans.Error == "" {
			return false, nil // a server that answered nothing: not ours
		}
		return true, &ClassError{Class: ans.Class, Err: errors.New(ans.Error)}
	}
	if err := json.Unmarshal(ans.Result, out); err != nil {
		if o.OnceTaken {
			return true, fmt.Errorf("the vault's server answered what this build cannot read: %w", err)
		}
		return false, nil // not what this build expects: answer here
	}
	return true, nil
}

// past reports whether ctx's deadline has passed.
func past(ctx context.Context) bool {
	d, ok := ctx.Deadline()
	return ok && !time.Now().Before(d)
}

// listen answers the ops of CLI processes and hooks for a's vault, until
// ctx ends; logf reports what goes wrong. It returns at once (the server
// runs in the background) with a function that stops it and removes the
// socket. When another process serves the vault already, it serves
// nothing.
func (a *App) listen(ctx context.Context, logf func(string, ...any)) (stop func(), err error) {
	p := ServerAddress(a.Vault.Dir)
	if c, err := Dial(ctx, p); err == nil {
		c.Close()
		return func() {}, nil // another process serves this vault
	}
	l, err := Listen(p)
	if err != nil {
		return func() {}, fmt.Errorf("serve queries on %s: %w", p, err)
	}
	var (
		answers sync.WaitGroup
		mu      sync.Mutex
		stopped bool // no more answers once set
	)
	ctx, cancel := context.WithCancel(ctx)
	accepting := make(chan struct{})
	go func() {
		defer close(accepting)
		for {
			conn, err := l.Accept()
			if err != nil {
				if ctx.Err() == nil && !errors.Is(err, net.ErrClosed) {
					logf("serve queries: %v", err)
				}
				return
			}
			mu.Lock()
			if stopped {
				mu.Unlock()
				conn.Close()
				return
			}
			answers.Go(func() { a.answer(ctx, conn, logf) })
			mu.Unlock()
		}
	}()
	return func() {
		cancel()
		// Closing a named pipe's listener can hang while a connection
		// is being made (go-winio issue 357): the process does not wait
		// on it for more than closeWait.
		go l.Close()
		select {
		case <-accepting:
		case <-time.After(closeWait):
			logf("serve queries: the listener did not close within %v", closeWait)
		}
		mu.Lock()
		stopped = true
		mu.Unlock()
		answers.Wait()
	}, nil
}

// answer runs the op a client sent, and sends back its result.
func (a *App) answer(ctx context.Context, conn net.Conn, logf func(string, ...any)) {
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	defer stop()
	// A client that connects and sends nothing (or never reads) does not
	// keep the goroutine: it has this long to send, then to read.
	conn.SetReadDeadline(time.Now().Add(requestWait))
	var req request
	if err := json.NewDecoder(io.LimitReader(conn, maxRequest)).Decode(&req); err != nil {
		if !errors.Is(err, io.EOF) { // EOF: a connection that only checked we serve (another server starting)
			logf("serve queries: a bad request: %v", err)
		}
		return
	}
	if _, ok := handlers[req.Op]; !ok || req.Vault != a.Vault.Dir {
		return // not ours to answer: the client answers in process
	}
	conn.SetWriteDeadline(time.Now().Add(requestWait))
	if _, err := conn.Write([]byte{'\n'}); err != nil { // taken: the client waits for the answer now
		return
	}
	var ans answer
	res, err := a.Handle(ctx, req.Op, req.Args)
	if err == nil {
		ans.Result, err = json.Marshal(res)
	}
	if err != nil {
		ans = answer{Error: err.Error(), Class: ClassOf(err)}
	}
	b, err := json.Marshal(ans)
	if err != nil {
		logf("serve queries: answer: %v", err)
		return
	}
	if len(b) > MaxAnswer {
		return // the client answers in process
	}
	conn.SetWriteDeadline(time.Now().Add(requestWait))
	if _, err := conn.Write(append(b, '\n')); err != nil {
		logf("serve queries: answer: %v", err)
	}
}
