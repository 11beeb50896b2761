package vault

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
)

// The paths vaultmem owns in a vault, relative to its root and
// slash-separated. Everything under [DotDir] but the config and the state
// is rebuildable or per machine, and kept out of git by [GitignoreFile].
const (
	// DotDir is vaultmem's folder; a vault is a folder holding it.
	DotDir = ".vaultmem"
	// ConfigFile holds the vault's settings (committed).
	ConfigFile = DotDir + "/config.yaml"
	// GitignoreFile keeps the cache, temp files and locks out of git.
	GitignoreFile = DotDir + "/.gitignore"
	// CacheDir holds the sidecar index (git-ignored, rebuildable).
	CacheDir = DotDir + "/cache"
	// TmpDir holds temp files of atomic writes and the watcher's lock
	// (git-ignored).
	TmpDir = DotDir + "/tmp"
	// StateDir holds what must survive a cache wipe: focus pointers,
	// checkpoints (committed).
	StateDir = DotDir + "/state"
	// LockFile serialises vaultmem's writes across processes
	// (git-ignored).
	LockFile = DotDir + "/lock"
	// MemoryListFile is the list of memories an agent loads at start.
	MemoryListFile = "MEMORY.md"
)

// GitignoreText is what [Vault.EnsureDir] writes to [GitignoreFile]: the
// cache, temp files, the writer's lock, the journal of a Dream run in
// progress (one machine's unfinished work), the running agent sessions'
// state (their prompts and files) and each agent's focus (which task the
// agents of this machine work on: who holds a task is the task note's
// assignee, committed) stay out of git; the config and the rest of state/
// are committed.
const GitignoreText = "# vaultmem: rebuildable cache, temp files, the writer's lock, Dream's unfinished work, this machine's agents' session state and focus\ncache/\ntmp/\nlock\nstate/dream-journal.json\nstate/sessions/\nstate/focus/\n"

// Folders name where new notes of each kind are written, vault-relative;
// an empty field means the default (memory, tasks, lessons). A note's kind
// comes from its frontmatter type:, wherever it lives.
type Folders struct {
	Memory, Tasks, Lessons string
}

// Vault is an opened vault folder: every read and write of vaultmem's goes
// through one [os.Root] on it, so that no path, however it is spelt or
// whatever symbolic links lie on it, leads out of the folder; and it knows
// where vaultmem keeps things in it (see the path constants and Folders).
// Open one with [Open] and Close it when done. It is safe for concurrent
// use.
type Vault struct {
	// Dir is the vault folder, absolute, symbolic links resolved.
	Dir     string
	folders Folders
	root    *os.Root
}

// Open opens the vault in folder dir, which must exist. It refuses a
// vault whose .vaultmem another user can change, unless the user trusts
// it (see [CheckOwner]).
func Open(dir string, folders Folders) (*Vault, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("open vault %s: %w", dir, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("open vault %s: %w", dir, unwrapPathError(err))
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("open vault %s: %w", dir, unwrapPathError(err))
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("open vault %s: not a folder", dir)
	}
	if err := CheckOwner(real); err != nil {
		return nil, fmt.Errorf("open vault %s: %w", dir, err)
	}
	root, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("open vault %s: %w", dir, unwrapPathError(err))
	}
	def := Folders{Memory: "memory", Tasks: "tasks", Lessons: "lessons"}
	for _, f := range []struct {
		got *string
		def string
	}{
		{&folders.Memory, def.Memory}, {&folders.Tasks, def.Tasks}, {&folders.Lessons, def.Lessons},
	} {
		if *f.got == "" {
			*f.got = f.def
		}
	}
	return &Vault{Dir: real, folders: folders, root: root}, nil
}

// Close releases the folder.
func (v *Vault) Close() error { return v.root.Close() }

// FS returns the vault as a file system, confined to its folder.
func (v *Vault) FS() fs.FS { return vaultFS{FS: v.root.FS(), dir: v.Dir} }

// Root returns the vault's os.Root, for callers that watch or write it.
func (v *Vault) Root() *os.Root { return v.root }

// Abs returns the absolute path of the vault path rel (for messages and
// for tools that need one, such as a file watcher).
func (v *Vault) Abs(rel string) string { return filepath.Join(v.Dir, filepath.FromSlash(rel)) }

// Folders returns where new notes of each kind are written, the defaults
// filled in.
func (v *Vault) Folders() Folders { return v.folders }

// EnsureDir creates the folder rel (slash-separated, under [DotDir]) with
// its parents. Whenever it creates [DotDir], or finds it without a
// .gitignore, it writes [GitignoreFile] first, so that no cache or lock
// file is ever seen by git before its ignore rule. An existing .gitignore
// is never changed. No folder on the path may be a symbolic link (a
// *LinkError: vaultmem does not write through links in a vault). It
// returns the error of the first thing it could not create (on a
// read-only vault, say), naming the path.
func (v *Vault) EnsureDir(rel string) error {
	if _, err := v.MkdirAll(DotDir); err != nil {
		return err
	}
	if _, err := v.WriteNew(GitignoreFile, []byte(GitignoreText)); err != nil {
		return err
	}
	if rel == "" || rel == DotDir {
		return nil
	}
	_, err := v.MkdirAll(rel)
	return err
}

// IsArchived reports whether note n is archived: its frontmatter has
// archived (a memory superseded, a lesson retired) or merged_into (a
// memory Dream merged into another). An archived note stays a note, read
// by humans and links, but out of MEMORY.md, recall and matching. The key
// archives whatever its value (true, a date): removing it brings the note
// back. The rule is the same for every kind, and the same in the Obsidian
// bases (file.hasProperty("archived")).
func IsArchived(n *markdown.Note) bool {
	return n.Frontmatter.Value("archived") != nil || n.Frontmatter.Value("merged_into") != nil
}

// StatusProposed is the frontmatter status of a note Dream proposed (a
// memory or a lesson drawn from a session note) that no person or agent
// has accepted yet. Deleting the key, or setting another status
// (accepted), accepts it.
const StatusProposed = "proposed"

// IsProposed reports whether note n waits to be accepted: its frontmatter
// status is proposed (case and surrounding spaces aside). Such a memory is
// not live (out of MEMORY.md's list and Dream's merges) and such a lesson
// is out of matching and decay, until accepted.
func IsProposed(n *markdown.Note) bool {
	s, ok := n.Frontmatter.String("status")
	return ok && ProposedStatus(s)
}

// ProposedStatus reports whether a frontmatter status value says
// proposed.
func ProposedStatus(s string) bool { return strings.EqualFold(strings.TrimSpace(s), StatusProposed) }
