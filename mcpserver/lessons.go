package mcpserver

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/app"
)

// LessonAddIn is the lesson_add tool's input.
type LessonAddIn struct {
	Title       string   `json:"title" jsonschema:"the lesson in a few words; also its note's name"`
	Trigger     []string `json:"trigger" jsonschema:"when it applies: words of the situation, tool:NAME for a tool, or a path glob such as db/migrations/**"`
	ActionBias  string   `json:"action_bias" jsonschema:"what to do or avoid when it applies"`
	Domain      string   `json:"domain,omitempty" jsonschema:"its domain: testing, git, deploy, ..."`
	Tags        []string `json:"tags,omitempty" jsonschema:"tags for the note"`
	Episodes    []string `json:"episodes,omitempty" jsonschema:"the notes (tasks, memories) it was learned from: paths or names"`
	DerivedFrom []string `json:"derived_from,omitempty" jsonschema:"the lessons it refines: paths or names"`
	Body        string   `json:"body,omitempty" jsonschema:"what it says and why (markdown)"`
}

// LessonMatchIn is the lesson_match tool's input.
type LessonMatchIn struct {
	Text  string   `json:"text,omitempty" jsonschema:"what you are about to do, in your words"`
	Tool  string   `json:"tool,omitempty" jsonschema:"the tool you are about to call"`
	Paths []string `json:"paths,omitempty" jsonschema:"the files involved"`
	K     int      `json:"k,omitempty" jsonschema:"at most this many lessons, 1 to 100 (0 or omitted: 5)"`
}

// LessonOutcomeIn is the lesson_outcome tool's input.
type LessonOutcomeIn struct {
	Lesson  string   `json:"lesson" jsonschema:"the lesson applied: its path or note name"`
	Success bool     `json:"success" jsonschema:"true when applying it helped, false when it did not"`
	Episode string   `json:"episode,omitempty" jsonschema:"the note (a task, a memory) where it happened"`
	Context string   `json:"context,omitempty" jsonschema:"what you were doing (the text you matched with)"`
	Tool    string   `json:"tool,omitempty" jsonschema:"the tool you called"`
	Paths   []string `json:"paths,omitempty" jsonschema:"the files involved"`
	AgentIn
}

// LessonListIn is the lesson_list tool's input.
type LessonListIn struct {
	Domain      string  `json:"domain,omitempty" jsonschema:"only the lessons of this domain (testing, git, deploy, ...)"`
	MinStrength float64 `json:"min_strength,omitempty" jsonschema:"only the lessons at least this strong, 0 to 1 (0 or omitted: all)"`
	Episode     string  `json:"episode,omitempty" jsonschema:"only the lessons learned from or applied in this note (a task, a session, a memory): its path or name"`
}

// LessonListOut is the lesson_list tool's result: the lessons, strongest
// first.
type LessonListOut struct {
	Lessons []app.LessonListed `json:"lessons"`
}

// LessonTrendsIn is the lesson_trends tool's input.
type LessonTrendsIn struct {
	Domain string `json:"domain,omitempty" jsonschema:"only this domain's outcomes"`
	Since  string `json:"since,omitempty" jsonschema:"only the outcomes logged on or after this day, YYYY-MM-DD (UTC)"`
	Until  string `json:"until,omitempty" jsonschema:"only the outcomes logged on or before this day, YYYY-MM-DD (UTC)"`
}

// LessonTrendsOut is the lesson_trends tool's result: outcomes by domain
// and month.
type LessonTrendsOut struct {
	Trends []app.LessonTrend `json:"trends"`
}

func (s *Server) addLessonTools() {
	closed := false
	addTool(s, &mcp.Tool{Name: "lesson_add", Description: "Write down a lesson learnt (a note, type: lesson) so that it is " +
		"in front of you the next time the situation comes: when it applies (trigger) and what to do (action_bias). It starts at strength 0.5.",
		InputSchema: schemaFor[LessonAddIn](), Annotations: &mcp.ToolAnnotations{Title: "Add lesson", DestructiveHint: &closed, OpenWorldHint: &closed}}, s.lessonAdd)
	addTool(s, &mcp.Tool{Name: "lesson_match", Description: "The lessons for what you are about to do, by relevance × strength, " +
		"each with why it matched. Call it before a step that went wrong before (tests, deploys, migrations); report how it went with lesson_outcome.",
		InputSchema: schemaFor[LessonMatchIn](bounds("k", 0, app.MaxLessons)), Annotations: &mcp.ToolAnnotations{Title: "Match lessons", ReadOnlyHint: true, OpenWorldHint: &closed}}, framed(s.lessonMatch))
	addTool(s, &mcp.Tool{Name: "lesson_outcome", Description: "Say whether applying a lesson helped: success raises its strength " +
		"(+0.05), failure lowers it (−0.1; below 0.3 it is flagged for review). Logged with the context, for the lessons' statistics.",
		InputSchema: schemaFor[LessonOutcomeIn](), Annotations: &mcp.ToolAnnotations{Title: "Lesson outcome", DestructiveHint: &closed, OpenWorldHint: &closed}}, s.lessonOutcome)
	addTool(s, &mcp.Tool{Name: "lesson_list", Description: "The lessons, strongest first, each with its strength, confidence (how well its " +
		"record of outcomes supports it) and version: of a domain, at least so strong, or learned from or applied in a note.",
		InputSchema: schemaFor[LessonListIn](bounds("min_strength", 0, 1)), Annotations: &mcp.ToolAnnotations{Title: "List lessons", ReadOnlyHint: true, OpenWorldHint: &closed}}, framed(s.lessonList))
	addTool(s, &mcp.Tool{Name: "lesson_trends", Description: "Lesson outcomes by domain and month: how many, the success rate, the mean " +
		"strength they left; of one domain, between two days.",
		InputSchema: schemaFor[LessonTrendsIn](), Annotations: &mcp.ToolAnnotations{Title: "Lesson trends", ReadOnlyHint: true, OpenWorldHint: &closed}}, framed(s.lessonTrends))
}

