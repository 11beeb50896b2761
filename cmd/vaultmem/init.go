package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"
	"github.com/vaultmem/vaultmem/vault"
)

func (a *app) initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "make a folder (an existing Obsidian vault or a new one) a vaultmem vault",
		ArgsUsage: "[DIR]",
		Description: "Creates .vaultmem/config.yaml, .vaultmem/.gitignore, .vaultmem/state/ and the default\n" +
			"folders (memory/, tasks/, lessons/). Safe to run again and safe on an existing Obsidian\n" +
			"vault: it creates only what is missing and never touches a note.",
		Flags: []cli.Flag{jsonFlag},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			dir := a.vaultFlag
			switch cmd.Args().Len() {
			case 0:
			case 1:
				dir = cmd.Args().First()
			default:
				return usagef("init takes at most one DIR")
			}
			if dir == "" {
				dir = "."
			}
			dir, err := filepath.Abs(dir)
			if err != nil {
				return err
			}
			created, err := initVault(dir)
			if err != nil {
				return err
			}
			if cmd.Bool("json") {
				return a.printJSON(map[string]any{"vault": dir, "created": created})
			}
			if len(created) == 0 {
				fmt.Fprintf(a.stdout, "%s is already a vaultmem vault; nothing to do\n", dir)
				return nil
			}
			fmt.Fprintf(a.stdout, "Initialized vaultmem vault in %s\n", dir)
			for _, c := range created {
				fmt.Fprintf(a.stdout, "  created %s\n", c)
			}
			return nil
		},
	}
}

// initVault creates what is missing and returns it, as vault-relative
// paths.
func initVault(dir string) ([]string, error) {
	created := []string{}
	info, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) { // a new vault
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("init %s: %w", dir, errors.Unwrap(err))
		}
		created = append(created, "./")
	} else if err != nil {
		return nil, fmt.Errorf("init %s: %w", dir, errors.Unwrap(err))
	} else if !info.IsDir() {
		return nil, fmt.Errorf("init %s: not a folder", dir)
	}
	mkdir := func(rel string) error {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if info, err := os.Stat(p); err == nil {
			if !info.IsDir() {
				return fmt.Errorf("init: %s exists and is not a folder", p)
			}
			return nil
		}
		if err := os.MkdirAll(p, 0o755); err != nil {
			return fmt.Errorf("init: %w", err)
		}
		created = append(created, rel+"/")
		return nil
	}
	write := func(rel, text string) error {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("init: %w", err)
		}
		if _, err := f.WriteString(text); err != nil {
			f.Close()
			return fmt.Errorf("init: write %s: %w", p, err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("init: write %s: %w", p, err)
		}
		created = append(created, rel)
		return nil
	}
	if err := mkdir(vault.DotDir); err != nil {
		return nil, err
	}
	if err := write(vault.GitignoreFile, vault.GitignoreText); err != nil {
		return nil, err
	}
	if err := write(vault.ConfigFile, defaultConfigText); err != nil {
		return nil, err
	}
	cfg, err := loadConfig(dir)
	if err != nil {
		return nil, err
	}
	for _, rel := range []string{vault.StateDir, cfg.Folders.Memory, cfg.Folders.Tasks, cfg.Folders.Lessons} {
		if err := mkdir(rel); err != nil {
			return nil, err
		}
	}
	return created, nil
}
