// Package obsidiancli reaches the running Obsidian app through its
// official command-line interface, the obsidian program of Obsidian 1.12
// and later, so that vaultmem's writes Obsidian can make (a new note, an
// append, a property set, a move with its link updates) are Obsidian's
// own: a person with the note open sees them as the app's edits, and a
// rename updates the links to the note. It implements [vault.Obsidian];
// the vault's Writer keeps its lock and checks around every call and
// writes the file itself whenever the app does not.
//
// The arguments follow the CLI's documentation (help.obsidian.md/cli):
// parameters as name=value, flags bare, newlines and tabs in a value
// written \n and \t. The program runs in the vault's folder, which makes
// that vault the one it acts on; before its first write it must answer
// "vault info=path" with that folder.
package obsidiancli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vaultmem/vaultmem/vault"
)

// Mode is vault.access: how vaultmem reaches the vault's files.
type Mode string

// The values of vault.access.
const (
	// Direct writes the files and never runs the CLI.
	Direct Mode = "direct"
	// CLI makes the writes it can through the CLI whenever it answers for
	// the vault, asking again after it did not: Obsidian started later is
	// used (and a CLI run when the app is closed starts it).
	CLI Mode = "cli"
	// Auto asks the CLI once per process: when it is on the PATH and
	// answers for the vault, the writes it can make go through it; when
	// not, the process writes files directly from then on.
	Auto Mode = "auto"
)

// Modes are the values of vault.access.
var Modes = []Mode{Direct, CLI, Auto}

// Program is the name of the CLI looked up on the PATH.
const Program = "obsidian"

const (
	// probeTimeout bounds the question whether the CLI answers for the
	// vault: long enough for an app that is starting.
	probeTimeout = 5 * time.Second
	// runTimeout bounds one write through the CLI; the Writer's lock is
	// held meanwhile.
	runTimeout = 10 * time.Second
)

// ErrUnsupported is returned, wrapped, for a change the CLI's arguments
// cannot say exactly (a value with a backslash or a control character
// other than newline and tab, a property of another type than text,
// number or checkbox): nothing is run, and the Writer writes the file.
var ErrUnsupported = errors.New("not expressible in the Obsidian CLI's arguments")

// App is the Obsidian app of one vault, reached through the CLI.
type App struct {
	dir  string // the vault's folder, absolute, links resolved
	mode Mode
}

