package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/vaultmem/vaultmem/chat"
	"github.com/vaultmem/vaultmem/config"
	"github.com/vaultmem/vaultmem/dream"
	"github.com/vaultmem/vaultmem/embed"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/internal/obsidiancli"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/setup"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/vault"
)

// Options configure Open. The zero value opens the index for a command
// that runs and exits.
type Options struct {
	// NoIndex opens no index: for what needs only the files (a merge
	// driver, init).
	NoIndex bool
	// oneEvent opens the App for a hook's own process, which lives for
	// one event and answers within the hook's own time: it writes the
	// files directly, never through Obsidian's CLI (vault.access: asking
	// the CLI is a subprocess, up to 5 s, which may start the app), and
	// matches lessons by their words alone (by meaning needs the vault's
	// model loaded from the index, about 10 ms a process, a third of a
	// PreToolUse hook's; a running server has it loaded and matches by
	// meaning too).
	oneEvent bool
	// Resident opens the index for a long-running process (see
	// index.Options.Resident).
	Resident bool
	// LockWait, if set, is told when a write waits for another process's
	// lock, with the holder's pid ("" when not known).
	LockWait func(holder string)
	// LockTimeout is the longest a write waits for the vault lock another
	// process holds before it fails with a *vault.LockError naming the
	// holder; 0 means vault.DefaultLockTimeout (5 s). A context's deadline
	// (a hook's) ends the wait when it is earlier.
	LockTimeout time.Duration
	// Progress, if set, is told how a long sync goes (files done of all).
	Progress func(done, total int)
	// Notify, if set, is told what a user should know that is no error: a
	// cache that had to be rebuilt, an index kept in memory.
	Notify func(msg string)
	// OnSync, if set, is told what each sync a read made did (the notes it
	// read, their warnings, the files it could not read).
	OnSync func(index.Stats)
	// HeavyWork is given to the index (see index.Options.HeavyWork): the
	// binary's say in the runtime while the index briefly holds a large
	// heap.
	HeavyWork func() (done func())
	// LessonsOnly says that the command reads nothing of the index but
	// lessons (a hook before or after a tool call): Sync then leaves the
	// index as it is while the lessons folder is as the last sync saw it
	// (its files' names, sizes and times, none modified too recently to
	// trust; see lessonsStampFile), and other notes' changes wait for the
	// next command that reads them. A lesson kept outside the lessons
	// folder is seen at that next sync.
	LessonsOnly bool
	// Loaded, if set, is the vault's config and consent as
	// LoadConfigConsent gave them to a caller that read them first (a
	// hook, for its deadline): Open does not read and parse them again.
	Loaded *LoadedConfig
}

// LoadedConfig is what LoadConfigConsent returned, for Options.Loaded.
type LoadedConfig struct {
	Config  Config
	Consent Consent
}

// App is an opened vault and what vaultmem does with it: its config, the
// one Writer, the index, the memory, task and lesson stores, recall and
// Dream. Open one with Open and Close it. Its methods are safe for
// concurrent use, as the stores and the index are.
type App struct {
	// Vault is the vault, Config its effective config (see
	// EffectiveConfig), Consent what of the vault's config that left out
	// for want of the user's consent (the front end tells the user).
	Vault   *vault.Vault
	Config  Config
	Consent Consent

	opts   Options
	writer *vault.Writer
	ix     *index.Index

	lessonsOnce sync.Once
	lessons     *lesson.Store
	lessonsErr  error
	// health is what this process's lessons did (see Lessons.Health).
	health *lesson.Health

	ownerOnce sync.Once
	owner     string

	// l1 holds the notes a long-running App read or wrote lately (see
	// Notes.Read); nil for a command that runs and exits.
	l1 *noteCache
}

