package app

import (
	"bufio"
	"context"
	"errors"
	"net"
	"testing"
	"time"
)

// stuckServer listens for dir's vault and handles each connection with
// handle, until the test ends.
func stuckServer(t *testing.T, dir string, handle func(net.Conn)) {
	t.Helper()
	l, err := Listen(ServerAddress(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
			go handle(c)
		}
	}()
}

// TestAskOnceTaken: a server that took a request and never answers it is
// ErrUnanswered for an op asked OnceTaken (it must not run again in the
// caller's process), and not answered (answer here) otherwise; a server
// that never takes the request is not answered either way. The results
// do not depend on how fast the machine is: the server never answers.
func TestAskOnceTaken(t *testing.T) {
	takes := func(c net.Conn) {
		bufio.NewReader(c).ReadString('\n')
		c.Write([]byte("\n")) // taken, never answered
	}
	never := func(c net.Conn) { bufio.NewReader(c).ReadString('\n') }
	for _, tc := range []struct {
		name         string
		handle       func(net.Conn)
		o            AskOptions
		wantAnswered bool
		wantErr      error
	}{
		{"taken, once", takes, AskOptions{FirstByte: time.Minute, Wait: 50 * time.Millisecond, OnceTaken: true}, true, ErrUnanswered},
		{"taken", takes, AskOptions{FirstByte: time.Minute, Wait: 50 * time.Millisecond}, false, nil},
		{"never taken, once", never, AskOptions{FirstByte: 50 * time.Millisecond, OnceTaken: true}, false, nil},
		{"never taken", never, AskOptions{FirstByte: 50 * time.Millisecond}, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			stuckServer(t, dir, tc.handle)
			_, answered, err := Ask(context.Background(), dir, OpHook, HookEvent{Kind: HookStop, Session: "s"}, tc.o)
			if answered != tc.wantAnswered || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) {
				t.Errorf("Ask = %v, %v; want %v, %v", answered, err, tc.wantAnswered, tc.wantErr)
			}
		})
	}
}
