package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shapeSamples are lines an agent might send, each with a secret of one
// shape of package redact's table: shape is the name its mask carries,
// secret what must never reach the vault. The secrets are long and
// distinct, so that a copy of one anywhere (a SQLite page included) is
// found.
var shapeSamples = []struct{ shape, line, secret string }{
	{"github-token", "GITHUB_TOKEN=ghp_GHtok0123456789abcdefghijklmnopqrstu go test ./integration", "GHtok0123456789"},
	{"gitlab-token", "glab auth login --token glpat-GLtok0123456789abcdef", "GLtok0123456789"},
	{"anthropic-key", "ANTHROPIC_API_KEY=sk-ant-api03-ANtok0123456789abcdef claude", "ANtok0123456789"},
	{"openai-key", "export OPENAI_API_KEY=sk-proj-OPtok0123456789abcdefghij", "OPtok0123456789"},
	{"slack-webhook", "curl -d '{}' https://hooks.slack.com/services/T0SLACK1/B0SLACK2/SWtok0123456789abcdefgh", "SWtok0123456789"},
	{"slack-token", "SLACK_BOT_TOKEN=xoxb-1234567890-SLtok0123456789 npm start", "SLtok0123456789"},
	{"google-api-key", "GOOGLE_API_KEY=AIzaGOtok0123456789abcdefghijklmnopqrst python run.py", "GOtok0123456789"},
	{"stripe-key", "stripe listen --api-key sk_live_STtok0123456789abcdef", "STtok0123456789"},
	{"npm-token", "NPM_TOKEN=npm_NPtok0123456789abcdefghijklmnopqrstu npm publish", "NPtok0123456789"},
	{"huggingface-token", "huggingface-cli login --token hf_HFtok0123456789abcdefghijklmnopq", "HFtok0123456789"},
	{"pypi-token", "twine upload -p pypi-AgEIcHlwaS5vcmcPYtok0123456789abcdef dist/*", "PYtok0123456789"},
	{"sendgrid-key", "echo SG.SGtok0123456789abcdef.SGsig0123456789abcdef | mail", "SGtok0123456789"},
	{"docker-token", "echo dckr_pat_DKtok0123456789abcdef | docker login -u me --password-stdin", "DKtok0123456789"},
	{"jwt", "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJKV3RvayJ9.JWsig0123456789abcdef", "JWsig0123456789"},
	{"aws-key-id", "the key id AKIAAWSID0123456789X", "AWSID0123456789"},
	{"aws-secret-key", "aws_secret_access_key = AWSsk0123456789abcdefghijklmnopqrstuvwxy", "AWSsk0123456789"},
	{"azure-key", `AZ="AccountName=a;AccountKey=AZkey0123456789abcdefghij==;EndpointSuffix=core.windows.net"`, "AZkey0123456789"},
	{"azure-sas", "SharedAccessSignature=sv=2021-08-06&sig=AZsas0123456789abcdef", "AZsas0123456789"},
	{"basic-auth", `curl -H "Authorization: Basic QkFzaWMwMTIzNDU2Nzg5" https://api.example.com`, "QkFzaWMwMTIzNDU2Nzg5"},
	{"bearer-token", `curl -H "Authorization: Bearer BEtok0123456789abcdef" https://api.example.com`, "BEtok0123456789"},
	{"password", "psql postgres://app:PWurl0123456@db/app", "PWurl0123456"},
	{"password", "psql postgres://u:PW@at0123456@host/db", "PW@at0123456"},
	{"password", "open https://user:PWbasic0123456@host.example.com/", "PWbasic0123456"},
	{"password", `DSN="app:PWdsn0123456@tcp(db:3306)/app" go run .`, "PWdsn0123456"},
	{"password", "mysql -u root -pPWmy0123456 app", "PWmy0123456"},
	{"password", "./deploy --password PWflag0123456 --env prod", "PWflag0123456"},
	{"password", "./deploy --password=PWeq0123456", "PWeq0123456"},
	{"password", "pass: PWyaml0123456", "PWyaml0123456"},
	{"password", "PASSWORD=PWenv0123456 make db", "PWenv0123456"},
	{"password", "curl -u admin:PWcurl0123456 https://api.example.com", "PWcurl0123456"},
	{"secret", `curl -H "X-Api-Key: SCkey0123456789" https://api.example.com`, "SCkey0123456789"},
	{"secret", "gh api --token SCtok0123456789 /user", "SCtok0123456789"},
	{"private-key", "-----BEGIN RSA PRIVATE KEY-----\nPKbody0123456789abcdef\n-----END RSA PRIVATE KEY-----", "PKbody0123456789"},
}

