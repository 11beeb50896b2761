package setup

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// jsonEdit is one edit of a JSON file: what it manages, for a person, and
// the edit, which adds (or with remove takes out) setup's part.
type jsonEdit struct {
	what  string
	apply func(d *jdoc, remove bool) error
}

// jsonFile is a JSON file setup edits with edits. A Cursor hooks file
// (cursorHooks) begins {"version": 1, ...}; emptied of setup's part, only
// that version is left, and it is deleted as one holding {} is.
func jsonFile(path string, cursorHooks bool, edits ...jsonEdit) target {
	whats := make([]string, len(edits))
	for i, e := range edits {
		whats[i] = e.what
	}
	return target{path: path, what: strings.Join(whats, "; "), edit: func(text []byte, _, remove bool) ([]byte, bool, error) {
		d, err := parseDoc(path, text)
		if err != nil {
			return nil, false, err
		}
		if cursorHooks && !remove && d.root.member("version") < 0 {
			if err := d.addMember(d.root, "version", 1); err != nil {
				return nil, false, err
			}
		}
		for _, e := range edits {
			if err := e.apply(d, remove); err != nil {
				return nil, false, err
			}
		}
		m := d.decode(d.root).(map[string]any)
		empty := len(m) == 0 || cursorHooks && len(m) == 1 && m["version"] == float64(1)
		return d.text, empty, nil
	}}
}

// mcpEdit registers the MCP server vaultmem as server in the object
// mcpServers at the path in (nil: the file's top; ~/.claude.json keeps a
// project's own servers under projects.PROJECT). An entry vaultmem that
// is there already gets server's keys, its others (env, a timeout the
// user added) kept. Taken out, an emptied mcpServers goes with it at the
// top, as do objects above it that it alone filled; under a project of
// ~/.claude.json, where Claude Code keeps an mcpServers of its own for
// every project, an emptied mcpServers stays beside the project's other
// keys.
func mcpEdit(in []string, server obj) jsonEdit {
	servers := append(slices.Clone(in), "mcpServers")
	entry := append(slices.Clone(servers), ServerName)
	what := "MCP server " + ServerName
	if len(in) > 0 {
		what += " for this project"
	}
	return jsonEdit{what: what, apply: func(d *jdoc, remove bool) error {
		if remove && len(in) == 0 {
			return d.removePath(entry...)
		}
		if remove {
			list, err := d.lookup(servers...)
			if err != nil || list == nil || list.kind != '{' || list.member(ServerName) < 0 {
				return err
			}
			if err := d.removeMember(list, list.member(ServerName)); err != nil {
				return err
			}
			if list, _ = d.lookup(servers...); len(list.members) > 0 {
				return nil
			}
			if parent, _ := d.lookup(in...); parent != nil && len(parent.members) == 1 {
				return d.removePath(in...)
			}
			return nil
		}
		n, err := d.lookup(entry...)
		if err != nil {
			return err
		}
		if n == nil || n.kind != '{' {
			return d.set(entry, server)
		}
		for _, m := range server {
			if err := d.set(append(slices.Clone(entry), m.k), m.v); err != nil {
				return err
			}
		}
		return nil
	}}
}

// hooksEdit puts one hook, running cmd, on each of events in hooks: the
// element unit makes for the event (a matcher group, or for Cursor the
// handler itself) is added to the event's list, after the user's. A
// handler is setup's when its command is a hook command of client (see
// isHookCommand); setup's handlers on other events, or beside the user's
// in one group, or more than one on an event, are taken out.
func hooksEdit(client Client, cmd string, events []hookEvent, unit func(hookEvent) any) jsonEdit {
	names := make([]string, len(events))
	for i, ev := range events {
		names[i] = ev.name
	}
	h := hooks{client: client, flat: client == Cursor}
	return jsonEdit{what: "hooks " + strings.Join(names, ", "), apply: func(d *jdoc, remove bool) error {
		n, err := d.lookup("hooks")
		switch {
		case err != nil:
			return err
		case n != nil && n.kind != '{' && remove:
			return nil // none of setup's can be there
		case n != nil && n.kind != '{':
			return fmt.Errorf("%s: hooks is not an object", d.file)
		case n != nil:
			for _, m := range slices.Clone(n.members) {
				if remove || !slices.Contains(names, m.key) {
					if err := h.clear(d, m.key); err != nil {
						return err
					}
				}
			}
		}
		if remove {
			return nil
		}
		for _, ev := range events {
			if err := h.ensure(d, ev.name, unit(ev)); err != nil {
				return err
			}
		}
		return nil
	}}
}

// hooks finds a client's hooks in a hooks object.
type hooks struct {
	client Client
	flat   bool // Cursor: an event's list holds handlers, not matcher groups
}

// ours reports whether v is a handler of setup's.
func (h hooks) ours(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	cmd, ok := m["command"].(string)
	return ok && isHookCommand(cmd, h.client)
}

// find looks through the event's list: units are the elements that are
// setup's (for Cursor a handler of setup's, else a group of setup's
// handlers only); stray is the first handler of setup's in a group that
// also holds the user's, as [group, handler], nil when there is none.
// list is nil when the event has no list.
func (h hooks) find(d *jdoc, event string) (list *jnode, units []int, stray []int, err error) {
	list, err = d.lookup("hooks", event)
	if err != nil || list == nil || list.kind != '[' {
		return nil, nil, nil, err
	}
	for i, e := range list.elems {
		v := d.decode(e)
		if h.flat {
			if h.ours(v) {
				units = append(units, i)
			}
			continue
		}
		g, _ := v.(map[string]any)
		handlers, _ := g["hooks"].([]any)
		first, mine := -1, 0
		for j, x := range handlers {
			if h.ours(x) {
				mine++
				if first < 0 {
					first = j
				}
			}
		}
		switch {
		case mine > 0 && mine == len(handlers):
			units = append(units, i)
		case mine > 0 && stray == nil:
			stray = []int{i, first}
		}
	}
	return list, units, stray, nil
}

