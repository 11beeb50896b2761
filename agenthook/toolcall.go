package agenthook

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// toolCall reads a tool call's JSON arguments, as the clients send them
// to their hooks, into what vaultmem asks of a call: the paths its file
// arguments name (file_path, path, notebook_path, Gemini CLI's
// absolute_path and dir_path), the words of its text arguments (command,
// description, prompt, pattern, query, url) in the order of their names,
// and whether tool is one that changes the files it names. Other
// arguments (a file's new content, a search's options) are not read.
func toolCall(tool string, raw json.RawMessage) (paths []string, words string, edits bool) {
	var input map[string]any
	if len(raw) > 0 && json.Unmarshal(raw, &input) != nil {
		input = nil
	}
	var ws []string
	for _, key := range slices.Sorted(maps.Keys(input)) {
		v, ok := input[key].(string)
		if !ok {
			continue
		}
		switch key {
		case "file_path", "path", "notebook_path", "absolute_path", "dir_path":
			paths = append(paths, v)
		case "command", "description", "prompt", "pattern", "query", "url":
			ws = append(ws, v)
		}
	}
	return paths, strings.Join(ws, " "), editTools[strings.ToLower(tool)]
}

// editTools are the clients' tools whose file arguments are files they
// change: Claude Code's and Cursor's (Write, Edit, MultiEdit,
// NotebookEdit, edit_file), Gemini CLI's (write_file, replace).
var editTools = map[string]bool{"write": true, "edit": true, "multiedit": true, "notebookedit": true,
	"write_file": true, "replace": true, "edit_file": true}
