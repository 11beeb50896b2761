package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

func allowCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:  "allow",
		Usage: "approve the vault's config as it is now: let it use endpoints, API key variables and commits",
		Description: "A vault's .vaultmem/config.yaml is written by whoever shares the vault, so its privileged keys\n" +
			"(embedder.provider other than lsa or none, embedder.url, embedder.api_key_env,\n" +
			"embedder.model_path, recall.classifier.*, dream.llm.*, dream.commit: true, hooks.prompts: full)\n" +
			"are ignored, and every command says so on stderr, until you approve the file. 'allow' records\n" +
			"the sha256 of the file's bytes for this vault in your config folder (vaultmem/allowed under\n" +
			"$XDG_CONFIG_HOME, or ~/.config); once the file changes (a git pull, say) its privileged keys\n" +
			"are ignored again until you run 'allow' again. Read the file before you approve it; allow lists\n" +
			"what it will use. Even approved, an api_key_env applies only when allowed_env in your own\n" +
			"config names its variable (or your config uses it itself). A config that does not load is\n" +
			"not approved. A running 'vaultmem watch' or 'vaultmem mcp' uses the approval from its next\n" +
			"start. --revoke withdraws the approval. With --json: {vault, file, user_file, sha256, approved,\n" +
			"changed, privileged: [{key, value}], ignored, refused_env: [{key, variable}]}, or with --revoke\n" +
			"{vault, revoked}.",
		Flags: []cli.Flag{jsonFlag(),
			&cli.BoolFlag{Name: "revoke", Usage: "withdraw the approval: the privileged keys are ignored again"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := noArgs(cmd); err != nil {
				return err
			}
			dir, err := sh.vaultDir()
			if err != nil {
				return err
			}
			if cmd.Bool("revoke") {
				had, err := app.Revoke(dir)
				if err != nil {
					return err
				}
				line := "the vault's config was not approved; nothing to revoke"
				if had {
					line = "revoked: the privileged keys of " + dir + "'s config are ignored from now on"
				}
				return sh.out(cmd, struct {
					Vault   string `json:"vault"`
					Revoked bool   `json:"revoked"`
				}{dir, had}, line)
			}
			c, err := app.Allow(dir)
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return sh.printJSON(c)
			}
			sh.printAllowed(c)
			return nil
		},
	}
}

// printAllowed says what the approval lets the vault's config use.
func (sh *shell) printAllowed(c app.Consent) {
	w := sh.stdout
	fmt.Fprintf(w, "approved %s (sha256 %s)\n", c.File, c.SHA256)
	if len(c.Privileged) == 0 {
		fmt.Fprintln(w, "it sets no privileged key: it uses no endpoint, API key or commit of yours")
		return
	}
	refused := map[string]string{}
	for _, r := range c.RefusedEnv {
		refused[r.Key] = r.Variable
	}
	fmt.Fprintln(w, "it may now use:")
	for _, s := range c.Privileged {
		if v, ok := refused[s.Key]; ok {
			fmt.Fprintf(w, "  %s: %s  (not used: %s does not name %s in allowed_env)\n", s.Key, s.Value, c.UserFile, v)
			continue
		}
		fmt.Fprintf(w, "  %s: %s\n", s.Key, s.Value)
	}
	fmt.Fprintln(w, "until the file changes; 'vaultmem allow --revoke' withdraws it")
}
