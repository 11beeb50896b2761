package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/fixtures"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestMain lets the test binary stand in for the vaultmem command: run
// with VAULTMEM_RUN_MAIN=1 it is vaultmem, so CLI tests start real
// subprocesses without a separate build.
func TestMain(m *testing.M) {
	if os.Getenv("VAULTMEM_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(runWithTestHome(m))
}

// result is what one vaultmem process did.
type result struct {
	stdout, stderr string
	code           int
}

// vaultmemEnv runs the command in dir with the given stdin and more
// environment (NAME=value).
func vaultmemEnv(t *testing.T, dir, stdin string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "VAULTMEM_RUN_MAIN=1", "VAULTMEM_VAULT="), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

// vaultmem runs the command in dir with the given stdin.
func vaultmem(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	return vaultmemEnv(t, dir, stdin, nil, args...)
}

// ok runs vaultmem and fails the test unless it exits 0.
func ok(t *testing.T, dir string, args ...string) string {
	t.Helper()
	r := vaultmem(t, dir, "", args...)
	if r.code != 0 {
		t.Fatalf("vaultmem %v: exit %d\nstderr: %s", args, r.code, r.stderr)
	}
	return r.stdout
}

// fixtureVault copies a fixture vault into a temporary directory.
func fixtureVault(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := fixtures.CopyTo(dir, name); err != nil {
		t.Fatal(err)
	}
	return dir
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run go test -update and review the diff)\n got:\n%s", p, got)
	}
}

func TestLinksGolden(t *testing.T) {
	for _, name := range fixtures.Names() {
		t.Run(name, func(t *testing.T) {
			dir := fixtureVault(t, name)
			out := ok(t, dir, "--vault", dir, "links", "--json")
			var parsed struct {
				Edges []map[string]any `json:"edges"`
			}
			if err := json.Unmarshal([]byte(out), &parsed); err != nil {
				t.Fatalf("links --json is not JSON: %v", err)
			}
			for _, e := range parsed.Edges {
				for _, k := range []string{"source", "target", "resolved", "heading", "block", "label", "embed", "frontmatter", "line"} {
					if _, ok := e[k]; !ok {
						t.Fatalf("edge %v lacks %q", e, k)
					}
				}
			}
			golden(t, filepath.Join("links", name+".golden"), out)
		})
	}
}