// dropStrays takes setup's handlers out of the groups they share with the
// user's handlers, and reports whether there were any.
func (h hooks) dropStrays(d *jdoc, event string) (bool, error) {
	dropped := false
	for {
		list, _, stray, err := h.find(d, event)
		if err != nil || stray == nil {
			return dropped, err
		}
		g := list.elems[stray[0]]
		if err := d.removeElem(g.members[g.member("hooks")].val, stray[1]); err != nil {
			return dropped, err
		}
		dropped = true
	}
}

// clear takes setup's hooks off the event, and the event's list when
// that leaves it empty (and hooks, when that leaves it empty).
func (h hooks) clear(d *jdoc, event string) error {
	removed, err := h.dropStrays(d, event)
	if err != nil {
		return err
	}
	for {
		list, units, _, err := h.find(d, event)
		if err != nil {
			return err
		}
		if len(units) == 0 {
			if removed && len(list.elems) == 0 {
				return d.removePath("hooks", event)
			}
			return nil
		}
		if err := d.removeElem(list, units[len(units)-1]); err != nil {
			return err
		}
		removed = true
	}
}

// ensure makes want setup's one element on the event's list: the one
// there kept when it is want, else replaced where it is; added after the
// others when there is none.
func (h hooks) ensure(d *jdoc, event string, want any) error {
	n, err := d.lookup("hooks", event)
	switch {
	case err != nil:
		return err
	case n == nil:
		return d.set([]string{"hooks", event}, []any{want})
	case n.kind != '[':
		return fmt.Errorf("%s: hooks.%s is not a list", d.file, event)
	}
	if _, err := h.dropStrays(d, event); err != nil {
		return err
	}
	for {
		list, units, _, err := h.find(d, event)
		switch {
		case err != nil:
			return err
		case len(units) > 1:
			if err := d.removeElem(list, units[len(units)-1]); err != nil {
				return err
			}
		case len(units) == 0:
			return d.addElem(list, want)
		case d.equal(list.elems[units[0]], want):
			return nil
		default:
			return d.replace(list.elems[units[0]], want)
		}
	}
}

// textFile is a markdown file setup puts block in: a file of its own
// begins with head (a Cursor rule's frontmatter, else nothing), and is
// deleted when, the block taken out, only head is left.
func textFile(path, what, head, block string) target {
	return target{path: path, what: what, edit: func(text []byte, exists, remove bool) ([]byte, bool, error) {
		t := string(text)
		if !exists {
			t = head
		}
		var out string
		var err error
		if remove {
			out, err = cutBlock(path, t, mdMarkers)
		} else {
			out, err = putBlock(path, t, block, mdMarkers)
		}
		if err != nil {
			return nil, false, err
		}
		return []byte(out), strings.TrimSpace(out) == strings.TrimSpace(head), nil
	}}
}

// codexConfig is Codex's config.toml, which gets the table
// [mcp_servers.vaultmem] in a block of its own. The file must parse
// before and after, and must not define that table outside the block.
func codexConfig(path, binary string, args []string) target {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = tomlString(a)
	}
	block := tomlMarkers.begin + "\n" +
		"# Written by `vaultmem setup codex`; `vaultmem setup codex --remove` takes it out.\n" +
		"[mcp_servers." + ServerName + "]\n" +
		"command = " + tomlString(binary) + "\n" +
		"args = [" + strings.Join(quoted, ", ") + "]\n" +
		tomlMarkers.end + "\n"
	return target{path: path, what: "MCP server " + ServerName, edit: func(text []byte, _, remove bool) ([]byte, bool, error) {
		t := string(text)
		if _, err := parseTOML(path, t); err != nil {
			return nil, false, err
		}
		outside, err := cutBlock(path, t, tomlMarkers)
		if err != nil {
			return nil, false, err
		}
		if remove {
			return []byte(outside), strings.TrimSpace(outside) == "", nil
		}
		cfg, err := parseTOML(path, outside)
		if err != nil {
			return nil, false, err
		}
		if servers, ok := cfg["mcp_servers"].(map[string]any); ok && servers[ServerName] != nil {
			return nil, false, fmt.Errorf("%s: [mcp_servers.%s] is already defined outside vaultmem's block: "+
				"remove it (setup writes its own), or leave this file alone", path, ServerName)
		}
		out, err := putBlock(path, t, block, tomlMarkers)
		if err != nil {
			return nil, false, err
		}
		if _, err := parseTOML(path, out); err != nil {
			return nil, false, fmt.Errorf("adding [mcp_servers.%s] would break the file: %w", ServerName, err)
		}
		return []byte(out), false, nil
	}}
}

// parseTOML reads text as TOML. Errors name the file, the line and the
// column.
func parseTOML(file, text string) (map[string]any, error) {
	var v map[string]any
	if err := toml.Unmarshal([]byte(text), &v); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, fmt.Errorf("%s:%d:%d: not valid TOML: %v", file, line, col, de)
		}
		return nil, fmt.Errorf("%s: not valid TOML: %v", file, err)
	}
	return v, nil
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\u` + fmt.Sprintf("%04X", r))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
