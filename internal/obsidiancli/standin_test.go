package obsidiancli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
)

// The stand-in obsidian: this test binary, linked as "obsidian" into a
// folder put first on the PATH (see standIn), acts as the CLI when
// standInLog is set. It records its arguments, one JSON array a line, and
// acts on the files of the folder it runs in (the vault) as the CLI's
// documentation says the command does. standInFail set to "all" makes
// every command fail, "writes" every command but the probe; standInMangle
// makes a write leave other content than asked; standInQuote makes
// property:set quote a text value, as YAML written another way.
const (
	standInLog    = "OBSIDIAN_STANDIN_LOG"
	standInFail   = "OBSIDIAN_STANDIN_FAIL"
	standInMangle = "OBSIDIAN_STANDIN_MANGLE"
	standInQuote  = "OBSIDIAN_STANDIN_QUOTE"
)

func TestMain(m *testing.M) {
	if os.Getenv(standInLog) != "" {
		if err := actAsCLI(os.Args[1:]); err != nil {
			fmt.Fprintln(os.Stderr, "Error:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// actAsCLI is the stand-in's run with args.
func actAsCLI(args []string) error {
	line, _ := json.Marshal(args)
	f, err := os.OpenFile(os.Getenv(standInLog), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	fmt.Fprintf(f, "%s\n", line)
	f.Close()
	fail := os.Getenv(standInFail)
	if len(args) == 0 || fail == "all" || (fail == "writes" && args[0] != "vault") {
		return fmt.Errorf("stand-in failing")
	}
	p := map[string]string{}
	for _, a := range args[1:] {
		if k, v, ok := strings.Cut(a, "="); ok {
			p[k] = strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(v)
		}
	}
	mangle := func(s string) string {
		if os.Getenv(standInMangle) != "" {
			return s + "mangled\n"
		}
		return s
	}
	switch args[0] {
	case "vault":
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		fmt.Println(wd)
		return nil
	case "create":
		if err := os.MkdirAll(filepath.Dir(p["path"]), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(p["path"], os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.WriteString(mangle(p["content"]))
		return err
	case "append":
		f, err := os.OpenFile(p["path"], os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.WriteString(mangle(p["content"]))
		return err
	case "property:set":
		b, err := os.ReadFile(p["path"])
		if err != nil {
			return err
		}
		var v any = p["value"]
		switch p["type"] {
		case "number":
			if v, err = strconv.ParseFloat(p["value"], 64); err != nil {
				return err
			}
		case "checkbox":
			v = p["value"] == "true"
		}
		if b, err = markdown.SetFrontmatter(p["path"], b, p["name"], markdown.FromJSON(v)); err != nil {
			return err
		}
		if os.Getenv(standInQuote) != "" {
			b = bytes.Replace(b, []byte(p["name"]+": "+p["value"]+"\n"), []byte(p["name"]+": \""+p["value"]+"\"\n"), 1)
		}
		return os.WriteFile(p["path"], []byte(mangle(string(b))), 0o644)
	case "move":
		if err := os.MkdirAll(filepath.Dir(p["to"]), 0o755); err != nil {
			return err
		}
		return os.Rename(p["path"], p["to"])
	}
	return fmt.Errorf("unknown command %q", args[0])
}

// standIn puts the stand-in first on the PATH, its log in a new file, and
// sets the given environment (standInFail, standInMangle) for it. It
// returns a function that reads the argument lists it was given so far.
func standIn(t *testing.T, env ...string) func() [][]string {
	t.Helper()
	bin := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(bin, "obsidian")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	log := filepath.Join(t.TempDir(), "args.jsonl")
	t.Setenv(standInLog, log)
	for i := 0; i+1 < len(env); i += 2 {
		t.Setenv(env[i], env[i+1])
	}
	return func() [][]string {
		b, err := os.ReadFile(log)
		if os.IsNotExist(err) {
			return nil
		} else if err != nil {
			t.Fatal(err)
		}
		var out [][]string
		for l := range strings.Lines(string(b)) {
			var args []string
			if err := json.Unmarshal([]byte(l), &args); err != nil {
				t.Fatal(err)
			}
			out = append(out, args)
		}
		return out
	}
}
