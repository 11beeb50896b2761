package app

import (
	"testing"

	"github.com/vaultmem/vaultmem/task"
)

// TestDefaultCanvas: a tree's canvas is named after its task, or its
// note, when the task's name makes no safe file name.
func TestDefaultCanvas(t *testing.T) {
	for _, tc := range []struct {
		name, path, want string
	}{
		{"", "", "views/Tasks.canvas"},
		{"Ship v2", "tasks/Ship v2.md", "views/Ship v2.canvas"},
		{"Fix #12 % done?", "tasks/fix-12.md", "views/Fix 12 done.canvas"},
		{"CON", "tasks/con-task.md", "views/con-task.canvas"},
		{".env setup", "tasks/env-setup.md", "views/env-setup.canvas"},
		{"CON", "tasks/CON.md", "views/Task.canvas"},
	} {
		got := defaultCanvas("views", &task.Node{Name: tc.name, Path: tc.path})
		if got != tc.want {
			t.Errorf("%q (%s): %s, want %s", tc.name, tc.path, got, tc.want)
		}
	}
}
