package app

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/obsidian"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
)

// CanvasRequest asks for the task tree as a JSON Canvas.
type CanvasRequest struct {
	// Root is the task whose tree it is ("" for the whole vault's).
	Root string
	// File is the canvas's vault path; "" is <views folder>/Tasks.canvas,
	// or <views folder>/<Root's name>.canvas. ".canvas" is added when it
	// has no extension.
	File string
	// All unfolds finished branches, as task tree --all does.
	All bool
}

// CanvasAnswer is what Tasks.Canvas wrote, and what is wrong in the tree
// (as task tree reports it).
type CanvasAnswer struct {
	obsidian.CanvasResult
	Problems []markdown.Problem `json:"-"`
}

// Canvas writes the task tree (as task tree shows it) as a JSON Canvas
// file, merged into the one there: see obsidian.WriteCanvas. Errors: a
// file that is not a canvas (Conflict: it is left as it is), a save
// meanwhile (Conflict), a root that is no task, a bad file name (Invalid).
func (t Tasks) Canvas(ctx context.Context, req CanvasRequest) (CanvasAnswer, error) {
	a := t.a
	var ans CanvasAnswer
	st := a.taskStore()
	top, err := st.Tree(ctx, req.Root, req.All)
	if err != nil {
		return ans, err
	}
	file := strings.TrimSpace(req.File)
	if file == "" {
		file = defaultCanvas(a.Config.ViewsFolder(), top)
	} else if ext := path.Ext(file); !isExtension(ext) {
		file += vault.CanvasExt // "Plan", "Plan v1.2"
	}
	if _, err := vault.CleanViewPath(file); err != nil {
		return ans, invalid(fmt.Errorf("--canvas %s: %w", file, err))
	}
	deps, err := st.Dependencies(ctx)
	if err != nil {
		return ans, err
	}
	ans.CanvasResult, err = obsidian.WriteCanvas(ctx, a.writer, file, top, deps)
	if errors.Is(err, obsidian.ErrNotCanvas) || errors.Is(err, obsidian.ErrOtherTree) {
		return ans, &ClassError{Class: Conflict, Err: err}
	}
	ans.Problems = top.Problems
	return ans, err
}

// defaultCanvas is the canvas file of the tree under top in the views
// folder: Tasks.canvas for the whole vault's, else the task's name, or,
// when that makes no safe file name ("CON", ".env"), its note's name,
// else "Task".
func defaultCanvas(folder string, top *task.Node) string {
	if top.Path == "" {
		return path.Join(folder, "Tasks"+vault.CanvasExt)
	}
	for _, name := range []string{top.Name, markdown.NameOf(top.Path), "Task"} {
		if n, err := vault.FileName(name); err == nil {
			p := path.Join(folder, n+vault.CanvasExt)
			if _, err := vault.CleanViewPath(p); err == nil {
				return p
			}
		}
	}
	return path.Join(folder, "Task"+vault.CanvasExt)
}

// isExtension reports whether ext (".xyz") looks like a file extension:
// 1 to 10 letters and digits, a letter among them ("Plan v1.2" has none).
func isExtension(ext string) bool {
	e, ok := strings.CutPrefix(ext, ".")
	if !ok {
		return false
	}
	letter := false
	for _, r := range e {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letter = true
		case r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return letter && len(e) <= 10
}
