package main

import (
	"context"
	"fmt"
	"os"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/app"
)

// trustResult is what trust did, for --json.
type trustResult struct {
	// Vault is the vault, absolute, links resolved ("" with --list).
	Vault string `json:"vault,omitempty"`
	// Status is trusted, already, removed or absent ("" with --list).
	Status string `json:"status,omitempty"`
	// File is the list of trusted vaults; Trusted what it holds now.
	File    string   `json:"file"`
	Trusted []string `json:"trusted"`
}

func trustCommand(sh *shell) *cli.Command {
	return &cli.Command{
		Name:  "trust",
		Usage: "use a vault whose .vaultmem another user owns or can change",
		Description: "vaultmem refuses a vault whose .vaultmem folder (or .vaultmem/config.yaml) is not yours or can\n" +
			"be changed by the group or everyone, as git refuses another user's repository: what it holds\n" +
			"(the config, the state) would have vaultmem act for whoever can change it. If you trust the\n" +
			"people who can, 'vaultmem trust' records the vault (the one --vault names, else the nearest at\n" +
			"or above the current folder) in your own list of trusted vaults, one absolute path a line, in\n" +
			"vaultmem/trusted under your config folder ($XDG_CONFIG_HOME, else ~/.config, on Linux).\n" +
			"--list prints the list; --remove takes the vault off it. Symbolic links in the vault where\n" +
			"vaultmem writes are refused whether the vault is trusted or not.",
		Flags: []cli.Flag{
			jsonFlag(),
			&cli.BoolFlag{Name: "list", Usage: "print the trusted vaults"},
			&cli.BoolFlag{Name: "remove", Usage: "take the vault off the list"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("trust takes no argument; name the vault with --vault DIR")
			}
			if cmd.Bool("list") && cmd.Bool("remove") {
				return usagef("trust: give --list or --remove, not both")
			}
			file, err := app.TrustFile()
			if err != nil {
				return err
			}
			res := trustResult{File: file}
			line := ""
			if !cmd.Bool("list") {
				dir, err := sh.trustDir()
				if err != nil {
					return err
				}
				if cmd.Bool("remove") {
					var removed bool
					if res.Vault, removed, err = app.Untrust(dir); err != nil {
						return err
					}
					res.Status, line = "removed", fmt.Sprintf("%s is no longer trusted (%s)", res.Vault, file)
					if !removed {
						res.Status, line = "absent", fmt.Sprintf("%s was not in the trusted vaults (%s)", res.Vault, file)
					}
				} else {
					var added bool
					if res.Vault, added, err = app.Trust(dir); err != nil {
						return err
					}
					res.Status, line = "trusted", fmt.Sprintf("trusted %s (recorded in %s)", res.Vault, file)
					if !added {
						res.Status, line = "already", fmt.Sprintf("%s is trusted already (%s)", res.Vault, file)
					}
				}
			}
			if res.Trusted, err = app.TrustedVaults(); err != nil {
				return err
			}
			if cmd.Bool("list") && !cmd.Bool("json") {
				for _, v := range res.Trusted {
					fmt.Fprintln(sh.stdout, v)
				}
				return nil
			}
			return sh.out(cmd, res, line)
		},
	}
}

// trustDir is the vault trust acts on: --vault, which may also name a
// folder no longer there (to remove it from the list), else the nearest
// vault at or above the current folder.
func (sh *shell) trustDir() (string, error) {
	if sh.vaultFlag != "" {
		return sh.vaultFlag, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return app.Find(wd, "")
}
