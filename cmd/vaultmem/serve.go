package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"
)

// While `vaultmem watch` or `vaultmem mcp` runs for a vault, it answers the
// read commands a CLI process would otherwise answer by opening the index
// itself (loading vectors, the embedder, the lessons): the CLI sends its
// arguments over a local socket and prints what comes back. The server
// runs the very same command code on its open index, so the answer is the
// one the CLI would have given. When no server runs, or none accepts the
// connection within serverWait, the CLI answers in process; so it does
// when the server does not take the request within the command's
// first-byte wait (a server stopped with kill -STOP, whose connections
// the kernel still accepts), when the answer does not come within
// answerWait, and when it is larger than maxAnswer. The answer is read
// whole before a byte of it is printed: a command that answers in
// process after all prints its answer once.
//
// The server's first byte, a newline, says it has taken the request; it
// sends it before it runs the command, so that however long the command
// takes, a server that is alive is told from one that is not within a few
// milliseconds. The answer, one JSON object, follows.

// served is a command a server answers: its first words, and how long
// the CLI waits for the server to take it before it answers in process (0:
// firstByteWait). A command that must answer within a bound of its own,
// such as a hook's, sets a shorter one.
type served struct {
	words     []string
	firstByte time.Duration
}

// servedCommands are the commands a server answers.
var servedCommands = []served{
	{words: []string{"search"}}, {words: []string{"recall"}}, {words: []string{"show"}},
	{words: []string{"links"}}, {words: []string{"backlinks"}}, {words: []string{"list"}},
	{words: []string{"lesson", "match"}}, {words: []string{"task", "context"}},
}

// serverWait is how long a CLI waits for the server to accept.
const serverWait = 100 * time.Millisecond

// firstByteWait is how long a CLI waits, once connected, for a server to
// take its request (its first byte), unless the command sets its own. A
// live server sends it within milliseconds of the request, even on a busy
// machine; one that has not in half a second is stopped or stuck.
const firstByteWait = 500 * time.Millisecond

// maxAnswer bounds the answer a CLI reads from a server, and a server
// sends: a larger one is answered in process instead, printed as it is
// made rather than held whole in memory. The largest answers commands
// make are far smaller: a recall with the largest budget (100,000 tokens)
// is 1.1 MB with --json, 0.4 MB without, on a vault of 2,900 notes; a
// show --json of a note at the default size limit (10 MiB) some 11 MB.
const maxAnswer = 32 << 20

// closeWait bounds how long a stopping server waits for its listener to
// close.
const closeWait = 2 * time.Second

// answerWait is how long a CLI waits for the server's answer once the
// server has taken its request, unless answerWaitEnv (a Go duration) says
// otherwise: then it answers in its own process, saying so. A served command takes
// milliseconds; a server that takes this long is stuck.
const (
	answerWait    = 30 * time.Second
	answerWaitEnv = "VAULTMEM_SERVER_WAIT"
)

// serverEnv chooses whether a CLI asks a running server: "" (the default)
// when one runs, "off" never, "require" always (failing when none
// answers: to check that one does).
const serverEnv = "VAULTMEM_SERVER"

// maxRequest bounds what a server reads of one request; requestWait how
// long it waits for a client to send its request, and to read the answer.
const (
	maxRequest  = 16 << 20
	requestWait = 30 * time.Second
)

// serveRequest is one command a CLI asks the server to run.
type serveRequest struct {
	Vault string   `json:"vault"`
	Args  []string `json:"args"`
	Stdin string   `json:"stdin,omitempty"`
}

// serveResponse is what the command printed, and its exit code.
type serveResponse struct {
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Code   int    `json:"code"`
}

// servedExit is the exit code of a command a server answered: its output
// is printed already.
type servedExit int

func (e servedExit) Error() string { return fmt.Sprintf("exit %d", int(e)) }

// servedCommand returns the command of args (as in servedCommands) when a
// server may answer it, where its words end in args, and the vault flag's
// value.
func servedCommand(args []string) (vaultDir string, command served, end int, ok bool) {
	var words []string
	for i := 1; i < len(args) && len(words) < 2; i++ {
		a := args[i]
		switch {
		case len(words) > 0: // after the command: its subcommand, or not
			if strings.HasPrefix(a, "-") {
				i = len(args)
				continue
			}
			words = append(words, a)
			end = i + 1
		case a == "--vault" || a == "-vault":
			if i+1 < len(args) {
				vaultDir = args[i+1]
			}
			i++
		case strings.HasPrefix(a, "--vault=") || strings.HasPrefix(a, "-vault="):
			vaultDir = a[strings.Index(a, "=")+1:]
		case a == "-q" || a == "--quiet" || a == "-quiet":
		case strings.HasPrefix(a, "-"):
			return "", served{}, 0, false // a flag of the root that takes us elsewhere (--help)
		default:
			words = append(words, a)
			end = i + 1
		}
	}
	for _, c := range servedCommands {
		if len(words) >= len(c.words) && slices.Equal(words[:len(c.words)], c.words) {
			if len(c.words) == 1 && len(words) == 2 {
				end-- // a one-word command: the second word was its argument
			}
			return vaultAfter(args[end:], vaultDir), c, end, true
		}
	}
	return "", served{}, 0, false
}

