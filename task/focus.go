package task

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/vaultmem/vaultmem/vault"
	"go.yaml.in/yaml/v3"
)

// DefaultAgent is the agent id when none is given.
const DefaultAgent = "default"

// FocusDir is the folder under .vaultmem/state holding one focus file per
// agent ("focus/claude.yaml", "focus/claude/tests.yaml" for the subagent
// claude/tests): one file each, so agents on several machines never
// conflict in git.
const FocusDir = "focus"

var agentPart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$`) })

// maxAgentDepth bounds how deep subagents nest ("a/b/c/...").
const maxAgentDepth = 8

// CheckAgent validates an agent id: one or more parts separated by '/'
// (a subagent's id is its parent's, '/', its own name), each 1-64 letters,
// digits, '.', '_', '@' or '-', not starting with a punctuation mark.
func CheckAgent(agent string) error {
	parts := strings.Split(agent, "/")
	if len(parts) > maxAgentDepth {
		return &InvalidError{"agent", fmt.Sprintf("%q nests over %d levels", agent, maxAgentDepth)}
	}
	for _, p := range parts {
		if !agentPart().MatchString(p) {
			return &InvalidError{"agent", fmt.Sprintf("%q: each part (between '/') must be 1-64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit", agent)}
		}
	}
	return nil
}

// AgentID makes an agent id of any name (an MCP client's, "Claude Code"):
// the runs of characters an id cannot hold become '-'; DefaultAgent when
// nothing is left.
func AgentID(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range name {
		ok := r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._@", r))
		if !ok {
			dash = b.Len() > 0
			continue
		}
		if dash {
			b.WriteByte('-')
			dash = false
		}
		b.WriteRune(r)
	}
	id := strings.TrimLeft(b.String(), "._@-")
	if len(id) > 64 {
		id = id[:64]
	}
	if CheckAgent(id) != nil {
		return DefaultAgent
	}
	return id
}

// focusFile is what an agent's focus file holds.
type focusFile struct {
	// Task is the focused task's vault path; Name its name, to find it
	// again when a human renamed or moved it.
	Task  string `yaml:"task"`
	Name  string `yaml:"name,omitempty"`
	Since string `yaml:"since,omitempty"`
}

// Focus is an agent's focused task.
type Focus struct {
	Agent string `json:"agent"`
	// Task is the focused task's path; "" when none.
	Task string `json:"task"`
	Name string `json:"name,omitempty"`
	// From is the agent whose focus file holds it: Agent itself, or a
	// parent agent whose focus a subagent without its own reads.
	From string `json:"from,omitempty"`
	// Lost says why a focus file's task could not be found ("" when it
	// was, or there is none).
	Lost string `json:"lost,omitempty"`
	// HeldBy is the agent holding the focused task (doing or blocked)
	// when it is neither Agent nor From: another agent took it over, or
	// a merge of two clones' claims settled it to another (see
	// ClaimWinner). Notice says so, for the agent to read.
	HeldBy string `json:"held_by,omitempty"`
	Notice string `json:"notice,omitempty"`
}

func focusName(agent string) string { return FocusDir + "/" + agent + ".yaml" }

// readFocus reads one agent's own focus file; ok is false when it has
// none.
func (s *Store) readFocus(agent string) (f focusFile, hash string, ok bool, err error) {
	b, hash, err := s.w.ReadState(focusName(agent))
	if errors.Is(err, vault.ErrNotFound) {
		return focusFile{}, "", false, nil
	}
	if err != nil {
		return focusFile{}, "", false, err
	}
	if err := yaml.Unmarshal(b, &f); err != nil {
		return focusFile{}, "", false, fmt.Errorf("%s/%s: %w", vault.StateDir, focusName(agent), err)
	}
	return f, hash, true, nil
}

// Focus returns agent's focused task: its own focus file's, else (for a
// subagent "a/b") the nearest parent agent's. A focus file whose task is
// gone (deleted, or renamed and not found by name) gives no task and says
// so in Lost; one another agent holds now is still the focus, with
// HeldBy and Notice saying who holds it.
func (s *Store) Focus(ctx context.Context, agent string) (Focus, error) {
	if err := CheckAgent(agent); err != nil {
		return Focus{}, err
	}
	for from := agent; ; {
		f, _, ok, err := s.readFocus(from)
		if err != nil {
			return Focus{}, err
		}
		if ok {
			out := Focus{Agent: agent, From: from}
			if f.Task == "" {
				return out, nil // cleared: a subagent's own "no focus"
			}
			p, err := s.find(ctx, f)
			if err != nil {
				out.Lost = fmt.Sprintf("focus file %s/%s names %s, which is no task now (%v)", vault.StateDir, focusName(from), f.Task, err)
				return out, nil
			}
			out.Task, out.Name = p, f.Name
			if n, err := s.read(p); err == nil {
				out.HeldBy, out.Notice = heldNotice(n, agent, from)
			}
			return out, nil
		}
		i := strings.LastIndexByte(from, '/')
		if i < 0 {
			return Focus{Agent: agent}, nil
		}
		from = from[:i]
	}
}

// find returns the path of the task a focus file names: its path, else a
// task by its name (a human moved or renamed it).
func (s *Store) find(ctx context.Context, f focusFile) (string, error) {
	if _, _, err := s.w.Read(f.Task); err == nil {
		return f.Task, nil
	}
	if f.Name == "" {
		return "", fmt.Errorf("%s: %w", f.Task, vault.ErrNotFound)
	}
	return s.Resolve(ctx, f.Name)
}

// setFocus writes agent's own focus file: the task at p (named name), or
// none when p is "".
func (s *Store) setFocus(ctx context.Context, agent, p, name string) error {
	f := focusFile{Task: p, Name: name}
	if p != "" {
		f.Since = s.now().Format(EventTimeLayout)
	}
	b, err := yaml.Marshal(f)
	if err != nil {
		return err
	}
	_, err = s.w.WriteState(ctx, focusName(agent), b, vault.AnyHash)
	return err
}
