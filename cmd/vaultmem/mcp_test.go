package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/mcpserver"
)

// mcpSession starts `vaultmem mcp` on dir as a real subprocess and
// connects the SDK's client to it over stdio.
func mcpSession(t *testing.T, dir string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(os.Args[0], "--vault", dir, "mcp")
	cmd.Env = append(os.Environ(), "VAULTMEM_RUN_MAIN=1")
	cmd.Stderr = os.Stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and decodes its structured output into out (unless
// nil); it returns the result's error text when the tool failed.
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "protocol error: " + err.Error()
	}
	if res.IsError {
		var msgs []string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				msgs = append(msgs, tc.Text)
			}
		}
		return strings.Join(msgs, "\n")
	}
	if out != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s output: %v\n%s", tool, err, b)
		}
	}
	return ""
}

func TestMCPServer(t *testing.T) {
	dir := newVault(t)
	cs := mcpSession(t, dir)
	ctx := context.Background()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.InputSchema == nil {
			t.Errorf("%s has no input schema", tool.Name)
		}
	}
	sort.Strings(names)
	if got := strings.Join(names, " "); got != "dream lesson_add lesson_list lesson_match lesson_outcome lesson_trends links list_notes read_note recall remember search task_add task_block task_context task_done task_event task_focus task_ready task_spawn task_start task_tree write_note" {
		t.Errorf("tools: %s", got)
	}

	// remember, then recall finds it.
	var rem struct{ Path, Status, Hash string }
	if e := call(t, cs, "remember", map[string]any{"type": "project", "name": "Deploy day",
		"description": "when deploys go out", "body": "Deploys go out on Tuesdays after the standup."}, &rem); e != "" {
		t.Fatal(e)
	}
	if rem.Path != "memory/deploy-day.md" || rem.Status != "created" {
		t.Errorf("remember: %+v", rem)
	}
	var rec struct {
		Context    string
		UsedTokens int `json:"used_tokens"`
		Budget     int
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if e := call(t, cs, "recall", map[string]any{"query": "when do deploys go out?", "budget": 300}, &rec); e != "" {
			t.Fatal(e)
		}
		if strings.Contains(rec.Context, "Tuesdays") || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(rec.Context, "Tuesdays") || rec.UsedTokens > 300 {
		t.Errorf("recall after remember: %+v", rec)
	}

	// read_note, then write_note with the hash; a stale hash is a conflict.
	var note struct {
		Path        string
		Frontmatter map[string]any
		Body, Hash  string
	}
	if e := call(t, cs, "read_note", map[string]any{"path": "memory/deploy-day.md"}, &note); e != "" {
		t.Fatal(e)
	}
	if note.Frontmatter["type"] != "project" || !strings.Contains(note.Body, "Tuesdays") || note.Hash != rem.Hash {
		t.Errorf("read_note: %+v", note)
	}
	var wrote struct{ Path, Hash, Status string }
	if e := call(t, cs, "write_note", map[string]any{"path": "memory/deploy-day.md", "frontmatter": map[string]any{"owner": "ops"},
		"expected_hash": note.Hash}, &wrote); e != "" || wrote.Status != "updated" {
		t.Fatalf("write_note with the right hash: %q %+v", e, wrote)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "memory", "deploy-day.md"))
	if !strings.Contains(string(b), "owner: ops") || !strings.Contains(string(b), "name: Deploy day") || !strings.Contains(string(b), "Tuesdays") {
		t.Errorf("after write_note:\n%s", b)
	}
	if e := call(t, cs, "write_note", map[string]any{"path": "memory/deploy-day.md", "body": "overwritten",
		"expected_hash": note.Hash}, nil); !strings.HasPrefix(e, "conflict:") || !strings.Contains(e, wrote.Hash) {
		t.Errorf("write_note with a stale hash: %q", e)
	}
	if e := call(t, cs, "write_note", map[string]any{"path": "notes/new idea", "body": "links to [[deploy-day]]"}, &wrote); e != "" || wrote.Path != "notes/new idea.md" || wrote.Status != "created" {
		t.Errorf("write_note creating: %q %+v", e, wrote)
	}

	// Hostile and bad arguments are refused with clear tool errors.
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"read_note", map[string]any{"path": "../../etc/passwd"}, "outside the vault"},
		{"write_note", map[string]any{"path": "/etc/cron.d/x", "body": "x"}, "outside the vault"},
		{"write_note", map[string]any{"path": ".obsidian/app.md", "body": "x"}, "outside the vault"},
		{"read_note", map[string]any{"path": "no/such note.md"}, "not found"},
		{"remember", map[string]any{"type": "opinion", "name": "n", "description": "d", "body": "b"}, `invalid argument "type": must be one of user, feedback, project, reference (got "opinion")`},
		{"remember", map[string]any{"type": "user", "name": "...", "description": "d", "body": "b"}, "invalid"},
		{"search", map[string]any{"query": "x", "mode": "psychic"}, "mode"},
		{"links", map[string]any{"path": "memory/deploy-day.md", "direction": "sideways"}, "direction"},
		{"recall", map[string]any{"budget": 100}, "query"}, // missing required argument: rejected by the schema
		{"search", map[string]any{"query": 42}, "query"},   // wrong type
	} {
		if e := call(t, cs, tc.tool, tc.args, nil); !strings.Contains(e, tc.want) {
			t.Errorf("%s %v: error %q, want one mentioning %q", tc.tool, tc.args, e, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".obsidian", "app.md")); err == nil {
		t.Error("a note was written into .obsidian")
	}

	// links, list_notes and resources.
	var links struct {
		Links []struct{ Source, Target string }
	}
	// The note written above links to the memory, and so does MEMORY.md.
	want := []struct{ Source, Target string }{{"MEMORY.md", "memory/deploy-day.md"}, {"notes/new idea.md", "memory/deploy-day.md"}}
	deadline = time.Now().Add(10 * time.Second)
	for !reflect.DeepEqual(links.Links, want) && time.Now().Before(deadline) {
		if e := call(t, cs, "links", map[string]any{"path": "memory/deploy-day.md", "direction": "in"}, &links); e != "" {
			t.Fatal(e)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !reflect.DeepEqual(links.Links, want) {
		t.Errorf("backlinks: %+v", links)
	}
	var list struct{ Notes []struct{ Path, Type string } }
	if e := call(t, cs, "list_notes", map[string]any{"type": "project"}, &list); e != "" || len(list.Notes) != 1 {
		t.Errorf("list_notes: %q %+v", e, list)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "vault:///memory/deploy-day.md"})
	if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, "owner: ops") {
		t.Errorf("read resource: %v %+v", err, rr)
	}
}

