package obsidiancli_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/internal/obsidiancli"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
)

// writer opens a new vault in a temp folder and its Writer reaching
// Obsidian as mode m says; it returns the Writer and the vault's folder.
func writer(t *testing.T, m obsidiancli.Mode) (*vault.Writer, string) {
	t.Helper()
	dir := t.TempDir()
	v, err := vault.Open(dir, vault.Folders{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return vault.NewWriter(v, vault.WriterOptions{Obsidian: obsidiancli.Open(dir, m)}), dir
}

func readFile(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWritesGoThroughTheCLI: with the CLI on the PATH answering for the
// vault, a new note, an append, one property set and a move are made by
// it, with exactly the arguments help.obsidian.md/cli documents, and the
// notes end as the Writer was asked to leave them.
func TestWritesGoThroughTheCLI(t *testing.T) {
	for _, m := range []obsidiancli.Mode{obsidiancli.Auto, obsidiancli.CLI} {
		t.Run(string(m), func(t *testing.T) {
			ctx := context.Background()
			calls := standIn(t)
			w, dir := writer(t, m)

			first := "---\nstatus: open\n---\n# Plan\n\tindented\n"
			h, err := w.Write(ctx, "notes/plan.md", []byte(first), "")
			if err != nil {
				t.Fatal(err)
			}
			second := first + "- one more\n"
			if h, err = w.Write(ctx, "notes/plan.md", []byte(second), h); err != nil {
				t.Fatal(err)
			}
			res, err := w.Apply(ctx, "notes/plan.md", vault.Edit{Frontmatter: map[string]any{"status": "done"}, ExpectedHash: h})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != "updated" {
				t.Errorf("Apply: status %q, want updated", res.Status)
			}
			if err := w.Move(ctx, "notes/plan.md", "archive/plan.md", res.Hash); err != nil {
				t.Fatal(err)
			}

			want := [][]string{
				{"vault", "info=path"},
				{"create", "path=notes/plan.md", `content=---\nstatus: open\n---\n# Plan\n\tindented\n`, "silent"},
				{"append", "path=notes/plan.md", `content=- one more\n`, "inline"},
				{"property:set", "name=status", "value=done", "type=text", "path=notes/plan.md"},
				{"move", "path=notes/plan.md", "to=archive/plan.md"},
			}
			if got := calls(); !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("the CLI was run with\n%q\nwant\n%q", got, want)
			}
			if got, want := readFile(t, dir, "archive/plan.md"), "---\nstatus: done\n---\n# Plan\n\tindented\n- one more\n"; got != want {
				t.Errorf("archive/plan.md holds %q, want %q", got, want)
			}
			if _, err := os.Stat(filepath.Join(dir, "notes", "plan.md")); !os.IsNotExist(err) {
				t.Errorf("notes/plan.md still there after the move: %v", err)
			}
		})
	}
}

// TestPropertyTypes: a number and a checkbox property are set with their
// types; a list, which the CLI's value cannot say exactly, is written by
// the Writer without running the CLI.
func TestPropertyTypes(t *testing.T) {
	ctx := context.Background()
	calls := standIn(t)
	w, dir := writer(t, obsidiancli.Auto)
	h, err := w.Write(ctx, "n.md", []byte("---\na: 1\n---\nbody\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range []struct {
		key   string
		value any
	}{{"priority", 2.5}, {"done", true}, {"tags", []any{"x", "y"}}} {
		res, err := w.Apply(ctx, "n.md", vault.Edit{Frontmatter: map[string]any{kv.key: kv.value}, ExpectedHash: h})
		if err != nil {
			t.Fatal(err)
		}
		h = res.Hash
	}
	want := [][]string{
		{"vault", "info=path"},
		{"create", "path=n.md", `content=---\na: 1\n---\nbody\n`, "silent"},
		{"property:set", "name=priority", "value=2.5", "type=number", "path=n.md"},
		{"property:set", "name=done", "value=true", "type=checkbox", "path=n.md"},
	}
	if got := calls(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("the CLI was run with\n%q\nwant\n%q", got, want)
	}
	got := readFile(t, dir, "n.md")
	for _, line := range []string{"priority: 2.5\n", "done: true\n", "tags:"} {
		if !strings.Contains(got, "\n"+line) {
			t.Errorf("n.md lacks %q:\n%s", line, got)
		}
	}
}

// TestFallsBack: a CLI that fails, or answers for no vault, or cannot be
// given the content exactly, leaves every write to the Writer, which
// makes it with its own checks.
func TestFallsBack(t *testing.T) {
	for _, tc := range []struct {
		name    string
		mode    obsidiancli.Mode
		env     []string
		content string
		want    [][]string // the CLI's runs
	}{
		{"failing writes, auto", obsidiancli.Auto, []string{"OBSIDIAN_STANDIN_FAIL", "writes"}, "a\n", [][]string{
			{"vault", "info=path"},
			{"create", "path=n.md", `content=a\n`, "silent"},
			{"append", "path=n.md", `content=b\n`, "inline"},
			{"move", "path=n.md", "to=m/n.md"},
		}},
		{"not answering, auto: asked once", obsidiancli.Auto, []string{"OBSIDIAN_STANDIN_FAIL", "all"}, "a\n", [][]string{
			{"vault", "info=path"},
		}},
		{"not answering, cli: asked before each write", obsidiancli.CLI, []string{"OBSIDIAN_STANDIN_FAIL", "all"}, "a\n", [][]string{
			{"vault", "info=path"}, {"vault", "info=path"}, {"vault", "info=path"},
		}},
		{"a backslash: not run", obsidiancli.Auto, nil, `C:\x` + "\n", [][]string{
			{"vault", "info=path"},
			{"append", "path=n.md", `content=b\n`, "inline"},
			{"move", "path=n.md", "to=m/n.md"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			calls := standIn(t, tc.env...)
			w, dir := writer(t, tc.mode)
			h, err := w.Write(ctx, "n.md", []byte(tc.content), "")
			if err != nil {
				t.Fatal(err)
			}
			if h, err = w.Write(ctx, "n.md", []byte(tc.content+"b\n"), h); err != nil {
				t.Fatal(err)
			}
			if err := w.Move(ctx, "n.md", "m/n.md", h); err != nil {
				t.Fatal(err)
			}
			if got := readFile(t, dir, "m/n.md"); got != tc.content+"b\n" {
				t.Errorf("m/n.md holds %q, want %q", got, tc.content+"b\n")
			}
			if got := calls(); !slices.EqualFunc(got, tc.want, slices.Equal) {
				t.Errorf("the CLI was run with\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// TestOtherChangeIsAConflict: when the note, after the CLI ran, is
// neither what was asked nor what it was, the Writer reports a conflict
// and leaves it as it is, as it does for any change it did not make.
func TestOtherChangeIsAConflict(t *testing.T) {
	ctx := context.Background()
	standIn(t, "OBSIDIAN_STANDIN_MANGLE", "1")
	w, dir := writer(t, obsidiancli.Auto)
	_, err := w.Write(ctx, "n.md", []byte("a\n"), "")
	if !errors.Is(err, vault.ErrConflict) {
		t.Fatalf("Write: %v, want a conflict", err)
	}
	if got := readFile(t, dir, "n.md"); got != "a\nmangled\n" {
		t.Errorf("n.md holds %q, want the CLI's %q left as it is", got, "a\nmangled\n")
	}
}

// TestObsidiansYAMLKept: a property Obsidian writes its own way (a
// quoted string) is the value asked for: the write is done, and the hash
// returned is that of the note as Obsidian left it.
func TestObsidiansYAMLKept(t *testing.T) {
	ctx := context.Background()
	standIn(t, "OBSIDIAN_STANDIN_QUOTE", "1")
	w, dir := writer(t, obsidiancli.Auto)
	h, err := w.Write(ctx, "n.md", []byte("---\nstatus: open\n---\nbody\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.Apply(ctx, "n.md", vault.Edit{Frontmatter: map[string]any{"status": "done"}, ExpectedHash: h})
	if err != nil {
		t.Fatal(err)
	}
	got := readFile(t, dir, "n.md")
	if want := "---\nstatus: \"done\"\n---\nbody\n"; got != want {
		t.Errorf("n.md holds %q, want Obsidian's %q", got, want)
	}
	if res.Hash != markdown.Hash([]byte(got)) {
		t.Errorf("Apply returned hash %.12s, not the note's %.12s", res.Hash, markdown.Hash([]byte(got)))
	}
}

// TestDirectAndAbsent: direct never runs the CLI, even one on the PATH;
// an absent CLI is looked for once per process in auto, after which the
// vault's writes are the Writer's own with no lookup at all.
func TestDirectAndAbsent(t *testing.T) {
	ctx := context.Background()
	t.Run("direct", func(t *testing.T) {
		calls := standIn(t)
		w, dir := writer(t, obsidiancli.Direct)
		if obsidiancli.Open(dir, obsidiancli.Direct) != nil {
			t.Error("Open(direct) is not nil")
		}
		if _, err := w.Write(ctx, "n.md", []byte("a\n"), ""); err != nil {
			t.Fatal(err)
		}
		if got := calls(); got != nil {
			t.Errorf("direct ran the CLI: %q", got)
		}
	})
	t.Run("absent", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		w, dir := writer(t, obsidiancli.Auto)
		if _, err := w.Write(ctx, "n.md", []byte("a\n"), ""); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, dir, "n.md"); got != "a\n" {
			t.Errorf("n.md holds %q", got)
		}
		if obsidiancli.Open(dir, obsidiancli.Auto) != nil {
			t.Error("Open(auto) after the CLI was found absent is not nil: each write would look again")
		}
		if obsidiancli.Open(dir, obsidiancli.CLI) == nil {
			t.Error("Open(cli) is nil: cli asks again")
		}
	})
}
