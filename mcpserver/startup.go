package mcpserver

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Startup tracks the first sync of a server's index, which runs while the
// server already answers: a client that starts the server on a large vault
// not yet indexed gets its initialize answer at once, and a tool that
// needs the index waits for the sync, with progress notifications when the
// client asked for them. A nil *Startup is a finished one. Its methods are
// safe for concurrent use.
type Startup struct {
	done chan struct{}

	mu       sync.Mutex
	n, total int
	err      error
}

// progressGap is how often a waiting tool reports the first sync's
// progress.
const progressGap = 500 * time.Millisecond

// NewStartup returns a Startup that waits for [Startup.Finish].
func NewStartup() *Startup {
	return &Startup{done: make(chan struct{})}
}

// Progress records that the sync has processed n of total changed files;
// it fits index.Progress.
func (s *Startup) Progress(n, total int) {
	s.mu.Lock()
	s.n, s.total = n, total
	s.mu.Unlock()
}

// Finish records the end of the first sync, with its error if it failed
// (tools then answer from the index as it is). Call it once.
func (s *Startup) Finish(err error) {
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
	close(s.done)
}

// Done is closed when the first sync has finished.
func (s *Startup) Done() <-chan struct{} { return s.done }

// wait blocks until the first sync finished or ctx ends; while it waits it
// sends progress notifications for the request of a tool call when the
// client gave a progress token. The sync's own failure is not an error
// here: the index answers as it is.
func (s *Startup) wait(ctx context.Context, req *mcp.CallToolRequest) error {
	var token any
	if req != nil && req.Params != nil {
		token = req.Params.GetProgressToken()
	}
	var session *mcp.ServerSession
	if req != nil {
		session = req.Session
	}
	return s.waitFor(ctx, token, session)
}

// waitFor is wait for any request: the progress notifications go to
// session, for token (none when token is nil).
func (s *Startup) waitFor(ctx context.Context, token any, session *mcp.ServerSession) error {
	if s == nil {
		return nil
	}
	select {
	case <-s.done:
		return nil
	default:
	}
	tick := time.NewTicker(progressGap)
	defer tick.Stop()
	for {
		select {
		case <-s.done:
			return nil
		case <-ctx.Done():
			return fmt.Errorf("waiting for the first index of the vault: %w", ctx.Err())
		case <-tick.C:
			if token == nil || session == nil {
				continue
			}
			s.mu.Lock()
			n, total := s.n, s.total
			s.mu.Unlock()
			session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token,
				Progress: float64(n), Total: float64(total), Message: fmt.Sprintf("indexing the vault: %d of %d notes", n, total)})
		}
	}
}
