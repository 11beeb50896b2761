package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addTool adds a tool to s, keeping its input schema for checkArguments.
// The schema must be a *jsonschema.Schema (see schemaFor).
func addTool[In, Out any](s *Server, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) {
	s.inputs[t.Name] = t.InputSchema.(*jsonschema.Schema)
	mcp.AddTool(s.mcp, t, h)
}

// checkArguments is receiving middleware that checks the arguments of a
// tools/call against the tool's input schema before the SDK does, and
// answers bad ones with a tool error naming each argument at fault and
// what it must be, in words: `invalid argument "limit": must be at most
// 100 (got 100000)`. The SDK (v1.8.0) would answer with its validator's text
// ("maximum: 100000/1 is greater than 100.000000"). What passes here, the
// SDK's validation passes too.
func (s *Server) checkArguments(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		r, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || r.Params == nil {
			return next(ctx, method, req)
		}
		schema, ok := s.inputs[r.Params.Name]
		if !ok {
			return next(ctx, method, req) // the SDK answers an unknown tool
		}
		if err := checkArgs(schema, r.Params.Arguments); err != nil {
			res := &mcp.CallToolResult{}
			res.SetError(err)
			return res, nil
		}
		return next(ctx, method, req)
	}
}

// checkArgs checks the arguments raw (a JSON object; absent or null is no
// argument) against a tool's input schema s, an object of properties. Its
// error lists every problem: a missing required argument, an argument the
// tool does not take (every tool's input is closed), and each argument
// whose value is not what its schema says.
func checkArgs(s *jsonschema.Schema, raw json.RawMessage) error {
	var args map[string]json.RawMessage
	if v := bytes.TrimSpace(raw); len(v) > 0 && string(v) != "null" {
		if v[0] != '{' || json.Unmarshal(v, &args) != nil {
			return fmt.Errorf("invalid arguments: must be an object of named arguments (got %s)", shown(v))
		}
	}
	var problems []string
	for _, name := range s.Required {
		if _, ok := args[name]; !ok {
			problems = append(problems, fmt.Sprintf("missing argument %q", name))
		}
	}
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p, ok := s.Properties[name]
		if !ok {
			takes := make([]string, 0, len(s.Properties))
			for n := range s.Properties {
				takes = append(takes, n)
			}
			slices.Sort(takes)
			problems = append(problems, fmt.Sprintf("unknown argument %q (the tool takes %s)", name, strings.Join(takes, ", ")))
			continue
		}
		if why := checkValue(p, args[name]); why != "" {
			problems = append(problems, fmt.Sprintf("invalid argument %q: %s", name, why))
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// kinds words the JSON types of a schema.
var kinds = map[string]string{
	"string": "a string", "integer": "an integer", "number": "a number",
	"boolean": "true or false", "object": "an object", "array": "an array",
}

// describe words what a value of schema s must be: "an array of strings".
func describe(s *jsonschema.Schema) string {
	if s.Type == "array" && s.Items != nil && s.Items.Type != "" {
		return "an array of " + s.Items.Type + "s"
	}
	return kinds[s.Type]
}

// checkValue says what is wrong with the JSON value v for schema s, or ""
// when nothing is. It checks the keywords schemaFor's schemas use: type,
// items, enum, minimum and maximum.
func checkValue(s *jsonschema.Schema, v json.RawMessage) string {
	wrong := func() string { return fmt.Sprintf("must be %s (got %s)", describe(s), shown(v)) }
	switch s.Type {
	case "string":
		if v[0] != '"' {
			return wrong()
		}
	case "boolean":
		if string(v) != "true" && string(v) != "false" {
			return wrong()
		}
	case "object":
		if v[0] != '{' {
			return wrong()
		}
	case "array":
		var items []json.RawMessage
		if v[0] != '[' || json.Unmarshal(v, &items) != nil {
			return wrong()
		}
		if s.Items == nil {
			break
		}
		for i, item := range items {
			if why := checkValue(s.Items, item); why != "" {
				return fmt.Sprintf("item %d %s", i+1, why)
			}
		}
	case "integer", "number":
		f, err := strconv.ParseFloat(string(v), 64)
		switch {
		case v[0] != '-' && (v[0] < '0' || v[0] > '9'), err != nil && !errors.Is(err, strconv.ErrRange):
			return wrong()
		case s.Type == "integer" && math.Trunc(f) != f:
			return wrong()
		case s.Minimum != nil && f < *s.Minimum:
			return fmt.Sprintf("must be at least %s (got %s)", number(*s.Minimum), shown(v))
		case s.Maximum != nil && f > *s.Maximum:
			return fmt.Sprintf("must be at most %s (got %s)", number(*s.Maximum), shown(v))
		}
	}
	if len(s.Enum) > 0 {
		var got any
		json.Unmarshal(v, &got)
		if !slices.Contains(s.Enum, got) {
			words := make([]string, len(s.Enum))
			for i, e := range s.Enum {
				words[i] = fmt.Sprint(e)
			}
			return fmt.Sprintf("must be one of %s (got %s)", strings.Join(words, ", "), shown(v))
		}
	}
	return ""
}

// number words a bound: 100000, not 1e+05.
func number(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// shown is a JSON value as an error quotes it: compact, and cut short.
func shown(v json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return truncate(string(v), 60)
	}
	return truncate(b.String(), 60)
}
