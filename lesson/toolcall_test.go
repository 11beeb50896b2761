package lesson_test

import (
	"reflect"
	"testing"

	"github.com/vaultmem/vaultmem/lesson"
)

func TestToolCall(t *testing.T) {
	for _, tt := range []struct {
		name  string
		tool  string
		input map[string]any
		want  lesson.Situation
	}{
		{"bash", "Bash", map[string]any{"command": "go test ./...", "description": "run the tests", "timeout": 120000},
			lesson.Situation{Tool: "Bash", Text: "go test ./... run the tests"}},
		{"edit", "Edit", map[string]any{"file_path": "/repo/db/x.sql", "old_string": "a", "new_string": "b"},
			lesson.Situation{Tool: "Edit", Paths: []string{"/repo/db/x.sql"}}},
		{"grep", "Grep", map[string]any{"pattern": "TODO", "path": "src"},
			lesson.Situation{Tool: "Grep", Text: "TODO", Paths: []string{"src"}}},
		{"not strings", "Read", map[string]any{"file_path": 7, "query": []any{"x"}},
			lesson.Situation{Tool: "Read"}},
		{"no input", "Task", nil, lesson.Situation{Tool: "Task"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := lesson.ToolCall(tt.tool, tt.input); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ToolCall = %+v, want %+v", got, tt.want)
			}
		})
	}
}