// Open returns the Obsidian app of the vault in the folder dir as the
// vault's Writer uses it, for the access mode m: nil (files written
// directly) for Direct, for a folder whose absolute path cannot be found,
// and, within Auto, once the CLI was found absent or not answering for
// dir in this process. Open itself runs nothing: the first write asks.
func Open(dir string, m Mode) vault.Obsidian {
	if m == Direct {
		return nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if m == Auto && known(abs) == absent {
		return nil
	}
	return &App{dir: abs, mode: m}
}

// answer is what is known in this process of the CLI for one vault.
type answer int

const (
	unknown answer = iota
	answers        // on the PATH, and answered for the vault
	absent         // not on the PATH, or did not answer for the vault
)

// probes caches, per vault folder, whether the CLI answers: so that a
// CLI that is absent costs one PATH lookup per process, not one per write.
var probes struct {
	sync.Mutex
	m map[string]answer
	// bin is where the CLI was found, per vault folder that it answers.
	bin map[string]string
}

// known returns what is known of the CLI for the vault folder dir.
func known(dir string) answer {
	probes.Lock()
	defer probes.Unlock()
	return probes.m[dir]
}

// program returns the CLI's path when it answers for a's vault, asking
// it (once per process in Auto; after each failure in CLI) when not yet
// known; "" when it does not.
func (a *App) program(ctx context.Context) string {
	probes.Lock()
	defer probes.Unlock()
	if probes.m == nil {
		probes.m, probes.bin = map[string]answer{}, map[string]string{}
	}
	switch probes.m[a.dir] {
	case answers:
		return probes.bin[a.dir]
	case absent:
		if a.mode == Auto {
			return ""
		}
	}
	bin, err := exec.LookPath(Program)
	if err == nil && a.answersFor(ctx, bin) {
		probes.m[a.dir], probes.bin[a.dir] = answers, bin
		return bin
	}
	probes.m[a.dir] = absent
	return ""
}

// answersFor reports whether the CLI bin, run in a's vault folder, says
// that folder is the vault it acts on.
func (a *App) answersFor(ctx context.Context, bin string) bool {
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	out, err := a.run(ctx, bin, []string{"vault", "info=path"})
	if err != nil {
		return false
	}
	got := strings.TrimSpace(out)
	if real, err := filepath.EvalSymlinks(got); err == nil {
		got = real
	}
	return got == a.dir
}

// Create makes the new note p holding content: create path=P content=C silent.
func (a *App) Create(ctx context.Context, p string, content []byte) error {
	return a.do(ctx, "create", []param{{"path", p}, {"content", string(content)}}, "silent")
}

// Append adds text at the end of the note p, with no newline added:
// append path=P content=T inline.
func (a *App) Append(ctx context.Context, p string, text []byte) error {
	return a.do(ctx, "append", []param{{"path", p}, {"content", string(text)}}, "inline")
}

// SetProperty sets the property name of the note p to value, a string
// (type text), float64 (type number) or bool (type checkbox); another
// value is ErrUnsupported: property:set name=N value=V type=T path=P.
func (a *App) SetProperty(ctx context.Context, p, name string, value any) error {
	var v, typ string
	switch x := value.(type) {
	case string:
		v, typ = x, "text"
	case float64:
		v, typ = strconv.FormatFloat(x, 'f', -1, 64), "number"
	case bool:
		v, typ = strconv.FormatBool(x), "checkbox"
	default:
		return fmt.Errorf("set %s in %s: a %T value: %w", name, p, value, ErrUnsupported)
	}
	return a.do(ctx, "property:set", []param{{"name", name}, {"value", v}, {"type", typ}, {"path", p}})
}

// Move renames the note from to the path to, Obsidian updating the links
// to it: move path=FROM to=TO.
func (a *App) Move(ctx context.Context, from, to string) error {
	return a.do(ctx, "move", []param{{"path", from}, {"to", to}})
}

// do runs the CLI command name with its parameters and flags, when the
// CLI answers for the vault.
func (a *App) do(ctx context.Context, name string, params []param, flags ...string) error {
	args, err := command(name, params, flags...)
	if err != nil {
		return err
	}
	bin := a.program(ctx)
	if bin == "" {
		return fmt.Errorf("%s: %s does not answer for the vault in %s", name, Program, a.dir)
	}
	ctx, cancel := context.WithTimeout(ctx, runTimeout)
	defer cancel()
	_, err = a.run(ctx, bin, args)
	return err
}

// run runs the CLI bin with args in the vault's folder and returns what it
// printed; an error that names the command and what it said on failure.
func (a *App) run(ctx context.Context, bin string, args []string) (string, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = a.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return "", fmt.Errorf("%s %s: %w: %s", Program, args[0], err, msg)
	}
	return stdout.String(), nil
}

// param is one name=value parameter of a CLI command.
type param struct{ name, value string }

// command is the argument list of the CLI command name: the command, its
// parameters as name=value in the order given, then its flags. A newline
// or tab in a value is written \n or \t, as the CLI's documentation says;
// a value the documentation gives no way to write (a backslash, which the
// CLI would read as the start of an escape, or another control character)
// is ErrUnsupported.
func command(name string, params []param, flags ...string) ([]string, error) {
	args := []string{name}
	for _, p := range params {
		if i := strings.IndexFunc(p.value, func(r rune) bool {
			return r == '\\' || (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f
		}); i >= 0 {
			return nil, fmt.Errorf("%s %s: %q at byte %d: %w", name, p.name, p.value[i], i, ErrUnsupported)
		}
		v := strings.NewReplacer("\n", `\n`, "\t", `\t`).Replace(p.value)
		args = append(args, p.name+"="+v)
	}
	return append(args, flags...), nil
}