// TestHookNoSecretReachesTheVault runs a session through the real binary
// whose cwd, prompts, Bash command, tool inputs and paths carry a secret
// of every shape (and a tool call that matches a lesson, so its outcome
// is logged, and a compaction on a focused task, so a checkpoint goes to
// the task's log), then reads every file of the vault, .vaultmem
// included: no secret is anywhere, and each shape's mask is somewhere.
func TestHookNoSecretReachesTheVault(t *testing.T) {
	vaultDir, project := hookVaultFor(t)
	cfg := filepath.Join(vaultDir, ".vaultmem", "config.yaml")
	writeFile(t, cfg, strings.Replace(mustRead(t, cfg), "prompts: first-line", "prompts: full", 1))
	ok(t, vaultDir, "allow")                                                    // the whole of each prompt: the user's own choice
	cwd := filepath.Join(project, "ghp_CWDtok0123456789abcdefghijklmnopqrstuv") // the agent works in it
	var all []string
	for _, s := range shapeSamples {
		all = append(all, s.line)
	}
	half := len(all) / 2
	edited := filepath.Join(cwd, "db", "migrations", "0042-hf_FILEtok0123456789abcdefghijklmn.sql")
	ev := func(name string, f map[string]any) string { return hookEvent("s1", cwd, name, f) }
	// A call that matches the lesson on migrations, whose outcome is
	// logged with the call's text as its context; the failing ones lower
	// the lesson, so most succeed, lest it be flagged and shown no more.
	tool := func(id, name string, input map[string]any, failed bool) []string {
		after := ev("PostToolUse", map[string]any{"tool_name": name, "tool_use_id": id, "tool_input": input, "tool_response": map[string]any{"success": true}})
		if failed {
			after = ev("PostToolUseFailure", map[string]any{"tool_name": name, "tool_use_id": id, "tool_input": input, "error": "exit status 1"})
		}
		return []string{ev("PreToolUse", map[string]any{"tool_name": name, "tool_use_id": id, "tool_input": input}), after}
	}
	events := []string{
		ev("SessionStart", map[string]any{"source": "startup"}),
		ev("UserPromptSubmit", map[string]any{"prompt": "run the integration tests with these:\n" + strings.Join(all[:half], "\n")}),
		ev("UserPromptSubmit", map[string]any{"prompt": strings.Join(all[half:], "\n")}),
	}
	// Each sample alone as a prompt's first line, which the checkpoint
	// quotes, cut short.
	for _, line := range all {
		events = append(events, ev("UserPromptSubmit", map[string]any{"prompt": line}))
	}
	events = append(events, tool("toolu_1", "Edit", map[string]any{"file_path": edited}, false)...)
	events = append(events, tool("toolu_2", "Bash", map[string]any{"command": strings.Join(all, "\n"),
		"description": "run the integration tests with " + shapeSamples[0].line}, true)...)
	events = append(events, tool("toolu_3", "WebFetch", map[string]any{"url": "https://user:PWbasic0123456@host.example.com/integration tests",
		"prompt": "summarise the integration tests; " + strings.Join(all[:half], "; ")}, false)...)
	events = append(events, tool("toolu_4", "Grep", map[string]any{"pattern": "integration tests " + strings.Join(all[half:], " "),
		"path": filepath.Join(cwd, "db", "migrations")}, false)...)
	events = append(events, tool("toolu_5", "Task", map[string]any{"prompt": "fix the integration tests; " + strings.Join(all, " ")}, false)...)
	events = append(events,
		ev("PreCompact", map[string]any{"trigger": "auto"}),
		ev("SessionStart", map[string]any{"source": "compact"}),
		ev("Stop", map[string]any{"stop_hook_active": false}),
	)
	transcript(t, vaultDir, "claude-code", events)

	secrets := []string{"CWDtok0123456789", "FILEtok0123456789"}
	for _, s := range shapeSamples {
		secrets = append(secrets, s.secret)
	}
	files := checkNoSecrets(t, vaultDir, secrets)
	for _, want := range []string{".vaultmem/state/sessions/s1.json", "tasks/Ship the importer.md"} {
		if _, ok := files[want]; !ok {
			t.Fatalf("no %s: the session did not write it", want)
		}
	}
	everything := strings.Join(mapValues(files), "\n")
	for _, s := range shapeSamples {
		if !strings.Contains(everything, "[REDACTED:"+s.shape+"]") {
			t.Errorf("no mask of %s anywhere in the vault: was its sample recorded?", s.shape)
		}
	}
	outcomes := outcomeLog(t, vaultDir)
	if n := strings.Count(outcomes, "\n"); n < 5 || !strings.Contains(outcomes, `GITHUB_TOKEN=[REDACTED:github-token] go test ./integration`) ||
		!strings.Contains(outcomes, "0042-[REDACTED:huggingface-token].sql") {
		t.Errorf("the outcome log (%d records) lacks the masked command or path:\n%s", n, outcomes)
	}
	if state := files[".vaultmem/state/sessions/s1.json"]; !strings.Contains(state, "proj/[REDACTED:github-token]") {
		t.Errorf("the session state lacks the masked cwd:\n%s", state)
	}
	if task := files["tasks/Ship the importer.md"]; !strings.Contains(task, "Checkpoint before the conversation was compacted") ||
		!strings.Contains(task, "[REDACTED:") {
		t.Errorf("no masked checkpoint on the task:\n%s", task)
	}

	// At its end the state goes and the note is written again: still none.
	transcript(t, vaultDir, "claude-code", []string{ev("SessionEnd", map[string]any{"reason": "logout"})})
	checkNoSecrets(t, vaultDir, secrets)
}