// TestMCPSurvivesBadLines feeds the real server, over its stdin, lines a
// broken or hostile client sends; each is answered with the JSON-RPC
// error it deserves, and the request after it is still answered.
func TestMCPSurvivesBadLines(t *testing.T) {
	dir := newVault(t)
	cmd := exec.Command(os.Args[0], "--vault", dir, "mcp")
	cmd.Env = append(os.Environ(), "VAULTMEM_RUN_MAIN=1")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	replies := json.NewDecoder(stdout)
	// next reads replies until the one to id, and returns the error codes
	// of the other answers met on the way (to the bad line before it).
	next := func(id int) (codes []int, reply map[string]any) {
		t.Helper()
		for {
			var m map[string]any
			if err := replies.Decode(&m); err != nil {
				t.Fatalf("waiting for reply %d: %v", id, err)
			}
			if m["id"] == float64(id) {
				return codes, m
			}
			if e, ok := m["error"].(map[string]any); ok {
				codes = append(codes, int(e["code"].(float64)))
			}
		}
	}
	send := func(line string) {
		if _, err := io.WriteString(stdin, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	next(1)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	for i, tc := range []struct {
		line string
		code int
	}{
		{"hello", -32700},
		{"[]", -32600},
		{`[{"jsonrpc":"2.0","id":5,"method":"tools/list"}]`, -32600},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, -32600},
		{`{"jsonrpc":"1.0","id":7,"method":"tools/list"}`, -32600},
		{deep, -32700},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/list","params":` + strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000) + "}", -32700},
		{"\xff\xfe not utf-8", -32700},
		{strings.Repeat("x", 17<<20), -32600},
	} {
		send(tc.line)
		id := 100 + i
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, id))
		codes, reply := next(id)
		if len(codes) != 1 || codes[0] != tc.code {
			t.Errorf("line %d (%.30q): answered %v, want [%d]", i, tc.line, codes, tc.code)
		}
		if reply["result"] == nil {
			t.Errorf("line %d (%.30q): the request after it got %v", i, tc.line, reply)
		}
	}
}

