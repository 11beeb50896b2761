package mcpserver

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PanicError is a panic recovered from a method handler (a tool, a
// resource read, ...) by the server's recovering middleware.
type PanicError struct {
	// Method is the MCP method, e.g. "tools/call".
	Method string
	// Value is what was passed to panic.
	Value any
	// Stack is the panicking goroutine's stack.
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("mcpserver: %s handler panicked: %v", e.Method, e.Value)
}

// recoverPanics returns receiving middleware that turns a panic in a
// method handler into a JSON-RPC internal error (-32603) answering that
// request, so that one bad handler does not end the process; the SDK
// (v1.8.0) recovers nothing. report, if not nil, is called with the
// *PanicError on the handler's goroutine before the answer is sent.
func recoverPanics(report func(*PanicError)) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
			defer func() {
				v := recover()
				if v == nil {
					return
				}
				pe := &PanicError{Method: method, Value: v, Stack: debug.Stack()}
				if report != nil {
					report(pe)
				}
				res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
					Message: truncate(fmt.Sprintf("Internal error: %s handler panicked: %v", method, v), 300)}
			}()
			return next(ctx, method, req)
		}
	}
}
