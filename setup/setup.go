package setup

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Client is an agent program vaultmem knows: setup wires it, and the hook
// (package agenthook) reads and answers its events.
type Client string

// The clients.
const (
	ClaudeCode Client = "claude-code"
	Codex      Client = "codex"
	GeminiCLI  Client = "gemini-cli"
	Cursor     Client = "cursor"
)

// Clients are the clients, in the order help lists them.
var Clients = []Client{ClaudeCode, Codex, GeminiCLI, Cursor}

// ParseClient is the client named s. Errors: a name that is not one of
// Clients.
func ParseClient(s string) (Client, error) {
	for _, c := range Clients {
		if string(c) == s {
			return c, nil
		}
	}
	return "", fmt.Errorf("no client %q: vaultmem knows claude-code, codex, gemini-cli and cursor", s)
}

// Title is the client's name as its makers write it.
func (c Client) Title() string {
	switch c {
	case ClaudeCode:
		return "Claude Code"
	case Codex:
		return "Codex"
	case GeminiCLI:
		return "Gemini CLI"
	case Cursor:
		return "Cursor"
	}
	return string(c)
}

// Options say what to set up, where.
type Options struct {
	Client Client
	// Vault is the vault folder, absolute: the MCP server and the hooks
	// run on it. Not needed with Remove.
	Vault string
	// Project is the project folder, absolute, where the project's files
	// go; unused with Global.
	Project string
	// Home is the user's home folder, absolute, where the user's files go.
	Home string
	// Global writes the user's files (under Home), for every project,
	// instead of the project's.
	Global bool
	// Binary is the command that runs vaultmem: Command when that is on
	// the PATH, else an absolute path. Not needed with Remove.
	Binary string
	// DryRun says what would change and writes nothing.
	DryRun bool
	// Remove takes out what setup added.
	Remove bool
	// Now is the time of the backups' names; nil is time.Now.
	Now func() time.Time
}

// Change is what a run did, or would do, to one file.
type Change struct {
	// File is the file's path, absolute.
	File string `json:"file"`
	// Action is "create", "update", "unchanged", "remove" (setup's part
	// taken out of the file) or "delete" (the file deleted: nothing else
	// was left in it).
	Action string `json:"action"`
	// What says, for a person, what of setup's the file holds: "MCP
	// server vaultmem", "hooks SessionStart, UserPromptSubmit, ...",
	// "memory protocol block".
	What string `json:"what"`
	// Backup is where the file's previous content was saved (with
	// DryRun: would be saved).
	Backup string `json:"backup,omitempty"`
	// For is whom the file serves: ForTeam (a project file that names
	// no path of this machine's: commit it) or ForMachine (the user's
	// own file, or a project file git should not track).
	For string `json:"for"`
}

// Whom a file serves (Change.For).
const (
	ForTeam    = "team"
	ForMachine = "machine"
)

// Command is vaultmem's command as the project's files name it, found on
// the PATH of whoever runs the client.
const Command = "vaultmem"

// Result is what a run did.
type Result struct {
	// Changes lists one change per file, in the order they were written.
	Changes []Change `json:"changes"`
	// Notes say what the user must still do, or should know.
	Notes []string `json:"notes"`
	// Shared is true when the project's files were written for the team
	// (see Options.Shared).
	Shared bool `json:"shared"`
}

// The actions of a Change.
const (
	Create    = "create"
	Update    = "update"
	Unchanged = "unchanged"
	Remove    = "remove"
	Delete    = "delete"
)

// BackupInfix is in the name of every backup: FILE.vaultmem-backup-YYYYMMDD-HHMMSS.
const BackupInfix = ".vaultmem-backup-"

