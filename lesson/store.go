package lesson

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// Index is what the lesson package needs of the index: the lessons as
// read at the last sync, a version that changes when one of them does,
// and a refresh for the notes it writes. index.Stores is one.
type Index interface {
	Lookup(ctx context.Context, nameOrPath string) (string, error)
	LinkText(ctx context.Context, p string) string
	Lessons(ctx context.Context) ([]Lesson, error)
	BadFrontmatter(ctx context.Context, folder string) ([]markdown.Problem, error)
	LessonsVersion(ctx context.Context) (string, error)
	Refresh(ctx context.Context, fsys fs.FS, paths ...string) error
}

// Options configure a Store. The zero value works but for FS.
type Options struct {
	// Folder is where new lessons are written; "" means "lessons".
	Folder string
	// FS is the vault's files, which the index is refreshed from after a
	// write; nil refreshes nothing.
	FS fs.FS
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Rules are the strength rule's constants; zero fields mean defaults.
	Rules Rules
	// Matcher, when set, is the fast path whose hot cache the Store's
	// writes invalidate, and which outcomes ask what was shown.
	Matcher *Matcher
	// Person names whose outcome log file the Store appends to (see
	// LogName), asked at the first outcome; nil or "" is "default".
	Person func() string
	// Meaning, when set, gives the Store's fast path its vector side
	// (see MatcherOptions.Meaning); used only when Matcher is nil.
	Meaning Meaning
	// CacheDir is the vault's cache folder, where Review keeps the outcome
	// log's counts (see outcomelog.TallyFile); "" (or a nil FS) keeps none, and each
	// review reads the whole log.
	CacheDir string
	// OnOutcome, if set, is told of each outcome Outcome applied and
	// logged (the live health, MEMORY.md's failing lessons).
	OnOutcome func(ctx context.Context, a Applied)
}

// Store reads and writes the lessons of one vault. It is safe for
// concurrent use.
type Store struct {
	w      *vault.Writer
	ix     Index
	fsys   fs.FS
	folder string
	now    func() time.Time
	rules  Rules
	m      *Matcher
	person func() string
	// cacheDir is Options.CacheDir.
	cacheDir string
	// onOutcome is Options.OnOutcome.
	onOutcome func(context.Context, Applied)
}