// lessonErr words a lesson use case's error for an agent: the lesson
// kind's own errors say what is wrong as they are; others as toolError
// words them.
func lessonErr(err error) error {
	if errors.Is(err, app.ErrLessonInvalid) || errors.Is(err, app.ErrLessonArchived) || errors.Is(err, app.ErrNotLesson) {
		return err
	}
	return toolError(err)
}

// The lesson tools sync through s.fresh, which tells a failed sync as a
// warning and answers from the index as it was, then call app's use
// cases with NoSync: the same use cases, and the same freshness, as the
// CLI's.

func (s *Server) lessonAdd(ctx context.Context, req *mcp.CallToolRequest, in LessonAddIn) (*mcp.CallToolResult, app.LessonAdded, error) {
	if err := s.fresh(ctx, req); err != nil {
		return nil, app.LessonAdded{}, toolError(err)
	}
	res, err := s.app.Lessons().Add(ctx, app.LessonAddRequest{Title: in.Title, Trigger: in.Trigger, ActionBias: in.ActionBias, Domain: in.Domain,
		Tags: in.Tags, Episodes: in.Episodes, DerivedFrom: in.DerivedFrom, Body: in.Body, NoSync: true})

	if err != nil {
		return nil, app.LessonAdded{}, lessonErr(err)
	}
	return nil, res, nil
}

func (s *Server) lessonMatch(ctx context.Context, req *mcp.CallToolRequest, in LessonMatchIn) (*mcp.CallToolResult, app.LessonMatches, error) {
	if err := s.fresh(ctx, req); err != nil {
		return nil, app.LessonMatches{}, toolError(err)
	}
	res, err := s.app.Lessons().Match(ctx, app.MatchRequest{Situation: app.Situation{Text: in.Text, Tool: in.Tool, Paths: in.Paths}, K: in.K, NoSync: true})
	if err != nil {
		return nil, app.LessonMatches{}, lessonErr(err)
	}
	return nil, res, nil
}

func (s *Server) lessonOutcome(ctx context.Context, req *mcp.CallToolRequest, in LessonOutcomeIn) (*mcp.CallToolResult, app.LessonApplied, error) {
	agent, err := s.taskCall(ctx, req, in.AgentIn)
	if err != nil {
		return nil, app.LessonApplied{}, err
	}
	res, err := s.app.Lessons().RecordOutcome(ctx, app.LessonOutcomeRequest{Lesson: in.Lesson, Success: in.Success, Episode: in.Episode,
		Context: in.Context, Tool: in.Tool, Paths: in.Paths, Agent: agent, NoSync: true})

	if err != nil {
		return nil, app.LessonApplied{}, lessonErr(err)
	}
	return nil, res, nil
}

func (s *Server) lessonList(ctx context.Context, req *mcp.CallToolRequest, in LessonListIn) (*mcp.CallToolResult, LessonListOut, error) {
	if err := s.fresh(ctx, req); err != nil {
		return nil, LessonListOut{}, toolError(err)
	}
	ls, err := s.app.Lessons().List(ctx, app.LessonListRequest{Domain: in.Domain, MinStrength: in.MinStrength, Episode: in.Episode, NoSync: true})
	if err != nil {
		return nil, LessonListOut{}, lessonErr(err)
	}
	return nil, LessonListOut{Lessons: ls}, nil
}

func (s *Server) lessonTrends(ctx context.Context, req *mcp.CallToolRequest, in LessonTrendsIn) (*mcp.CallToolResult, LessonTrendsOut, error) {
	if err := s.fresh(ctx, req); err != nil {
		return nil, LessonTrendsOut{}, toolError(err)
	}
	ts, err := s.app.Lessons().Trends(ctx, app.LessonTrendsRequest{Domain: in.Domain, Since: in.Since, Until: in.Until, NoSync: true})
	if err != nil {
		return nil, LessonTrendsOut{}, lessonErr(err)
	}
	return nil, LessonTrendsOut{Trends: ts}, nil
}