// Run sets up (or with o.Remove takes out) vaultmem for o.Client. It reads
// every file it would change and plans each edit first: when one file
// does not parse (or holds a vaultmem entry setup cannot tell from the
// user's), it returns the error, naming the file and line, and writes
// nothing. Then it writes the files one by one, each after a backup of
// its old content; a file changed by someone else since it was read stops
// the run there. A file taken out of (with Remove, or as the other kind
// of set-up, see Shared) that holds nothing of setup's is not listed.
func Run(o Options) (Result, error) {
	res := Result{Changes: []Change{}, Notes: []string{}}
	if err := o.check(); err != nil {
		return res, err
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	var plans []plan
	var alsoRun []string
	for _, t := range o.targets() {
		probe := t.probe && !o.Remove
		p, err := t.plan(o.Remove || t.cleanup || probe)
		if err != nil {
			return res, err
		}
		if probe {
			if !p.skip && p.action != Unchanged {
				alsoRun = append(alsoRun, t.path)
			}
			continue
		}
		// Taking out, a file with nothing of setup's is not worth a line.
		if p.skip || (o.Remove || t.cleanup) && p.action == Unchanged {
			continue
		}
		plans = append(plans, p)
	}
	stamp := o.Now().Format("20060102-150405")
	for _, p := range plans {
		c := Change{File: p.path, Action: p.action, What: p.what, For: p.forWhom}
		if p.exists && p.action != Unchanged && p.action != Delete {
			c.Backup = backupName(p.real, stamp)
		}
		if !o.DryRun && p.action != Unchanged {
			if err := p.apply(&c, stamp, o.root()); err != nil {
				return res, err
			}
		}
		res.Changes = append(res.Changes, c)
	}
	res.Notes = o.notes()
	if len(alsoRun) > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("The team's %s run vaultmem too, as `%s` with the vault relative to the project: "+
			"%s runs those hooks beside this machine's, and they fail here while vaultmem is not on the PATH or the vault is "+
			"not in the project. Setup leaves the team's files alone: put vaultmem on the PATH and run setup again, "+
			"which takes this machine's entries out.", strings.Join(alsoRun, " and "), Command, o.Client.Title()))
	}
	if both := o.otherScopeHooks(); len(both) > 0 && !o.Remove {
		this, other, flag := "this project", "all your projects", " --global"
		if o.Global {
			this, other, flag = "all your projects", "this project", ""
		}
		res.Notes = append(res.Notes, fmt.Sprintf("vaultmem is set up for %s in %s and in %s (%s): %s runs both, so every hook "+
			"runs twice, each set finding its own vault; neither wins. Keep one: vaultmem setup %s --remove%s takes out the one for %s.",
			o.Client.Title(), this, other, strings.Join(both, ", "), o.Client.Title(), o.Client, flag, other))
	}
	res.Shared, _ = o.Shared()
	return res, nil
}

// otherScopeHooks are the hook files of the other scope (the user's own
// when setting up a project, the project's when setting up globally) that
// hold setup's part: the client runs those hooks as well as these.
func (o Options) otherScopeHooks() []string {
	other := o
	other.Global = !o.Global
	if other.Global && o.Home == "" || !other.Global && o.Project == "" {
		return nil
	}
	var out []string
	for _, t := range other.targets() {
		if !strings.HasSuffix(t.path, "settings.json") && !strings.HasSuffix(t.path, "settings.local.json") && !strings.HasSuffix(t.path, "hooks.json") {
			continue
		}
		if p, err := t.plan(true); err == nil && !p.skip && p.action != Unchanged {
			out = append(out, t.path)
		}
	}
	return out
}

// check refuses options Run cannot work with.
func (o Options) check() error {
	if _, err := ParseClient(string(o.Client)); err != nil {
		return err
	}
	abs := func(name, p string) error {
		if !filepath.IsAbs(p) {
			return fmt.Errorf("setup: the %s folder must be an absolute path, got %q", name, p)
		}
		return nil
	}
	if err := abs("home", o.Home); err != nil {
		return err
	}
	if !o.Global {
		if err := abs("project", o.Project); err != nil {
			return err
		}
	}
	if !o.Remove {
		if err := abs("vault", o.Vault); err != nil {
			return err
		}
		if o.Binary == "" {
			return errors.New("setup: no vaultmem command given")
		}
		// Claude Code alone has files of one project on one machine
		// (settings.local.json, ~/.claude.json's projects); another
		// client's project files are the team's, and its user files
		// serve every project.
		if shared, why := o.Shared(); !o.Global && !shared && o.Client != ClaudeCode {
			return fmt.Errorf("setup %s: %s, and the project's files are the team's (committed with the project), "+
				"so they name no path of this machine's; %s has no file for one project on one machine: "+
				"put vaultmem on the PATH and keep the vault in the project (the default, %s/), "+
				"or set it up for you alone in every project with --global", o.Client, why, o.Client.Title(), DefaultVault)
		}
	}
	return nil
}

// DefaultVault is the folder of the vault setup makes in a project that
// has none.
const DefaultVault = "agent-memory"

// Shared reports whether a set-up of a project writes the project's
// files for the team: they name Command, found on the PATH, and the vault
// relative to the project, so a clone anywhere runs its own vault. That
// needs Binary to be Command and the vault inside the project. why says,
// when not, why not. Never with Global.
func (o Options) Shared() (shared bool, why string) {
	switch _, inside := o.relVault(); {
	case o.Global:
		return false, "the set-up is the user's"
	case o.Binary != Command:
		return false, fmt.Sprintf("vaultmem is not on the PATH (this machine runs %s)", o.Binary)
	case !inside:
		return false, fmt.Sprintf("the vault %s is outside the project %s", o.Vault, o.Project)
	}
	return true, ""
}

