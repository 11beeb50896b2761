package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The doc-test runner: the shell examples of README.md and docs/*.md that
// are marked runnable run here, each against a fresh vault, with this
// test binary as `vaultmem` on the PATH, so that an example the code no
// longer backs fails CI. How to mark one: docs/doctests.md.

// docBlock is one runnable example: the shell text of a fenced block
// marked with a doctest comment.
type docBlock struct {
	// file is the markdown file, as the runner was given it; line the
	// line of its opening fence (1-based).
	file string
	line int
	// inRepo runs the block from the repository's top folder (for the
	// README's examples of a fresh clone) instead of a fresh vault.
	inRepo bool
	text   string
}

// doctestMarker opens the comment that marks the next fenced block as
// runnable: `<!-- doctest -->`, or `<!-- doctest repo -->`.
var doctestMarker = regexp.MustCompile(`^<!--\s*doctest(?:\s+(\S+))?\s*-->$`)

// fenceOpen matches a fence's opening line: its marker and info string.
var fenceOpen = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})\\s*(\\S*)")

// parseDocBlocks returns the runnable blocks of the markdown file at
// path (named file in errors). A marker must be right before a fence of
// sh, bash or shell; one that is not, an unknown option, or a block
// never closed is an error naming the file and line. A marker inside
// another fenced block (an example of one) is text, not a marker.
func parseDocBlocks(path, file string) ([]docBlock, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	var blocks []docBlock
	for i := 0; i < len(lines); i++ {
		if m := fenceOpen.FindStringSubmatch(lines[i]); m != nil {
			end := fenceClose(lines, i+1, m[1])
			if end < 0 {
				return nil, fmt.Errorf("%s:%d: a fenced block is never closed", file, i+1)
			}
			i = end
			continue
		}
		m := doctestMarker.FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil {
			continue
		}
		b := docBlock{file: file, line: i + 2}
		switch m[1] {
		case "":
		case "repo":
			b.inRepo = true
		default:
			return nil, fmt.Errorf("%s:%d: unknown doctest option %q (none, or repo)", file, i+1, m[1])
		}
		var f []string
		if i+1 < len(lines) {
			f = fenceOpen.FindStringSubmatch(lines[i+1])
		}
		if f == nil || (f[2] != "sh" && f[2] != "bash" && f[2] != "shell") {
			return nil, fmt.Errorf("%s:%d: a doctest marker must be right before a ```sh fence", file, i+1)
		}
		end := fenceClose(lines, i+2, f[1])
		if end < 0 {
			return nil, fmt.Errorf("%s:%d: a fenced block is never closed", file, i+2)
		}
		b.text = strings.Join(lines[i+2:end], "\n") + "\n"
		blocks = append(blocks, b)
		i = end
	}
	return blocks, nil
}

// fenceClose returns the index of the line from from on that closes a
// fence opened with marker (the same character, at least as many), or -1.
func fenceClose(lines []string, from int, marker string) int {
	for j := from; j < len(lines); j++ {
		t := strings.TrimLeft(lines[j], " ")
		if len(lines[j])-len(t) <= 3 && strings.HasPrefix(t, marker) && strings.Trim(t, marker[:1]+" \t") == "" {
			return j
		}
	}
	return -1
}

// docPrelude runs before each block: stop at the first failing command
// (in a pipeline too) and write its line for the report.
const docPrelude = "set -eo pipefail\ntrap 'echo \"$LINENO\" > \"$VAULTMEM_DOCTEST_LINE\"' ERR\n"

// docBlockGuard kills a block that still runs after it: a hung example
// fails its test instead of stalling it. It measures no speed.
const docBlockGuard = 2 * time.Minute

// docRunner runs blocks: bin holds `vaultmem` (this test binary), root
// is the repository's top folder.
type docRunner struct {
	bin, root string
}

// newDocRunner puts this test binary on a PATH of its own as vaultmem.
func newDocRunner(t *testing.T) docRunner {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the examples are POSIX shell")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not on PATH")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(bin, "vaultmem")); err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return docRunner{bin: bin, root: root}
}

// run runs one block with bash, with a home, a TMPDIR and (unless the
// block runs in the repository) a vault made by `vaultmem init`, all
// fresh, and no VAULTMEM_ variable of the caller's. `go run
// ./cmd/vaultmem` in the block stands for vaultmem: the test binary is
// that build. A failing command is an error naming the file and line of
// the command, with the block's output.
func (r docRunner) run(ctx context.Context, t *testing.T, b docBlock) error {
	t.Helper()
	tmp := t.TempDir()
	home, tmpdir, dir := filepath.Join(tmp, "home"), filepath.Join(tmp, "tmp"), filepath.Join(tmp, "vault")
	for _, d := range []string{home, tmpdir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	lineFile := filepath.Join(tmp, "failed-line")
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "VAULTMEM_") {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+r.bin+string(filepath.ListSeparator)+os.Getenv("PATH"),
		"VAULTMEM_RUN_MAIN=1", "VAULTMEM_DOCTEST_LINE="+lineFile,
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "TMPDIR="+tmpdir,
		"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Doc", "GIT_AUTHOR_EMAIL=doc@example.com", "GIT_COMMITTER_NAME=Doc", "GIT_COMMITTER_EMAIL=doc@example.com")
	cwd := r.root
	if !b.inRepo {
		cwd = dir
		init := exec.CommandContext(ctx, filepath.Join(r.bin, "vaultmem"), "init", dir)
		init.Env = env
		if out, err := init.CombinedOutput(); err != nil {
			return fmt.Errorf("%s:%d: vaultmem init of the block's vault: %v\n%s", b.file, b.line, err, out)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, docBlockGuard)
	defer cancel()
	script := docPrelude + strings.ReplaceAll(b.text, "go run ./cmd/vaultmem", "vaultmem")
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir, cmd.Env, cmd.Stdin = cwd, env, strings.NewReader("")
	// A background process the block left must not keep Wait waiting.
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s:%d: the block still ran after %v: it hangs\n%s", b.file, b.line, docBlockGuard, tail(out.String()))
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return fmt.Errorf("%s:%d: %v", b.file, b.line, err)
	}
	line := b.line // the fence's, when the failing line is not known
	if data, rerr := os.ReadFile(lineFile); rerr == nil {
		if n, perr := strconv.Atoi(strings.TrimSpace(string(data))); perr == nil {
			line = b.line + n - strings.Count(docPrelude, "\n")
		}
	}
	return fmt.Errorf("%s:%d: exit %d: %s\n%s", b.file, line, ee.ExitCode(), blockLine(b, line), tail(out.String()))
}

// blockLine is the text of the file's line n, which lies in block b.
func blockLine(b docBlock, n int) string {
	lines := strings.Split(b.text, "\n")
	if i := n - b.line - 1; i >= 0 && i < len(lines) {
		return strings.TrimSpace(lines[i])
	}
	return "(the block)"
}

// tail is the end of a block's output, enough to see why it failed.
func tail(s string) string {
	const most = 4000
	if len(s) > most {
		return "..." + s[len(s)-most:]
	}
	return s
}

// docFiles are the files whose examples run: README.md and docs/*.md,
// repository-relative.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		files = append(files, "docs/"+filepath.Base(d))
	}
	return files
}

// TestDocExamples runs every runnable example of the README and the docs
// (see docs/doctests.md). The files whose worked examples a newcomer
// follows must keep theirs marked.
func TestDocExamples(t *testing.T) {
	r := newDocRunner(t)
	mustHave := map[string]int{"README.md": 2, "docs/lessons.md": 1, "docs/tasks.md": 1, "docs/cli.md": 1}
	for _, file := range docFiles(t, r.root) {
		blocks, err := parseDocBlocks(filepath.Join(r.root, filepath.FromSlash(file)), file)
		if err != nil {
			t.Error(err)
			continue
		}
		if len(blocks) < mustHave[file] {
			t.Errorf("%s has %d runnable examples, want at least %d (mark them <!-- doctest -->)", file, len(blocks), mustHave[file])
		}
		for _, b := range blocks {
			t.Run(fmt.Sprintf("%s:%d", file, b.line), func(t *testing.T) {
				if err := r.run(t.Context(), t, b); err != nil {
					t.Error(err)
				}
			})
		}
	}
}

// TestDocTestRunner plants examples and checks the runner: a failing
// command fails naming its file and line (after a continued line, in a
// pipeline, on the block's first line), a passing block passes, and a
// bad marker is an error naming its line.
func TestDocTestRunner(t *testing.T) {
	r := newDocRunner(t)
	tests := []struct {
		name, doc string
		want      string // the error's start; "" for none
	}{
		{"passes", "# x\n\n<!-- doctest -->\n```sh\nvaultmem list\nvaultmem task add \"A\" \\\n  --priority high\n```\n", ""},
		{"first line", "# x\n\n<!-- doctest -->\n```sh\nvaultmem show \"no such note\"\nvaultmem list\n```\n", "planted.md:5: exit 1: vaultmem show"},
		{"after a continued line", "# x\n\n<!-- doctest -->\n```sh\nvaultmem task add \"A\" \\\n  --priority high\nvaultmem list\nvaultmem task start \"B\"\nvaultmem list\n```\n", "planted.md:8: exit 1: vaultmem task start"},
		{"in a pipeline", "<!-- doctest -->\n```bash\necho \"x\" | vaultmem task event --type nonsense\n```\n", "planted.md:3: exit 2: echo"},
		{"a repo block runs in the repository", "<!-- doctest repo -->\n```sh\ntest -f go.mod\ntest -f nothing-here\n```\n", "planted.md:4: exit 1: test -f nothing-here"},
		{"go run stands for vaultmem", "<!-- doctest repo -->\n```sh\ngo run ./cmd/vaultmem --version | grep -q '^vaultmem version '\n```\n", ""},
		{"a marker inside another fence is text", "````markdown\n<!-- doctest -->\n```sh\nfalse\n```\n````\n", ""},
		{"a marker without a fence", "# x\n<!-- doctest -->\ntext\n", "planted.md:2: a doctest marker must be right before"},
		{"a marker before another language", "<!-- doctest -->\n```go\nx := 1\n```\n", "planted.md:1: a doctest marker must be right before"},
		{"an unknown option", "<!-- doctest somewhere -->\n```sh\ntrue\n```\n", "planted.md:1: unknown doctest option"},
		{"a block never closed", "<!-- doctest -->\n```sh\ntrue\n", "planted.md:2: a fenced block is never closed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "planted.md")
			if err := os.WriteFile(p, []byte(tt.doc), 0o644); err != nil {
				t.Fatal(err)
			}
			blocks, err := parseDocBlocks(p, "planted.md")
			if err == nil {
				for _, b := range blocks {
					if err = r.run(t.Context(), t, b); err != nil {
						break
					}
				}
			}
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("want no error, got %v", err)
			case tt.want != "" && err == nil:
				t.Fatalf("want an error starting %q, got none", tt.want)
			case tt.want != "" && !strings.HasPrefix(err.Error(), tt.want):
				t.Fatalf("want an error starting %q, got %v", tt.want, err)
			}
		})
	}
}

// TestReadmeGoVersion holds the Go version the README asks for to go.mod's
// go line, the version the go command itself requires.
func TestReadmeGoVersion(t *testing.T) {
	root := filepath.Join("..", "..")
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)\s*$`).FindSubmatch(mod)
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	want := string(m[1])
	f, err := os.Open(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stated := regexp.MustCompile(`\b(?:Go|go\W*) ?\(?(\d+\.\d+(?:\.\d+)?) or later`)
	found := 0
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		for _, s := range stated.FindAllStringSubmatch(sc.Text(), -1) {
			found++
			if s[1] != want {
				t.Errorf("README.md:%d asks for Go %s or later; go.mod's go line is %s", n, s[1], want)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Errorf("README.md states no Go version (\"Go %s or later\")", want)
	}
}
