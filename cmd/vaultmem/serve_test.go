package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/app"
)

// TestServedAnswersAsInProcess: while a watcher runs, the read commands
// are answered by it (VAULTMEM_SERVER=require proves it), and print what
// they print in their own process, errors and exit codes included.
func TestServedAnswersAsInProcess(t *testing.T) {
	dir := newVault(t)
	// Recall's stages run to their end: the same question, the same answer
	// however busy the machine (else a stage cut short differs).
	cfg := filepath.Join(dir, ".vaultmem", "config.yaml")
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(strings.Replace(string(b), "  # stage_deadlines: true", "  stage_deadlines: false", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	ok(t, dir, "remember", "--type", "feedback", "--name", "Use pnpm", "--description", "The user wants pnpm", "Always use pnpm, not npm. See [[Build notes]].")
	if err := os.WriteFile(filepath.Join(dir, "Build notes.md"), []byte("# Build notes\n\nThe build uses pnpm and vite. #build\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok(t, dir, "task", "add", "Ship search", "--description", "Full-text search.")
	ok(t, dir, "task", "start", "Ship search", "--agent", "claude")
	ok(t, dir, "lesson", "add", "Pin versions", "--trigger", "add a dependency", "--action-bias", "pin the version")
	ok(t, dir, "index")

	w := startWatch(t, dir)
	addr := app.ServerAddress(dir)
	waitForServer(t, addr, w)
	if err := ownerOnly(addr); err != nil {
		t.Error(err)
	}
	for _, args := range [][]string{
		{"search", "pnpm"},
		{"search", "--json", "--mode", "keyword", "pnpm"},
		{"recall", "what package manager does the user want?"},
		{"show", "Build notes"},
		{"show", "--json", "memory/use-pnpm.md"},
		{"links", "memory/use-pnpm.md"},
		{"backlinks", "Build notes"},
		{"list", "--type", "feedback"},
		{"lesson", "match", "add", "a", "dependency"},
		{"task", "context"},
		{"show", "No such note"},
		{"search", "???"},
	} {
		env := []string{"VAULTMEM_AGENT=claude"}
		here := vaultmemEnv(t, dir, "", append(env, "VAULTMEM_SERVER=off"), args...)
		served := vaultmemEnv(t, dir, "", append(env, "VAULTMEM_SERVER=require"), args...)
		if served != here {
			t.Errorf("%v\nserved:     %d %q %q\nin process: %d %q %q", args, served.code, served.stdout, served.stderr, here.code, here.stdout, here.stderr)
		}
	}
	// The vault flag after the command, run from outside the vault.
	elsewhere := t.TempDir()
	after := []string{"search", "--vault", dir, "pnpm"}
	inProcess := vaultmemEnv(t, elsewhere, "", []string{"VAULTMEM_SERVER=off"}, after...)
	if served := vaultmemEnv(t, elsewhere, "", []string{"VAULTMEM_SERVER=require"}, after...); served != inProcess || inProcess.code != 0 {
		t.Errorf("%v\nserved:     %d %q %q\nin process: %d %q %q", after, served.code, served.stdout, served.stderr, inProcess.code, inProcess.stdout, inProcess.stderr)
	}
	// Garbage, a request for another vault and a client that goes away:
	// the server answers the next request all the same.
	for _, junk := range []string{"not json\n", `{"vault": "/elsewhere", "args": ["vaultmem", "search", "x"]}` + "\n", ""} {
		c, err := app.Dial(t.Context(), addr)
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(junk))
		c.Close()
	}
	// Several at once: the server answers each on its own command tree.
	want := vaultmemEnv(t, dir, "", []string{"VAULTMEM_SERVER=off"}, "search", "--json", "pnpm")
	var wg sync.WaitGroup
	got := make([]result, 8)
	for i := range got {
		wg.Go(func() {
			got[i] = vaultmemEnv(t, dir, "", []string{"VAULTMEM_SERVER=require"}, "search", "--json", "pnpm")
		})
	}
	wg.Wait()
	for i, r := range got {
		if r != want {
			t.Errorf("concurrent request %d: %+v, want %+v", i, r, want)
		}
	}
	hook := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"pnpm add zod","description":"add a dependency"}}`
	here := vaultmemEnv(t, dir, hook, []string{"VAULTMEM_SERVER=off"}, "lesson", "match", "--hook")
	served := vaultmemEnv(t, dir, hook, []string{"VAULTMEM_SERVER=require"}, "lesson", "match", "--hook")
	if served != here || !strings.Contains(served.stdout, "pin the version") {
		t.Errorf("hook: served %+v, in process %+v", served, here)
	}

	w.stop()
	if c, err := app.Dial(t.Context(), addr); err == nil {
		c.Close()
		t.Errorf("%s still answers after the watcher stopped", addr)
	}
	if _, err := os.Stat(addr); err == nil && runtime.GOOS != "windows" {
		t.Errorf("socket %s left behind", addr)
	}
	if r := vaultmemEnv(t, dir, "", []string{"VAULTMEM_SERVER=require"}, "search", "pnpm"); r.code != 1 || !strings.Contains(r.stderr, "no vaultmem server answered") {
		t.Errorf("require without a server: %+v", r)
	}
	if r := vaultmem(t, dir, "", "search", "pnpm"); r.code != 0 || !strings.Contains(r.stdout, "use-pnpm") {
		t.Errorf("without a server: %+v", r)
	}
}

// waitForServer waits until the watcher w serves at addr.
func waitForServer(t *testing.T, addr string, w *watchProc) {
	t.Helper()
	for i := 0; ; i++ {
		if c, err := app.Dial(t.Context(), addr); err == nil {
			c.Close()
			return
		}
		if i == 3000 {
			t.Fatalf("no server at %s; the watcher said:\n%s", addr, w.output())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// acceptEach accepts connections on l until it closes, each handed to
// handle (which closes it, or keeps it); the channel closes when l did.
func acceptEach(l net.Listener, handle func(net.Conn)) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			handle(c)
		}
	}()
	return done
}

// TestServerThatDropsTheRequest: a socket that takes the request and
// closes without an answer leaves the command to answer in process, with
// the standard input it had already read (a hook's JSON).
func TestServerThatDropsTheRequest(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "lesson", "add", "Pin versions", "--trigger", "add a dependency", "--action-bias", "pin the version")
	l, err := app.Listen(app.ServerAddress(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	acceptEach(l, func(c net.Conn) {
		c.Read(make([]byte, 1<<16))
		c.Close()
	})
	hook := `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"pnpm add zod","description":"add a dependency"}}`
	if r := vaultmem(t, dir, hook, "lesson", "match", "--hook"); r.code != 0 || !strings.Contains(r.stdout, "pin the version") {
		t.Errorf("hook after a dropped request: %+v", r)
	}
}

// hangGuard is how long vaultmemGuarded lets a command run: far longer
// than any command here takes, so that a command that hangs fails the
// test instead of stalling it. It measures no speed.
const hangGuard = 20 * time.Second

// vaultmemGuarded is vaultmemEnv for a command that might hang: one still
// running after hangGuard is killed, and the test fails.
func vaultmemGuarded(t *testing.T, dir, stdin string, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), hangGuard)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "VAULTMEM_RUN_MAIN=1", "VAULTMEM_VAULT="), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("vaultmem %v still ran after %v: it hangs", args, hangGuard)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

// fakeServer listens at the server's address of the vault dir, as a
// server would, and hands each connection to handle on its own
// goroutine; connections are closed when the test ends.
func fakeServer(t *testing.T, dir string, handle func(net.Conn)) {
	t.Helper()
	l, err := app.Listen(app.ServerAddress(dir))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	var wg sync.WaitGroup
	done := acceptEach(l, func(c net.Conn) {
		mu.Lock()
		conns = append(conns, c)
		mu.Unlock()
		wg.Go(func() { handle(c) })
	})
	t.Cleanup(func() {
		l.Close()
		<-done
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
}

// TestServerThatNeverAnswers: a socket that accepts (or a stopped server,
// whose connections the kernel accepts) and never takes the request
// leaves the command to answer in process once the first-byte deadline
// has passed, saying so: it does not wait for the answer's own bound.
func TestServerThatNeverAnswers(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "remember", "--type", "feedback", "--name", "Use pnpm", "--description", "The user wants pnpm", "Always", "use", "pnpm.")
	fakeServer(t, dir, func(c net.Conn) {}) // held open, unread, until the test ends
	r := vaultmemGuarded(t, dir, "", []string{"VAULTMEM_SERVER_WAIT=1h"}, "search", "pnpm")
	if r.code != 0 || !strings.Contains(r.stdout, "use-pnpm") || !strings.Contains(r.stderr, "did not take the request within") {
		t.Errorf("search beside a server that never answers: %+v", r)
	}
}

// TestServerThatTakesTheRequestAndNeverAnswers: a server that took the
// request (its first byte came) and never answers leaves the command to
// answer in process once VAULTMEM_SERVER_WAIT has passed, saying so.
func TestServerThatTakesTheRequestAndNeverAnswers(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "remember", "--type", "feedback", "--name", "Use pnpm", "--description", "The user wants pnpm", "Always", "use", "pnpm.")
	fakeServer(t, dir, func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		c.Write([]byte("\n"))
	})
	r := vaultmemGuarded(t, dir, "", []string{"VAULTMEM_SERVER_WAIT=200ms"}, "search", "pnpm")
	if r.code != 0 || !strings.Contains(r.stdout, "use-pnpm") || !strings.Contains(r.stderr, "did not answer within 200ms") {
		t.Errorf("search beside a server that never answers: %+v", r)
	}
}

// TestServerAnswerOverTheBound: an answer larger than any the CLI takes
// (a server gone wrong streaming one endless string, or just a huge one)
// is not read to its end: the command answers in process, saying so, and
// prints only its own answer, once.
func TestServerAnswerOverTheBound(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "remember", "--type", "feedback", "--name", "Use pnpm", "--description", "The user wants pnpm", "Always", "use", "pnpm.")
	want := vaultmemEnv(t, dir, "", []string{"VAULTMEM_SERVER=off"}, "search", "pnpm")
	chunk := bytes.Repeat([]byte("a"), 64<<10)
	for _, tt := range []struct {
		name   string
		chunks int // -1: endless
	}{
		{"endless", -1},
		{"over the bound", app.MaxAnswer/len(chunk) + 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := dir
			fakeServer(t, dir, func(c net.Conn) {
				bufio.NewReader(c).ReadString('\n')
				c.Write([]byte(`{"stdout":"`))
				for i := 0; i != tt.chunks; i++ {
					if _, err := c.Write(chunk); err != nil {
						return // the CLI hung up
					}
				}
				c.Write([]byte("\",\"code\":0}\n"))
				c.Close()
			})
			r := vaultmemGuarded(t, dir, "", nil, "search", "pnpm")
			if r.code != 0 || r.stdout != want.stdout || !strings.Contains(r.stderr, "answer is over") {
				t.Errorf("search beside a server whose answer is %s: exit %d, %d bytes of output (%.80q), stderr %q; want %q",
					tt.name, r.code, len(r.stdout), r.stdout, r.stderr, want.stdout)
			}
		})
	}
}

