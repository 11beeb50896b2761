package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAgentOneRule: the CLI and the hooks choose the agent id by app's one
// rule: --agent, else VAULTMEM_AGENT, else the config's hooks.agent, else
// default.
func TestAgentOneRule(t *testing.T) {
	dir, project := t.TempDir(), t.TempDir()
	ok(t, dir, "init")
	cfg := filepath.Join(dir, ".vaultmem", "config.yaml")
	text := mustRead(t, cfg)
	if !strings.Contains(text, "  # agent: default\n") {
		t.Fatal("the config init writes has no hooks.agent line")
	}
	writeFile(t, cfg, strings.Replace(text, "  # agent: default\n", "  agent: alice\n", 1))
	ok(t, dir, "task", "add", "Ship it")
	ok(t, dir, "task", "start", "Ship it") // no --agent, no VAULTMEM_AGENT: hooks.agent

	focus := func(env []string, args ...string) result {
		return vaultmemEnv(t, dir, "", env, append([]string{"task", "focus"}, args...)...)
	}
	for _, tc := range []struct {
		name  string
		env   []string
		args  []string
		holds bool
	}{
		{"hooks.agent", nil, nil, true},
		{"--agent over hooks.agent", nil, []string{"--agent=default"}, false},
		{"VAULTMEM_AGENT over hooks.agent", []string{"VAULTMEM_AGENT=codex"}, nil, false},
		{"--agent over VAULTMEM_AGENT", []string{"VAULTMEM_AGENT=codex"}, []string{"--agent=alice"}, true},
		{"a blank VAULTMEM_AGENT names none", []string{"VAULTMEM_AGENT= "}, nil, true},
	} {
		r := focus(tc.env, tc.args...)
		if r.code != 0 || strings.Contains(r.stdout, "Ship it") != tc.holds {
			t.Errorf("%s: exit %d, %q %q; want the focus held: %v", tc.name, r.code, r.stdout, r.stderr, tc.holds)
		}
	}
	if r := focus([]string{"VAULTMEM_AGENT=two words"}); r.code != exitUsage || !strings.Contains(r.stderr, "$VAULTMEM_AGENT: agent \"two words\"") {
		t.Errorf("a bad VAULTMEM_AGENT: exit %d, %q", r.code, r.stderr)
	}
	if r := focus(nil, "--agent=../x"); r.code != exitUsage || !strings.Contains(r.stderr, "--agent \"../x\"") {
		t.Errorf("a bad --agent: exit %d, %q", r.code, r.stderr)
	}

	// The hook: the session starts with the focused task of hooks.agent,
	// of VAULTMEM_AGENT when that names another.
	start := hookEvent("s1", project, "SessionStart", map[string]any{"source": "startup"})
	for _, tc := range []struct {
		env   []string
		holds bool
	}{{[]string{"VAULTMEM_SERVER=off"}, true}, {[]string{"VAULTMEM_SERVER=off", "VAULTMEM_AGENT=codex"}, false}} {
		r := vaultmemGuarded(t, project, start, tc.env, "--vault", dir, "hook")
		if r.code != 0 || strings.Contains(r.stdout, "Ship it") != tc.holds {
			t.Errorf("hook SessionStart %v: exit %d, %q %q; want the focused task given: %v", tc.env, r.code, r.stdout, r.stderr, tc.holds)
		}
	}
}

// TestConfigCheckedAtLoad: a lesson rule out of range stops every command
// at once, with the file and the line of the key, not some commands later
// and some never.
func TestConfigCheckedAtLoad(t *testing.T) {
	dir := t.TempDir()
	ok(t, dir, "init")
	cfg := filepath.Join(dir, ".vaultmem", "config.yaml")
	text := mustRead(t, cfg)
	text = strings.Replace(text, "  # decay_per_day: 0.99\n", "  decay_per_day: 7\n", 1)
	writeFile(t, cfg, text)
	line := 1 + strings.Count(text[:strings.Index(text, "decay_per_day: 7")], "\n")
	want := ".vaultmem/config.yaml:" + strconv.Itoa(line) + ": lessons.decay_per_day: lesson rules: decay_per_day 7 is outside (0, 1]"
	for _, args := range [][]string{
		{"recall", "how do we deploy?"},
		{"lesson", "match", "--tool", "Bash"},
		{"list"},
	} {
		if r := vaultmem(t, dir, "", args...); r.code == 0 || !strings.Contains(r.stderr, want) {
			t.Errorf("%v: exit %d, %q; want an error containing %q", args, r.code, r.stderr, want)
		}
	}
}
