package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// configFile is the vault's settings file, relative to the vault root.
const configFile = ".vaultmem/config.yaml"

// config is .vaultmem/config.yaml. Every field has a working default, so a
// missing file or key means the default.
type config struct {
	// Folders are where new notes of each kind are written; a note's kind
	// comes from its frontmatter type:, wherever it lives.
	Folders struct {
		Memory  string `yaml:"memory"`
		Tasks   string `yaml:"tasks"`
		Lessons string `yaml:"lessons"`
	} `yaml:"folders"`
	// MaxNoteSize is the largest markdown file, in bytes, read as a note.
	MaxNoteSize int64 `yaml:"max_note_size"`
}

func defaultConfig() config {
	var c config
	c.Folders.Memory = "memory"
	c.Folders.Tasks = "tasks"
	c.Folders.Lessons = "lessons"
	c.MaxNoteSize = 10 << 20
	return c
}

// defaultConfigText is what `vaultmem init` writes: the defaults, with the
// reason for each.
const defaultConfigText = `# vaultmem settings (committed with the vault). Every key is optional.

# Folders where vaultmem writes new notes. A note's kind comes from its
# frontmatter "type:", wherever the note lives.
folders:
  memory: memory
  tasks: tasks
  lessons: lessons

# Markdown files larger than this many bytes are not read as notes.
max_note_size: 10485760
`

// loadConfig reads the vault's config; a missing file gives the defaults.
// Unknown keys and bad values are errors naming the file and line.
func loadConfig(vaultDir string) (config, error) {
	c := defaultConfig()
	p := filepath.Join(vaultDir, filepath.FromSlash(configFile))
	data, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("read config: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return c, fmt.Errorf("%s: %s", p, err)
	}
	if c.MaxNoteSize <= 0 {
		return c, fmt.Errorf("%s: max_note_size must be a positive number of bytes", p)
	}
	return c, nil
}
