package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/app"
)

// LessonHealthURI is the resource of the lessons' live health: the JSON of
// 'vaultmem lesson stats --live --json' (app.LessonHealth), answered by
// this server's own counters. It is read by its URI; resources/list lists
// the notes only.
const LessonHealthURI = "vaultmem://lessons/health"

// addLessonHealth registers the lessons' health resource.
func (s *Server) addLessonHealth() {
	s.mcp.AddResource(&mcp.Resource{URI: LessonHealthURI, Name: "lessons-health", Title: "Lesson health",
		Description: "The lessons' live health: hot-cache hits and misses, match latency percentiles, how often a " +
			"shown lesson was followed by success, and the lessons failing several times in a row.",
		MIMEType: "application/json"}, s.readLessonHealth)
}

// readLessonHealth answers LessonHealthURI, the index brought up to date
// first as for the lesson tools (a failed sync is a warning; the answer
// comes from the index as it was).
func (s *Server) readLessonHealth(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	if err := s.opts.Startup.waitFor(ctx, nil, req.Session); err != nil {
		return nil, err
	}
	if _, err := s.app.Sync(ctx, app.SyncOptions{}); err != nil {
		s.syncFailed(ctx, req.Session, err)
	}
	h, err := s.app.Lessons().Health(ctx, app.LessonHealthRequest{NoSync: true})
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: LessonHealthURI, MIMEType: "application/json", Text: string(b)}}}, nil
}