// TestMCPPrompts: the prompts a person picks in the client, and the
// memory protocol given as the server's instructions.
func TestMCPPrompts(t *testing.T) {
	dir := newVault(t)
	ok(t, dir, "remember", "--type", "feedback", "--name", "Use pnpm", "--description", "The user wants pnpm", "Always use pnpm, not npm.")
	cs := mcpSession(t, dir)
	ctx := t.Context()
	if got := cs.InitializeResult().Instructions; got != mcpserver.Instructions {
		t.Errorf("instructions %q, want the memory protocol", got)
	}
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
	}
	if strings.Join(names, ",") != "plan-task,recall,remember" {
		t.Errorf("prompts %v", names)
	}
	text := func(res *mcp.GetPromptResult) string {
		if len(res.Messages) != 1 || res.Messages[0].Role != "user" {
			t.Fatalf("messages %+v", res.Messages)
		}
		return res.Messages[0].Content.(*mcp.TextContent).Text
	}
	res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "recall", Arguments: map[string]string{"question": "does the user want pnpm or npm?"}})
	if err != nil || !strings.Contains(text(res), "Always use pnpm, not npm.") {
		t.Errorf("recall prompt: %v %q", err, text(res))
	}
	res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "remember", Arguments: map[string]string{"what": "Deploys go out on Tuesdays", "type": "project"}})
	if err != nil || !strings.Contains(text(res), "type project") || !strings.Contains(text(res), "Deploys go out on Tuesdays") {
		t.Errorf("remember prompt: %v %+v", err, res)
	}
	res, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "plan-task", Arguments: map[string]string{"goal": "Ship the importer"}})
	if err != nil || !strings.Contains(text(res), "task_spawn") || !strings.Contains(text(res), "Goal: Ship the importer") {
		t.Errorf("plan-task prompt: %v %+v", err, res)
	}
	for _, bad := range []*mcp.GetPromptParams{
		{Name: "recall"},
		{Name: "remember", Arguments: map[string]string{"what": "x", "type": "gossip"}},
	} {
		if _, err := cs.GetPrompt(ctx, bad); err == nil {
			t.Errorf("%s %v: no error", bad.Name, bad.Arguments)
		}
	}
}

// TestMCPOutsideAVault: the MCP server on a folder that is no vault (a
// code repository an MCP config named) refuses, saying what to run, and
// makes nothing there.
func TestMCPOutsideAVault(t *testing.T) {
	repo := t.TempDir()
	r := vaultmemGuarded(t, repo, "", nil, "--vault", repo, "mcp")
	if r.code != 1 || !strings.Contains(r.stderr, "is no vault yet") || !strings.Contains(r.stderr, "vaultmem init") {
		t.Errorf("mcp outside a vault: %+v", r)
	}
	if entries, _ := os.ReadDir(repo); len(entries) != 0 {
		t.Errorf("mcp wrote %v into a folder that is no vault", entries)
	}
}
