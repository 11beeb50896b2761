package mcpserver

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// syncWarning is where the sync before a tool's read leaves its failure,
// for the tool's result to carry (see warnSyncFailures).
type syncWarning struct {
	mu  sync.Mutex
	err error
}

type syncWarningKey struct{}

// syncFailed says that the sync before a read failed, so the read
// answers from the index as it was: to OnSyncError (the server's log),
// in the tool's result (a last text content the agent reads, see
// warnSyncFailures), and as a warning log message to a client that asked
// for them.
func (s *Server) syncFailed(ctx context.Context, ss *mcp.ServerSession, err error) {
	if s.opts.OnSyncError != nil {
		s.opts.OnSyncError(err)
	}
	if w, ok := ctx.Value(syncWarningKey{}).(*syncWarning); ok {
		w.mu.Lock()
		w.err = err
		w.mu.Unlock()
	}
	if ss != nil {
		ss.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: "vaultmem", Data: syncWarningText(err)})
	}
}

// syncWarningText is what the agent and the client are told of a failed
// sync.
func syncWarningText(err error) string {
	return "warning: the index could not be brought up to date with the vault, so this answer is from the index as it was: " + err.Error()
}

// warnSyncFailures adds to a tool's result, as its last text content, the
// failure of the sync before its read, if there was one.
func warnSyncFailures(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		w := &syncWarning{}
		res, err := next(context.WithValue(ctx, syncWarningKey{}, w), method, req)
		w.mu.Lock()
		defer w.mu.Unlock()
		if r, ok := res.(*mcp.CallToolResult); ok && err == nil && w.err != nil {
			r.Content = append(r.Content, &mcp.TextContent{Text: syncWarningText(w.err)})
		}
		return res, err
	}
}
