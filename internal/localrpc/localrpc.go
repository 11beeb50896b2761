package localrpc

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
)

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
	Class  int             `json:"class,omitempty"`
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

// Ask asks the server of the vault in dir, if one listens at addr (see
// Address), to run op with
// args (its request, encoded as JSON), and decodes the op's result into
// out (a pointer). answered is false when no server answered: none runs
// (or one of another user's), it did not take the request or answer in
// time, or its answer is over MaxAnswer; the caller then answers in its
// own process. An error the op returned comes back as a *RemoteError; ctx's
// error when it ends.
func Ask(ctx context.Context, addr, dir, op string, args, out any, o AskOptions) (answered bool, err error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return false, err
	}
	conn, err := Dial(ctx, addr)
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
		return true, &RemoteError{Message: ans.Error, Class: ans.Class}
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

// Server answers the requests of the user's other processes about one
// vault.
type Server struct {
	// Vault is the vault's folder: a request for another is left to its
	// client. Addr is where the server listens (see Address).
	Vault, Addr string
	// Takes reports whether the server answers op; a request for another
	// is left to its client, which answers it in its own process.
	Takes func(op string) bool
	// Answer runs op with args (its request as JSON) and returns the
	// result to send, encoded as JSON.
	Answer func(ctx context.Context, op string, args json.RawMessage) (any, error)
	// Class, if set, is the class an error is sent with (see RemoteError).
	Class func(error) int
	// Logf reports what goes wrong; nil discards it.
	Logf func(format string, args ...any)
}

// RemoteError is an error the server's op returned, as a client gets it:
// its message and the class the server gave it (Server.Class).
type RemoteError struct {
	Message string
	Class   int
}

func (e *RemoteError) Error() string { return e.Message }

// Listen answers the requests for s's vault until ctx ends. It returns
// at once (the server runs in the background) with a function that stops
// it and removes the socket. When another process serves the vault
// already, it serves nothing.
func (s Server) Listen(ctx context.Context) (stop func(), err error) {
	logf := s.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	p := s.Addr
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
			answers.Go(func() { s.answer(ctx, conn, logf) })
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
func (s Server) answer(ctx context.Context, conn net.Conn, logf func(string, ...any)) {
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
	if !s.Takes(req.Op) || req.Vault != s.Vault {
		return // not ours to answer: the client answers in process
	}
	conn.SetWriteDeadline(time.Now().Add(requestWait))
	if _, err := conn.Write([]byte{'\n'}); err != nil { // taken: the client waits for the answer now
		return
	}
	var ans answer
	res, err := s.Answer(ctx, req.Op, req.Args)
	if err == nil {
		ans.Result, err = json.Marshal(res)
	}
	if err != nil {
		ans = answer{Error: err.Error()}
		if s.Class != nil {
			ans.Class = s.Class(err)
		}
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