// vaultAfter returns the vault flag's value among a command's arguments
// (the root's flags may follow the command: `vaultmem recall --vault DIR
// ...`), the last one given, else vaultDir; "--" ends the flags.
func vaultAfter(args []string, vaultDir string) string {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return vaultDir
		case (a == "--vault" || a == "-vault") && i+1 < len(args):
			vaultDir = args[i+1]
			i++
		case strings.HasPrefix(a, "--vault=") || strings.HasPrefix(a, "-vault="):
			vaultDir = a[strings.Index(a, "=")+1:]
		}
	}
	return vaultDir
}

// askServer sends the command to the vault's running server, if it is one
// a server answers and one accepts in time, and prints its answer, once
// it has it whole; answered is false when the command must run in process
// (no server, or one that did not take the request or answer in time, or
// whose answer is over maxAnswer), which then reads its standard input
// from rest (what askServer read of stdin, if anything, then the
// remainder).
func askServer(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (answered bool, rest io.Reader, err error) {
	rest = stdin
	mode := os.Getenv(serverEnv)
	if mode == "off" {
		return false, rest, nil
	}
	flagVault, command, end, ok := servedCommand(args)
	if !ok {
		return false, rest, nil
	}
	if mode == "require" {
		defer func() {
			if !answered {
				answered, err = true, fmt.Errorf("%s=require, but no vaultmem server answered (run 'vaultmem watch' or 'vaultmem mcp' for this vault)", serverEnv)
			}
		}()
	}
	hasAgent := slices.ContainsFunc(args, func(a string) bool { return a == "--agent" || strings.HasPrefix(a, "--agent=") })
	if agent := os.Getenv("VAULTMEM_AGENT"); agent != "" && !hasAgent && (command.words[0] == "recall" || command.words[0] == "task") {
		// The server has its own environment: the agent goes as a flag.
		args = slices.Insert(slices.Clone(args), end, "--agent="+agent)
	}
	a := &app{vaultFlag: flagVault}
	if a.vaultFlag == "" {
		a.vaultFlag = os.Getenv("VAULTMEM_VAULT")
	}
	dir, err := a.findVault()
	if err != nil {
		return false, rest, nil // the command says why, in process
	}
	conn, err := dialServer(ctx, serverAddress(dir))
	if err != nil {
		return false, rest, nil
	}
	defer conn.Close()
	req := serveRequest{Vault: dir, Args: args}
	if slices.Contains(args, "--hook") { // lesson match --hook reads the hook's JSON
		b, err := io.ReadAll(io.LimitReader(stdin, maxRequest/2))
		rest = io.MultiReader(bytes.NewReader(b), stdin)
		if err != nil {
			return false, rest, nil
		}
		req.Stdin = string(b)
	}
	wait := answerWait
	if d, err := time.ParseDuration(os.Getenv(answerWaitEnv)); err == nil && d > 0 {
		wait = d
	}
	firstByte := command.firstByte
	switch {
	case mode == "require":
		firstByte = wait // to check that a server answers: it may take its time
	case firstByte <= 0:
		firstByte = firstByteWait
	}
	// The request is sent, and taken, within firstByte: a stopped server
	// takes neither (one larger than the socket's buffer would block).
	conn.SetDeadline(time.Now().Add(firstByte))
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	defer stop()
	in := bufio.NewReader(conn)
	err = json.NewEncoder(conn).Encode(req)
	if err == nil {
		_, err = in.Peek(1)
	}
	if err != nil {
		if ctx.Err() != nil {
			return true, rest, ctx.Err()
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			fmt.Fprintf(stderr, "vaultmem: the vault's server did not take the request within %v; answering here\n", firstByte)
		}
		return false, rest, nil // the server went away or is stopped: answer in process
	}
	conn.SetReadDeadline(time.Now().Add(wait))
	if ctx.Err() != nil { // ended before the deadline above: not to be waited for
		return true, rest, ctx.Err()
	}
	answer := &io.LimitedReader{R: in, N: maxAnswer + 1}
	var resp serveResponse
	if err := json.NewDecoder(answer).Decode(&resp); err != nil {
		switch {
		case ctx.Err() != nil:
			return true, rest, ctx.Err()
		case answer.N <= 0:
			fmt.Fprintf(stderr, "vaultmem: the vault's server's answer is over %d MiB; answering here\n", maxAnswer>>20)
		case errors.Is(err, os.ErrDeadlineExceeded):
			fmt.Fprintf(stderr, "vaultmem: the vault's server did not answer within %v (%s); answering here\n", wait, answerWaitEnv)
		}
		return false, rest, nil // the server went away or is stuck: answer in process
	}
	io.WriteString(stdout, resp.Stdout)
	io.WriteString(stderr, resp.Stderr)
	if resp.Code == exitOK {
		return true, rest, nil
	}
	return true, rest, servedExit(resp.Code)
}

// serveQueries answers the commands CLI processes send for the vault of s,
// on its open index, until ctx ends; logf reports what goes wrong. It
// returns at once (the server runs in the background) with a function that
// stops it and removes the socket. When another process serves the vault
// already, it serves nothing.
func serveQueries(ctx context.Context, s *session, logf func(string, ...any)) (stop func(), err error) {
	p := serverAddress(s.v.Dir)
	if c, err := dialServer(ctx, p); err == nil {
		c.Close()
		return func() {}, nil // another process serves this vault
	}
	l, err := listenServer(p)
	if err != nil {
		return func() {}, fmt.Errorf("serve queries on %s: %w", p, err)
	}
	shared := &session{v: s.v, cfg: s.cfg, stderr: s.stderr, ix: s.ix, shared: true, lessonStore: &lessonCache{}}
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
			answers.Go(func() { answer(ctx, conn, shared, logf) })
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

// answer runs one command a CLI sent, and sends back what it printed.
func answer(ctx context.Context, conn net.Conn, shared *session, logf func(string, ...any)) {
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	defer stop()
	// A client that connects and sends nothing (or never reads) does not
	// keep the goroutine: it has this long to send, then to read.
	conn.SetReadDeadline(time.Now().Add(requestWait))
	var req serveRequest
	if err := json.NewDecoder(io.LimitReader(conn, maxRequest)).Decode(&req); err != nil {
		if !errors.Is(err, io.EOF) { // EOF: a connection that only checked we serve (another server starting)
			logf("serve queries: a bad request: %v", err)
		}
		return
	}
	if _, _, _, ok := servedCommand(req.Args); !ok || req.Vault != shared.v.Dir {
		return // not ours to answer: the CLI answers in process
	}
	conn.SetWriteDeadline(time.Now().Add(requestWait))
	if _, err := conn.Write([]byte{'\n'}); err != nil { // taken: the CLI waits for the answer now
		return
	}
	var out, errb bytes.Buffer
	err := runIn(ctx, req.Args, strings.NewReader(req.Stdin), &out, &errb, shared)
	code := report(err, &errb)
	b, err := json.Marshal(serveResponse{Stdout: out.String(), Stderr: errb.String(), Code: code})
	if err != nil {
		logf("serve queries: answer: %v", err)
		return
	}
	if len(b) > maxAnswer {
		return // the CLI answers in process, and prints as it goes
	}
	conn.SetWriteDeadline(time.Now().Add(requestWait))
	if _, err := conn.Write(append(b, '\n')); err != nil {
		logf("serve queries: answer: %v", err)
	}
}

// longRunning tunes the garbage collector for a process that keeps the
// index in memory for hours (watch, mcp): a collection when the heap grew
// by a quarter of what is live, not by all of it, keeps its memory near
// what it holds, for a little more CPU. On a vault of 13,400 notes,
// `vaultmem mcp` with a new memory every 100 requests: 135-138 MB RSS at
// GOGC 25, 143-146 at 35, 153-157 at 50; BenchmarkRecall's p50 is 3-5 %
// higher at 25 than at 50 (see BENCHMARKS.md). A memory limit that
// follows the live heap reached the same RSS but doubled the p50 of
// recalls run back to back. A cold index in such a process runs at the
// default pace under its own bound (see index's boundHeap). A GOGC set
// in the environment is kept.
func longRunning() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(25)
	}
}

// oneShotQuery tunes the garbage collector for a query answered in this
// process (one of servedCommands, with no server running): it walks the
// vault and searches for tens of milliseconds, and at the default pace it
// collects two or three times on the way, for a heap of tens of
// megabytes. GOGC 400 lets the heap grow to five times what is live
// before a collection, and a memory limit of 160 MiB brings collections
// back as it nears that, for the few queries that hold more (a recall
// with a budget of 100,000 tokens). On a vault of 13,400 notes a whole
// `vaultmem recall` took 0.99 times as long as `rg -l -i` against 1.03 at
// the default pace, its peak RSS 55 MB against 45; the largest recall
// 178-218 MB against 154-226, and at 50,000 notes no slower. A cold
// index within the command bounds the heap its own way meanwhile (index's
// boundHeap). A GOGC or GOMEMLIMIT set in the environment is kept.
func oneShotQuery() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(400)
		debug.SetMemoryLimit(160 << 20)
	}
}