// TestServerAddress: the server's address is the vault's alone, only its
// owner may connect, and it is gone once the listener closes.
func TestServerAddress(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	addr := app.ServerAddress(a)
	if addr == app.ServerAddress(b) || addr != app.ServerAddress(a) {
		t.Fatalf("addresses %q and %q for two vaults", addr, app.ServerAddress(b))
	}
	l, err := app.Listen(addr)
	if err != nil {
		t.Fatal(err)
	}
	// Accepting, as a server does: a named pipe takes connections only
	// while one is accepted.
	accepted := acceptEach(l, func(c net.Conn) { c.Close() })
	if err := ownerOnly(addr); err != nil {
		t.Error(err)
	}
	c, err := app.Dial(t.Context(), addr)
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	c.Close()
	l.Close()
	<-accepted
	if c, err := app.Dial(t.Context(), addr); err == nil {
		c.Close()
		t.Errorf("%s still accepts after its listener closed", addr)
	}
}

// TestOneShotQueryPace: a query answered in process collects at GOGC 400
// under a 160 MiB limit, unless the environment sets either.
func TestOneShotQueryPace(t *testing.T) {
	pace, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1)
	debug.SetGCPercent(pace)
	t.Cleanup(func() {
		debug.SetGCPercent(pace)
		debug.SetMemoryLimit(limit)
	})
	for _, tt := range []struct {
		env       []string
		pace      int
		limit     int64
		wantPace  int
		wantLimit int64
	}{
		{nil, 100, math.MaxInt64, 400, 160 << 20},
		{[]string{"GOGC", "50"}, 50, math.MaxInt64, 50, math.MaxInt64},
		{[]string{"GOMEMLIMIT", "1GiB"}, 100, 1 << 30, 100, 1 << 30},
	} {
		t.Run(fmt.Sprint(tt.env), func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			if tt.env != nil {
				t.Setenv(tt.env[0], tt.env[1])
			}
			debug.SetGCPercent(tt.pace)
			debug.SetMemoryLimit(tt.limit)
			oneShotQuery()
			if got := debug.SetGCPercent(tt.pace); got != tt.wantPace {
				t.Errorf("GOGC %d, want %d", got, tt.wantPace)
			}
			if got := debug.SetMemoryLimit(-1); got != tt.wantLimit {
				t.Errorf("memory limit %d, want %d", got, tt.wantLimit)
			}
		})
	}
}