// checkNoSecrets reads every file under dir and fails the test for each
// that holds one of secrets; it returns the files' contents by
// slash-separated path.
func checkNoSecrets(t *testing.T, dir string, secrets []string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSocket != 0 {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(b)
		for _, s := range secrets {
			if strings.Contains(string(b), s) {
				t.Errorf("%s holds the secret %q", rel, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// mapValues are m's values, in no order.
func mapValues(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// TestDoctorGitignore: a vault made before its .gitignore kept the
// sessions' state out of git is told so by doctor, without exit 1;
// doctor --fix appends the rule, keeping every line there was, and git
// then ignores the state files.
func TestDoctorGitignore(t *testing.T) {
	dir := t.TempDir()
	ok(t, dir, "init")
	ok(t, dir, "index")
	ignore := filepath.Join(dir, ".vaultmem", ".gitignore")
	old := "# mine\ncache/\ntmp/\nlock\nstate/dream-journal.json" // an older vault's, edited, no final newline
	writeFile(t, ignore, old)
	out := ok(t, dir, "doctor")
	if !strings.Contains(out, ".vaultmem/.gitignore: lacks state/sessions/") {
		t.Errorf("doctor did not report the missing rule:\n%s", out)
	}
	if mustRead(t, ignore) != old {
		t.Fatal("doctor without --fix changed the .gitignore")
	}
	if out := ok(t, dir, "doctor", "--fix"); !strings.Contains(out, ".vaultmem/.gitignore: added state/sessions/") {
		t.Errorf("doctor --fix did not say it added the rule:\n%s", out)
	}
	if got := mustRead(t, ignore); !strings.HasPrefix(got, old+"\n") || !strings.Contains(got, "\nstate/sessions/\n") || !strings.HasSuffix(got, "\nstate/focus/\n") {
		t.Errorf("the .gitignore after --fix:\n%s", got)
	}
	if out := ok(t, dir, "doctor"); strings.Contains(out, "gitignore") {
		t.Errorf("doctor still reports the .gitignore after --fix:\n%s", out)
	}
	// No .gitignore at all: --fix writes the whole of it.
	os.Remove(ignore)
	ok(t, dir, "doctor", "--fix")
	if got := mustRead(t, ignore); !strings.Contains(got, "\nstate/sessions/\n") || !strings.Contains(got, "\ncache/\n") {
		t.Errorf("the .gitignore --fix wrote:\n%s", got)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH")
	}
	if out, err := gitCmd(dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	writeFile(t, filepath.Join(dir, ".vaultmem", "state", "sessions", "s1.json"), "{}\n")
	if out, err := gitCmd(dir, "check-ignore", "-q", ".vaultmem/state/sessions/s1.json").CombinedOutput(); err != nil {
		t.Errorf("git does not ignore a session's state: %v\n%s", err, out)
	}
	if err := gitCmd(dir, "check-ignore", "-q", ".vaultmem/state/focus/default.yaml").Run(); err != nil {
		t.Errorf("git does not ignore an agent's focus: %v", err)
	}
	if err := gitCmd(dir, "check-ignore", "-q", ".vaultmem/state/lessons/outcomes.jsonl").Run(); err == nil {
		t.Error("git ignores the outcome log, which is to be committed")
	}
}