// Find returns the vault folder for a command run in dir: flag (a --vault
// given) when set, else the nearest folder at or above dir holding
// .vaultmem/, as git finds a repository, else the project's vault that
// `vaultmem setup` makes, agent-memory/ (setup.DefaultVault) at the top of
// the git repository holding dir. The CLI, the MCP server, the hooks and
// the plugin all find a vault so. Errors say what to do.
func Find(dir, flag string) (string, error) {
	if flag != "" {
		abs, err := filepath.Abs(flag)
		if err != nil {
			return "", err
		}
		info, err := os.Stat(abs)
		if err != nil {
			return "", fmt.Errorf("vault %s: %w", flag, errors.Unwrap(err))
		}
		if !info.IsDir() {
			return "", fmt.Errorf("vault %s: not a folder", flag)
		}
		return abs, nil
	}
	isVault := func(d string) bool {
		info, err := os.Stat(filepath.Join(d, vault.DotDir))
		return err == nil && info.IsDir()
	}
	top := "" // the nearest folder holding .git: the repository's top
	for d := dir; ; d = filepath.Dir(d) {
		if isVault(d) {
			return d, nil
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil && top == "" {
			top = d
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if p := filepath.Join(top, setup.DefaultVault); top != "" && isVault(p) {
		return p, nil
	}
	return "", fmt.Errorf("no vault here: no .vaultmem folder in %s or any folder above it, nor a %s/ vault at its repository's top; run 'vaultmem init' in the vault, 'vaultmem setup' in the project, or pass --vault DIR", dir, setup.DefaultVault)
}

// Open opens the vault in dir with its config and, unless o.NoIndex, its
// index (a vault that cannot be written gets a read-only or in-memory
// index; see index.Open). Errors: the config's (naming the file and line),
// the vault's, the index's.
func Open(ctx context.Context, dir string, o Options) (*App, error) {
	// A .vaultmem another user can change is refused before its config is
	// even read (vault.Open checks again, for every other caller).
	if err := vault.CheckOwner(dir); err != nil {
		return nil, fmt.Errorf("open vault %s: %w", dir, err)
	}
	var (
		cfg     Config
		consent Consent
		err     error
	)
	if o.Loaded != nil {
		cfg, consent = o.Loaded.Config, o.Loaded.Consent
	} else if cfg, consent, err = LoadConfigConsent(dir); err != nil {
		return nil, err
	}
	v, err := vault.Open(dir, vault.Folders{Memory: cfg.Folders.Memory, Tasks: cfg.Folders.Tasks, Lessons: cfg.Folders.Lessons})
	if err != nil {
		return nil, err
	}
	// The temp folder holds the locks and the server's socket, some made
	// by path: a link in its place is refused now, for every use.
	if err := v.CheckLinks(vault.TmpDir); err != nil {
		v.Close()
		return nil, err
	}
	a := &App{Vault: v, Config: cfg, Consent: consent, opts: o, health: lesson.NewHealth(time.Now())}
	if o.Resident {
		a.l1 = newNoteCache(256)
	}
	a.writer = vault.NewWriter(v, vault.WriterOptions{MaxNoteSize: cfg.MaxNoteSize, LockWait: o.LockWait, LockTimeout: o.LockTimeout, Obsidian: a.obsidian(v.Dir, o)})
	if o.NoIndex {
		return a, nil
	}
	if err := a.attachIndex(ctx); err != nil {
		v.Close()
		return nil, err
	}
	return a, nil
}

// obsidian is the Writer's way to Obsidian's CLI, as vault.access says,
// unless o is for one event (see Options.oneEvent).
func (a *App) obsidian(dir string, o Options) vault.Obsidian {
	if o.oneEvent {
		return nil
	}
	return obsidiancli.Open(dir, a.Config.Vault.Access)
}

// attachIndex opens the index of an App opened without one.
func (a *App) attachIndex(ctx context.Context) error {
	ix, err := a.openIndex(ctx)
	if err != nil {
		return err
	}
	a.ix, a.opts.NoIndex = ix, false
	if why := a.ix.RebuiltBecause(); why != "" {
		a.notify("the index cache could not be used (%s); rebuilding it", why)
	}
	return nil
}

// openIndex opens the vault's index with the configured embedder.
func (a *App) openIndex(ctx context.Context) (*index.Index, error) {
	opts := index.Options{MaxNoteSize: a.Config.MaxNoteSize, ChunkTokens: a.Config.ChunkTokens, MemoryFolder: a.Config.Folders.Memory, Resident: a.opts.Resident, HeavyWork: a.opts.HeavyWork}
	e := a.Config.Embedder
	switch e.Provider {
	case "none":
		opts.NoVectors = true
	case "openai":
		key := ""
		if e.APIKeyEnv != "" {
			key = os.Getenv(e.APIKeyEnv)
		}
		oa, err := embed.NewOpenAI(embed.OpenAIOptions{URL: e.URL, Model: e.Model, APIKey: key, Dimensions: e.Dimensions, Timeout: e.Timeout})
		if err != nil {
			return nil, fmt.Errorf("embedder: %w", err)
		}
		opts.Embedder = oa
	case "llama":
		l, err := embed.NewLlama(e.ModelPath, e.GPULayers)
		if err != nil {
			return nil, fmt.Errorf("embedder: %w", err)
		}
		opts.Embedder = l
	}
	// The .gitignore first, so git never sees the cache. A folder that
	// cannot be made on a read-only vault leaves the index to fall back;
	// any other failure (the .gitignore not written) is the caller's to
	// know, and a symbolic link on the way is refused.
	if err := a.Vault.EnsureDir(vault.CacheDir); err != nil && !readOnly(err) {
		return nil, fmt.Errorf("index cache: %w", err)
	}
	if err := a.Vault.CheckLinks(vault.CacheDir); err != nil {
		return nil, err
	}
	return index.Open(ctx, a.Vault.Abs(vault.CacheDir), opts)
}

// RemoveIndex deletes the index cache, for a rebuild from nothing; Open
// the vault again after it. The App must have been opened with NoIndex.
func (a *App) RemoveIndex() error {
	if a.ix != nil {
		return errors.New("app: the index is open; open the vault with NoIndex to remove it")
	}
	if err := a.Vault.CheckLinks(vault.CacheDir); err != nil {
		return err
	}
	return index.Remove(a.Vault.Abs(vault.CacheDir))
}

// Close closes the index and the vault.
func (a *App) Close() error {
	if a.ix != nil {
		a.ix.Close()
	}
	return a.Vault.Close()
}

// Index is the vault's index (nil when opened with NoIndex): for tests
// and tools that drive the index itself. No front end uses it (.ci/run
// holds them to app's use cases).
func (a *App) Index() *index.Index { return a.ix }

// notify tells Options.Notify, if set.
func (a *App) notify(format string, args ...any) {
	if a.opts.Notify != nil {
		a.opts.Notify(fmt.Sprintf(format, args...))
	}
}

// memoryStore is the store of memories and MEMORY.md.
func (a *App) memoryStore() *memory.Store {
	folder := a.Vault.Folders().Memory
	return memory.NewStore(a.writer, a.ix.Stores(), memory.StoreOptions{Folder: folder, ReportFile: dream.LogFile(folder, a.Config.Dream.Log),
		Owner: a.Owner, Sharing: a.Config.Memory.Sharing(), Reviews: a.failingLessons})
}

// taskStore is the store of the task tree.
func (a *App) taskStore() *task.Store {
	return task.NewStore(a.writer, a.ix.Stores(), task.Options{Folder: a.Vault.Folders().Tasks, FS: a.Vault.FS()})
}

// openLessons is the store of lessons, with the config's rules and, when the
// config turns it on, the learned router: made once, so that its matcher's
// hot cache lives as long as the App.
func (a *App) openLessons() (*lesson.Store, error) {
	a.lessonsOnce.Do(func() { a.lessons, a.lessonsErr = a.newLessons() })
	return a.lessons, a.lessonsErr
}

func (a *App) newLessons() (*lesson.Store, error) {
	st, err := lesson.NewStore(a.writer, a.ix.Stores(), lesson.Options{Folder: a.Vault.Folders().Lessons, FS: a.Vault.FS(), Rules: a.Config.Lessons.Rules, Person: a.Owner, CacheDir: a.Vault.Abs(vault.CacheDir),
		OnOutcome: a.lessonApplied, Meaning: a.lessonMeaning()})
	if err != nil || !a.Config.Lessons.Router {
		return st, err
	}
	m, err := st.Router(a.Vault.Abs(vault.CacheDir))
	if err != nil {
		return nil, fmt.Errorf("lessons.router is on in the config, but: %w", err)
	}
	st.Matcher().SetRerank(lesson.Rerank(m))
	return st, nil
}

// recallOptions turns the config into recall options.
func (a *App) recallOptions() recall.Options {
	o := recall.Options{LLM: chatOptions(a.Config.Recall.Classifier), NoDeadlines: !a.Config.Recall.Deadlines(), BudgetFill: a.Config.Recall.BudgetFill}
	if len(a.Config.Recall.Routes) > 0 {
		o.Routes = map[recall.Intent]recall.Route{}
		for name, r := range a.Config.Recall.Routes {
			o.Routes[recall.Intent(name)] = r
		}
	}
	return o
}

// dreamer is Dream over the vault, with the config's log, commit and LLM
// (dream.llm, else recall.classifier), decaying the lessons as it runs
// and, with the LLM, proposing memories and lessons from the session
// notes (unless dream.propose is false).
func (a *App) dreamer() *dream.Dreamer {
	llm := chatOptions(a.Config.Dream.LLM)
	if llm == nil {
		llm = chatOptions(a.Config.Recall.Classifier)
	}
	return dream.New(a.Vault, a.writer, a.ix.Stores(), a.memoryStore(), dream.Options{Folder: a.Vault.Folders().Memory, LogFile: a.Config.Dream.Log,
		Commit: a.Config.Dream.Commit, LLM: llm, Propose: a.Config.Dream.Proposals(),
		AddLesson: func(ctx context.Context, l lesson.New) (string, error) {
			st, err := a.openLessons()
			if err != nil {
				return "", err
			}
			added, err := st.Add(ctx, l)
			return added.Path, err
		},
		Lessons: func(ctx context.Context, today string, dryRun bool) ([]string, error) {
			st, err := a.openLessons()
			if err != nil {
				return nil, err
			}
			ds, _, err := st.Decay(ctx, today, dryRun) // the skipped are left as they are
			paths := make([]string, len(ds))
			for i, d := range ds {
				paths[i] = d.Path
			}
			return paths, err
		}})
}

// dreamGate is the config's gate of the runs of Dream a long-running
// process starts on its own.
func (a *App) dreamGate() dream.Gate {
	return dream.Gate{Every: a.Config.Dream.Every, Writes: a.Config.Dream.Writes, Quiet: a.Config.Dream.Quiet}
}

// chatOptions turns a chat endpoint of the config into options; nil when
// none is configured.
func chatOptions(c config.ChatConfig) *chat.Options {
	if c.URL == "" {
		return nil
	}
	o := &chat.Options{URL: c.URL, Model: c.Model, Timeout: c.Timeout}
	if c.APIKeyEnv != "" {
		o.APIKey = os.Getenv(c.APIKeyEnv)
	}
	return o
}
