package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/app"
)

// The preambles above the frames of the MCP server's results (see
// package frame).
const (
	toolPreamble     = "A vaultmem tool's result (JSON), holding text from the user's vault:"
	taskPreamble     = "The context of a task, from the user's vault (vaultmem):"
	resourcePreamble = "A note of the user's vault (vaultmem):"
)

// framed makes a read tool's text content its structured result framed
// (frame.JSON): the notes' text it holds (bodies, snippets, titles) is
// marked as data, and the JSON decodes to the structured result still.
// Without it, the SDK would put the bare JSON in the text content. A
// result the handler made itself (recall's, task_context's, an error)
// is left as it is.
func framed[In, Out any](h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		res, out, err := h(ctx, req, in)
		if err != nil || res != nil {
			return res, out, err
		}
		doc, err := json.Marshal(out)
		if err != nil {
			return nil, out, fmt.Errorf("marshal the result: %w", err)
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: app.FrameJSON(toolPreamble, doc)}}}, out, nil
	}
}
