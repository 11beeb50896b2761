package hookpolicy

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/text"
	"github.com/vaultmem/vaultmem/vault"
)

// openVault is a new vault in a temporary folder and its Writer.
func openVault(t *testing.T) (*vault.Vault, *vault.Writer) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, vault.DotDir), 0o755); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v, vault.NewWriter(v, vault.WriterOptions{})
}

// TestTrivial: a prompt of stop words alone, or of assent and going on
// only, asks recall nothing; one word of substance does.
func TestTrivial(t *testing.T) {
	for _, tt := range []struct {
		prompt string
		want   bool
	}{
		{"", true},
		{"yes", true},
		{"OK, go on please", true},
		{"lgtm, thanks!", true},
		{"do it", true},
		{"it is what it is", true}, // stop words only
		{"yes, but use pnpm", false},
		{"deploy", false},
		{"go on with the migration", false},
	} {
		if got := trivial(text.ContentTerms(tt.prompt), text.Words(tt.prompt)); got != tt.want {
			t.Errorf("trivial(%q) = %v, want %v", tt.prompt, got, tt.want)
		}
	}
}

// TestCovers: a passage is given for a prompt when it holds the share of
// the prompt's terms asked for, rounded up, three at most.
func TestCovers(t *testing.T) {
	for _, tt := range []struct {
		prompt, passage string
		share           float64
		want            bool
	}{
		{"which package manager for installs", "Always use pnpm for package installs", 0.5, true},   // 2 of 4 terms
		{"which package manager for installs", "Always use pnpm for packages", 0.5, false},          // 1 of 4
		{"which package manager for installs", "Always use pnpm for packages", 0.25, true},          // 1 of 4, share a quarter
		{"deploy canary fridays rollback metrics alerts", "deploy the canary on fridays", 1, true},  // three are enough
		{"deploy canary fridays rollback metrics alerts", "deploy the canary on mondays", 1, false}, // two are not
		{"deploy", "nothing about it", 0.5, false},
	} {
		terms := text.ContentTerms(tt.prompt)
		if got := covers(terms, tt.passage, tt.share); got != tt.want {
			t.Errorf("covers(%q, %q, %v) = %v, want %v (terms %v)", tt.prompt, tt.passage, tt.share, got, tt.want, terms)
		}
	}
}

// TestCheckpointText: what a checkpoint says of a session: its focused
// task, its last three prompts, its last twenty files changed.
func TestCheckpointText(t *testing.T) {
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	var many session.State
	for i := range 25 {
		many.AddFile(string(rune('a'+i)) + ".go")
	}
	for i, p := range []string{"one", "two", "three", "four"} {
		many.AddPrompt(at.Add(time.Duration(i)*time.Second), p)
	}
	for _, tt := range []struct {
		name  string
		st    *session.State
		focus string
		want  string
	}{
		{"nothing", &session.State{}, "", "nothing recorded yet in this session."},
		{"a focus", &session.State{}, "tasks/Ship the importer.md", "working on Ship the importer."},
		{"the last of each", &many, "tasks/T.md",
			`working on T; last prompts "two", "three", "four"; files changed f.go, g.go, h.go, i.go, j.go, k.go, l.go, m.go, n.go, o.go, p.go, q.go, r.go, s.go, t.go, u.go, v.go, w.go, x.go, y.go.`},
	} {
		if got := checkpointText(tt.st, tt.focus); got != tt.want {
			t.Errorf("%s: checkpointText = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestRelativePaths: a tool call's absolute paths are made relative to
// the project, else the vault, as lessons' triggers name them; others
// stay as they are.
func TestRelativePaths(t *testing.T) {
	v, _ := openVault(t)
	h := &Policy{Vault: v}
	cwd := filepath.Join(t.TempDir(), "project")
	paths := []string{
		filepath.Join(cwd, "db", "migrations", "0042.sql"),
		filepath.Join(v.Dir, "memory", "pnpm.md"),
		"relative/stays.go",
		filepath.Join(filepath.Dir(cwd), "elsewhere", "x.go"),
		cwd + "-sibling/y.go",
		filepath.Dir(cwd), // the project's parent: ".." is no path in it
	}
	want := []string{"db/migrations/0042.sql", "memory/pnpm.md", "relative/stays.go", paths[3], paths[4], paths[5]}
	if got := h.relativePaths(cwd, paths); !slices.Equal(got, want) {
		t.Errorf("relativePaths = %q, want %q", got, want)
	}
	if got := h.relativePaths("", paths[1:2]); !slices.Equal(got, want[1:2]) {
		t.Errorf("without a cwd: %q, want %q", got, want[1:2])
	}
}

// TestSessionsFolder: the session notes' folder, when vaultmem makes it,
// gets the .gitignore that keeps them on this machine; a folder that
// exists is left as it is, and notes at the vault's top need none.
func TestSessionsFolder(t *testing.T) {
	v, _ := openVault(t)
	h := &Policy{Vault: v, Settings: Settings{SessionsFolder: "sessions"}}
	if err := h.ensureSessionsFolder(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(v.Dir, "sessions", ".gitignore")); err != nil || string(b) != SessionsGitignore {
		t.Errorf("new folder's .gitignore: %v %q", err, b)
	}
	if err := os.Mkdir(filepath.Join(v.Dir, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	h.Settings.SessionsFolder = "shared"
	if err := h.ensureSessionsFolder(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(v.Dir, "shared", ".gitignore")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a folder that existed got a .gitignore: %v", err)
	}
	for _, top := range []string{"", ".", "./"} {
		h.Settings.SessionsFolder = top
		if err := h.ensureSessionsFolder(); err != nil {
			t.Errorf("%q: %v", top, err)
		}
	}
	if _, err := os.Stat(filepath.Join(v.Dir, ".gitignore")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("notes at the top got a .gitignore: %v", err)
	}
}

// TestForgetEndedSessions: at a session's end, the states untouched for
// thirty days go; the younger stay, for a resume to continue their note.
func TestForgetEndedSessions(t *testing.T) {
	v, w := openVault(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	ages := map[string]time.Duration{"old": 31 * 24 * time.Hour, "edge": endedSessionDays * 24 * time.Hour, "young": 29 * 24 * time.Hour}
	for id, age := range ages {
		name := session.StateName(id)
		if _, err := w.WriteState(ctx, name, []byte("{}"), vault.AnyHash); err != nil {
			t.Fatal(err)
		}
		at := now.Add(-age)
		if err := os.Chtimes(v.Abs(vault.StateDir+"/"+name), at, at); err != nil {
			t.Fatal(err)
		}
	}
	h := &Policy{Vault: v, States: w}
	if err := h.forgetEndedSessions(ctx, now); err != nil {
		t.Fatal(err)
	}
	left, err := w.ListState(session.StateFolder)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(left)
	if want := []string{"sessions/young.json"}; !slices.Equal(left, want) {
		t.Errorf("states left %q, want %q", left, want)
	}
}

// TestAnswerUnknownKind: an event of no kind the policy knows is refused
// with ErrUnknownKind, naming the kind, and touches nothing.
func TestAnswerUnknownKind(t *testing.T) {
	_, err := (&Policy{}).Answer(context.Background(), Event{Kind: "pre-compact", Session: "s1", Agent: "main", Time: time.Now()})
	if !errors.Is(err, ErrUnknownKind) || err.Error() != `hook: unknown event kind "pre-compact"` {
		t.Errorf("err = %v", err)
	}
}
