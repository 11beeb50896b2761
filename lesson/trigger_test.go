package lesson

import "testing"

func TestTriggerKind(t *testing.T) {
	for _, tt := range []struct{ item, kind, value string }{
		{"tool:Bash", "tool", "Bash"},
		{"TOOL: Edit", "tool", "Edit"},
		{"path:docs/*.md", "glob", "docs/*.md"},
		{"*.sql", "glob", "*.sql"},
		{"db/migrations/**", "glob", "db/migrations/**"},
		{"My Folder/*.md", "glob", "My Folder/*.md"}, // Obsidian folders have spaces
		{"Projects 2026/{plan,notes}.md", "glob", "Projects 2026/{plan,notes}.md"},
		{"src/main.go", "glob", "src/main.go"},
		{"run the migrations", "words", "run the migrations"},
		{"why does it fail?", "words", "why does it fail?"}, // a question, not a glob
		{"run db/seed first", "words", "run db/seed first"},
	} {
		if kind, value := triggerKind(tt.item); kind != tt.kind || value != tt.value {
			t.Errorf("triggerKind(%q) = %s %q, want %s %q", tt.item, kind, value, tt.kind, tt.value)
		}
	}
	if p, ok := globMatch("My Folder/*.md", []string{"other/x.md", "My Folder/note.md"}); !ok || p != "My Folder/note.md" {
		t.Errorf("a glob with a space: matched %q, %v", p, ok)
	}
}