// relVault is the vault relative to the project, with slashes (a clone
// on Windows reads it too), and whether the vault is inside the project.
func (o Options) relVault() (string, bool) {
	rel, err := filepath.Rel(o.Project, o.Vault)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// root is the folder the files of this scope are under.
func (o Options) root() string {
	if o.Global {
		return o.Home
	}
	return o.Project
}

// target is one file setup edits.
type target struct {
	path    string
	what    string
	forWhom string // ForTeam or ForMachine
	// cleanup takes setup's part out even when setting up: the entries
	// of this machine's set-up once the team's files have them, so that
	// no hook runs twice; a file it leaves unchanged is not listed.
	cleanup bool
	// probe plans the removal of setup's part to learn whether the file
	// holds any, and neither writes nor lists the file: the team's files
	// during this machine's set-up.
	probe bool
	// edit returns the file's new text from its old one (exists false:
	// there is none) and, when removing, whether nothing is left in it
	// that is not setup's. Errors name the file.
	edit func(text []byte, exists, remove bool) (out []byte, empty bool, err error)
}

// plan is what a run will do to one file.
type plan struct {
	path, real   string // the path, and the file it is a link to (else path)
	what, action string
	forWhom      string
	exists       bool
	link         bool // path is a symbolic link
	mode         fs.FileMode
	before       []byte
	after        []byte
	skip         bool // removing from a file that does not exist
}

// plan reads the file and makes its edit.
func (t target) plan(remove bool) (plan, error) {
	p := plan{path: t.path, real: t.path, what: t.what, forWhom: t.forWhom, mode: 0o644}
	info, err := os.Stat(t.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if remove {
			return plan{skip: true}, nil
		}
	case err != nil:
		return p, err
	case !info.Mode().IsRegular():
		return p, fmt.Errorf("%s: not a regular file", t.path)
	default:
		p.exists, p.mode = true, info.Mode().Perm()
		if p.before, err = os.ReadFile(t.path); err != nil {
			return p, err
		}
		if p.real, err = filepath.EvalSymlinks(t.path); err != nil {
			return p, err
		}
		if li, err := os.Lstat(t.path); err == nil && li.Mode()&fs.ModeSymlink != 0 {
			p.link = true
		}
	}
	after, empty, err := t.edit(p.before, p.exists, remove)
	if err != nil {
		return p, err
	}
	p.after = after
	switch {
	case !p.exists:
		p.action = Create
	case bytes.Equal(after, p.before):
		p.action = Unchanged
	case remove && empty && !p.link: // a link's target is the user's to delete
		p.action = Delete
	case remove:
		p.action = Remove
	default:
		p.action = Update
	}
	return p, nil
}

// apply writes the plan: the backup (named into c), then the file, or its
// deletion and that of the folders it leaves empty up to root.
func (p plan) apply(c *Change, stamp, root string) error {
	// Someone else's write since the file was read wins: stop.
	now, err := os.ReadFile(p.real)
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	case (err == nil) != p.exists || !bytes.Equal(now, p.before):
		return fmt.Errorf("%s changed while setup ran; nothing more was written: run setup again", p.path)
	}
	if c.Backup != "" {
		if c.Backup, err = writeBackup(p.real, stamp, p.before, p.mode); err != nil {
			return err
		}
	}
	if p.action == Delete {
		if err := os.Remove(p.real); err != nil {
			return err
		}
		pruneDirs(filepath.Dir(p.path), root)
		return nil
	}
	return writeAtomic(p.real, p.after, p.mode)
}

// backupName is the name of a backup of file made at stamp: the first
// free one of FILE.vaultmem-backup-STAMP, -STAMP-2, -STAMP-3, ...
func backupName(file, stamp string) string {
	for n := 1; ; n++ {
		name := file + BackupInfix + stamp
		if n > 1 {
			name += fmt.Sprintf("-%d", n)
		}
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name
		}
	}
}

// writeBackup saves data, the content of file, as a new backup beside it
// with the file's mode, and returns the backup's path.
func writeBackup(file, stamp string, data []byte, mode fs.FileMode) (string, error) {
	for {
		name := backupName(file, stamp)
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, fs.ErrExist) {
			continue // taken meanwhile: the next name
		}
		if err != nil {
			return "", fmt.Errorf("backup of %s: %w", file, err)
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return "", fmt.Errorf("backup of %s: %w", file, err)
		}
		return name, nil
	}
}

// writeAtomic writes data to file through a temporary file in the same
// folder renamed over it, so that a reader sees the old file or the new,
// never part of one. The folder is made when missing.
func writeAtomic(file string, data []byte, mode fs.FileMode) (err error) {
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(file)+".vaultmem-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			err = fmt.Errorf("write %s: %w", file, err)
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Chmod(mode); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), file)
}

// pruneDirs removes dir and the folders above it that are empty, up to
// (not including) root; never a link to a folder.
func pruneDirs(dir, root string) {
	for dir != root && strings.HasPrefix(dir, root+string(filepath.Separator)) {
		if info, err := os.Lstat(dir); err != nil || !info.IsDir() || os.Remove(dir) != nil { // a link, or not empty
			return
		}
		dir = filepath.Dir(dir)
	}
}