// NewStore returns the lesson Store of the vault w writes, whose lessons
// ix holds. Errors: rules that make no sense.
func NewStore(w *vault.Writer, ix Index, o Options) (*Store, error) {
	rules, err := o.Rules.Check()
	if err != nil {
		return nil, err
	}
	s := &Store{w: w, ix: ix, fsys: o.FS, folder: o.Folder, now: o.Now, rules: rules, m: o.Matcher, person: o.Person, cacheDir: o.CacheDir, onOutcome: o.OnOutcome}
	if s.folder == "" {
		s.folder = "lessons"
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.m == nil {
		mo := MatcherOptions{Meaning: o.Meaning}
		if o.CacheDir != "" && o.FS != nil {
			mo.VectorFile = filepath.Join(o.CacheDir, VectorFile)
		}
		s.m = NewMatcher(ix, mo)
	}
	return s, nil
}

// Matcher is the Store's fast path.
func (s *Store) Matcher() *Matcher { return s.m }

// refresh tells the index about the notes just written.
func (s *Store) refresh(ctx context.Context, paths ...string) error {
	s.m.Invalidate()
	if s.fsys == nil {
		return nil
	}
	return s.ix.Refresh(ctx, s.fsys, paths...)
}

// New is a lesson to add.
type New struct {
	// Title names the lesson (its file name and frontmatter name).
	Title string
	// Trigger is when it applies: words, "tool:NAME", path globs.
	Trigger []string
	// ActionBias is what to do or avoid.
	ActionBias string
	Domain     string
	Tags       []string
	// Episodes are the notes (tasks, memories) it was learned from;
	// DerivedFrom the lessons it refines. Paths or names.
	Episodes, DerivedFrom []string
	// Body explains it.
	Body string
	// Proposed writes it with status: proposed: out of matching and decay
	// until a person or an agent accepts it (removes the key). Dream
	// proposes lessons so, from session notes.
	Proposed bool
}

// Added is a lesson written.
type Added struct {
	Path       string   `json:"path"`
	Name       string   `json:"name"`
	Trigger    []string `json:"trigger"`
	ActionBias string   `json:"action_bias"`
	Strength   float64  `json:"strength"`
}

// Add writes a new lesson note at the initial strength, never over a note
// that is there (then "TITLE 2.md" and on). Errors: ErrInvalid
// (wrapped) for an empty title or trigger; vault.ErrNotFound for an
// episode that is no note.
func (s *Store) Add(ctx context.Context, l New) (Added, error) {
	title := strings.TrimSpace(l.Title)
	if title == "" || strings.ContainsAny(title, "\r\n") {
		return Added{}, fmt.Errorf("%w: the title must be one line, not empty", ErrInvalid)
	}
	base, err := vault.FileName(title)
	if err != nil {
		return Added{}, fmt.Errorf("%w: title %v", ErrInvalid, err)
	}
	var trigger []string
	for _, t := range l.Trigger {
		if t = strings.Join(strings.Fields(t), " "); t != "" && !slices.Contains(trigger, t) {
			trigger = append(trigger, t)
		}
	}
	if len(trigger) == 0 {
		return Added{}, fmt.Errorf("%w: a lesson needs a trigger (words, tool:NAME or a path glob)", ErrInvalid)
	}
	if bad := badGlobs(trigger); len(bad) > 0 {
		return Added{}, fmt.Errorf("%w: trigger %q is no path glob (see https://pkg.go.dev/github.com/bmatcuk/doublestar/v4)", ErrInvalid, bad[0])
	}
	links := func(refs []string) ([]string, error) {
		var out []string
		for _, r := range refs {
			p, err := s.ix.Lookup(ctx, strings.Trim(strings.TrimSpace(r), "[]"))
			if err != nil {
				return nil, err
			}
			out = append(out, "[["+s.ix.LinkText(ctx, p)+"]]")
		}
		return out, nil
	}
	episodes, err := links(l.Episodes)
	if err != nil {
		return Added{}, fmt.Errorf("episode: %w", err)
	}
	derived, err := links(l.DerivedFrom)
	if err != nil {
		return Added{}, fmt.Errorf("derived from: %w", err)
	}
	tags := []string{"lesson"}
	for _, t := range l.Tags {
		if t = strings.TrimPrefix(strings.TrimSpace(t), "#"); t != "" && !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	at := s.now()
	today := at.Format(DateLayout)
	// The strength is its ledger's, like every writer's: one entry,
	// "created at" the initial strength.
	strength := s.rules.Strength(Ledger{Entries: []Entry{{Time: at, Kind: EntryCreated, Value: s.rules.Initial}}}, at).Strength
	fields := []markdown.Field{{Key: "type", Value: "lesson"}, {Key: "name", Value: title}}
	if l.Proposed {
		fields = append(fields, markdown.Field{Key: "status", Value: vault.StatusProposed})
	}
	fields = append(fields, markdown.Field{Key: KeyTrigger, Value: trigger}, markdown.Field{Key: KeyActionBias, Value: strings.TrimSpace(l.ActionBias)})
	if d := strings.TrimSpace(l.Domain); d != "" {
		fields = append(fields, markdown.Field{Key: KeyDomain, Value: strings.ToLower(d)})
	}
	fields = append(fields, markdown.Field{Key: "tags", Value: tags},
		markdown.Field{Key: KeyStrength, Value: strength}, markdown.Field{Key: KeyConfidence, Value: InitialConfidence},
		markdown.Field{Key: KeyApplications, Value: 0})
	if len(episodes) > 0 {
		fields = append(fields, markdown.Field{Key: KeyEpisodes, Value: episodes})
	}
	if len(derived) > 0 {
		fields = append(fields, markdown.Field{Key: KeyDerivedFrom, Value: derived})
	}
	fields = append(fields, markdown.Field{Key: KeyVersion, Value: 1}, markdown.Field{Key: "created", Value: markdown.FromJSON(today)})
	body := strings.TrimSpace(strings.ReplaceAll(l.Body, "\r\n", "\n"))
	if body != "" {
		body += "\n\n"
	}
	created := createdWord + num(strength)
	if l.Proposed {
		created += ", proposed (status: proposed until accepted)"
	}
	history := historyLine(at, created, "")
	content := markdown.Format(fields, body+"## "+HistoryHeading+"\n\n"+history+"\n")
	for i := 1; ; i++ {
		p := path.Join(s.folder, base+markdown.Ext)
		if i > 1 {
			p = path.Join(s.folder, fmt.Sprintf("%s %d%s", base, i, markdown.Ext))
		}
		_, err := s.w.Write(ctx, p, content, "")
		if errors.Is(err, vault.ErrExists) && i < 1000 {
			continue
		}
		if err != nil {
			return Added{}, err
		}
		return Added{Path: p, Name: title, Trigger: trigger, ActionBias: strings.TrimSpace(l.ActionBias), Strength: strength}, s.refresh(ctx, p)
	}
}

// historyLine is one line of a lesson's history.
func historyLine(at time.Time, what, episode string) string {
	line := "- " + at.Format(HistoryTimeLayout) + " " + what
	if episode != "" {
		line += " (episode " + episode + ")"
	}
	return line
}

// num writes a strength as the notes do: at most four decimals.
func num(f float64) string { return strconv.FormatFloat(round(f), 'f', -1, 64) }

// Resolve returns the path of the lesson ref names: a vault path or a name
// resolved as a wikilink is. Errors: vault.ErrNotFound (wrapped) when
// nothing is named so; ErrNotLesson.
func (s *Store) Resolve(ctx context.Context, ref string) (string, error) {
	ref = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(ref), "[["), "]]"))
	ref, _, _ = strings.Cut(ref, "|")
	if ref == "" {
		return "", fmt.Errorf("%w: name a lesson", ErrInvalid)
	}
	p := ""
	if rel, err := s.w.Resolve(ref); err == nil {
		if _, _, err := s.w.Read(rel); err == nil {
			p = rel
		}
	}
	if p == "" {
		got, err := s.ix.Lookup(ctx, ref)
		if err != nil {
			return "", fmt.Errorf("no lesson %q: %w (give a path or a note name; 'vaultmem lesson review --all' lists them)", ref, vault.ErrNotFound)
		}
		p = got
	}
	b, _, err := s.w.Read(p)
	if err != nil {
		return "", err
	}
	if n := markdown.Parse(p, b); n.Type() != Type {
		return "", notLesson(p, n)
	}
	return p, nil
}

// notLesson is ErrNotLesson for note n at p, naming the line when its
// frontmatter does not parse.
func notLesson(p string, n *markdown.Note) error {
	if n.Frontmatter == nil && len(n.Warnings) > 0 {
		return fmt.Errorf("%w: %v", ErrNotLesson, n.Warnings[0])
	}
	return fmt.Errorf("%s: %w (its frontmatter has no type: lesson)", p, ErrNotLesson)
}
