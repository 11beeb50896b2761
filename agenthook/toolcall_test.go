package agenthook

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestToolCall(t *testing.T) {
	for _, tt := range []struct {
		name  string
		tool  string
		input any
		paths []string
		words string
		edits bool
	}{
		{"bash", "Bash", map[string]any{"command": "go test ./...", "description": "run the tests", "timeout": 120000},
			nil, "go test ./... run the tests", false},
		{"edit", "Edit", map[string]any{"file_path": "/repo/db/x.sql", "old_string": "a", "new_string": "b"},
			[]string{"/repo/db/x.sql"}, "", true},
		{"grep", "Grep", map[string]any{"pattern": "TODO", "path": "src"}, []string{"src"}, "TODO", false},
		{"gemini write_file", "write_file", map[string]any{"file_path": "/p/a.go", "content": "package a"}, []string{"/p/a.go"}, "", true},
		{"gemini shell", "run_shell_command", map[string]any{"command": "make migrate", "dir_path": "db"}, []string{"db"}, "make migrate", false},
		{"not strings", "Read", map[string]any{"file_path": 7, "query": []any{"x"}}, nil, "", false},
		{"no input", "Task", nil, nil, "", false},
		{"not an object", "Task", []any{"a"}, nil, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			raw, _ := json.Marshal(tt.input)
			paths, words, edits := toolCall(tt.tool, raw)
			if !reflect.DeepEqual(paths, tt.paths) || words != tt.words || edits != tt.edits {
				t.Errorf("toolCall = %q, %q, %v; want %q, %q, %v", paths, words, edits, tt.paths, tt.words, tt.edits)
			}
		})
	}
}
