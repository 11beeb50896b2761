package runstate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
	"go.yaml.in/yaml/v3"
)

// States is what the run records are kept with: the state files of a
// vault (under .vaultmem/state), which a *vault.Writer reads and writes
// compare-before-write.
type States interface {
	ReadState(name string) ([]byte, string, error)
	WriteState(ctx context.Context, name string, content []byte, expected string) (string, error)
	RemoveState(ctx context.Context, name, expected string) error
}

var _ States = (*vault.Writer)(nil)

// CheckpointFile is the state file (under .vaultmem/state, committed)
// where a run records what it saw: the next run looks only at the
// memories changed since, and their neighbours.
const CheckpointFile = "dream.yaml"

// Checkpoint is what the last run that changed anything saw.
type Checkpoint struct {
	// LastRun is when it ran (RFC 3339).
	LastRun string `yaml:"last_run"`
	// Memories holds the live memories it left, by vault path, each with
	// the first hex digits of its content hash (see ShortHash).
	Memories map[string]string `yaml:"memories"`
}

const checkpointHeader = "# vaultmem Dream checkpoint: the memories its last run left, with their hashes.\n" +
	"# Safe to delete: the next run then looks at every memory.\n"

// ReadCheckpoint returns the checkpoint s holds (nil when there is none)
// and its hash. A checkpoint that does not parse (a merge conflict, a
// hand edit) counts as none, and why is returned as a problem to report,
// naming the file; err is s's when the file cannot be read.
func ReadCheckpoint(s States) (cp *Checkpoint, hash string, problem error, err error) {
	b, hash, err := s.ReadState(CheckpointFile)
	if errors.Is(err, vault.ErrNotFound) {
		return nil, "", nil, nil
	}
	if err != nil {
		return nil, "", nil, err
	}
	cp = &Checkpoint{}
	if err := yaml.Unmarshal(b, cp); err != nil || cp.Memories == nil {
		if err == nil {
			err = errors.New("no memories key")
		}
		return nil, hash, fmt.Errorf("%s/%s does not parse (%v): every memory is looked at", vault.StateDir, CheckpointFile, err), nil
	}
	return cp, hash, nil, nil
}

// WriteCheckpoint records memories (path to content hash), as run at
// now, when they differ from old's (read with the hash oldHash, "" when
// there was none): a run that changed nothing leaves the file alone. It
// reports whether it wrote; errors are s's (vault.ErrConflict when the
// file changed since it was read).
func WriteCheckpoint(ctx context.Context, s States, old *Checkpoint, oldHash string, memories map[string]string, now time.Time) (bool, error) {
	short := make(map[string]string, len(memories))
	for p, h := range memories {
		short[p] = ShortHash(h)
	}
	if old != nil && maps.Equal(old.Memories, short) {
		return false, nil
	}
	b, err := encodeCheckpoint(Checkpoint{LastRun: now.UTC().Format(time.RFC3339), Memories: short})
	if err != nil {
		return false, err
	}
	expected := oldHash
	if expected == "" {
		expected = vault.AnyHash // a new file, unless one appeared meanwhile
	}
	if _, err := s.WriteState(ctx, CheckpointFile, b, expected); err != nil {
		return false, err
	}
	return true, nil
}

// Two clones that each run Dream each rewrite the checkpoint, and git,
// merging lines, sees both change the same lines. The checkpoint is only
// a shortcut: a memory it does not list (or lists with another hash) is
// looked at again by the next run, so dropping an entry is always safe
// and keeping one is safe only when both sides agree on it.
// MergeCheckpoint is the merge git calls (through the merge-checkpoint
// command) for it.

// MergeCheckpoint merges two versions of the checkpoint (CheckpointFile),
// ours and theirs; file is its path, for errors. The merge lists the
// memories both versions list with the same hash, and drops every other
// (one listed on one side only, or with two hashes): the next run looks
// at those again. Its last_run is the later of the two (ours' when
// neither is a time). The result is written as a run writes the file.
// The common base is not needed: what both sides saw is what they agree
// on.
//
// It returns a *markdown.ParseError naming the version
// (".vaultmem/state/dream.yaml (theirs)") and the line at fault when a
// version does not parse or has no memories key.
func MergeCheckpoint(file string, ours, theirs []byte) ([]byte, error) {
	o, err := parseCheckpoint(file, "ours", ours)
	if err != nil {
		return nil, err
	}
	t, err := parseCheckpoint(file, "theirs", theirs)
	if err != nil {
		return nil, err
	}
	merged := Checkpoint{LastRun: laterRun(o.LastRun, t.LastRun), Memories: map[string]string{}}
	for p, h := range o.Memories {
		if t.Memories[p] == h {
			merged.Memories[p] = h
		}
	}
	out, err := encodeCheckpoint(merged)
	if err != nil {
		return nil, fmt.Errorf("merge %s: %w", file, err)
	}
	return out, nil
}

// parseCheckpoint reads one version of the checkpoint; side names it in
// errors (a *markdown.ParseError).
func parseCheckpoint(file, side string, b []byte) (*Checkpoint, error) {
	cp := &Checkpoint{}
	err := yaml.Unmarshal(b, cp)
	line := 0
	switch {
	case err != nil:
		line = errorLine(b)
		err = fmt.Errorf("does not parse: %s", strings.TrimPrefix(yamlLine().ReplaceAllString(err.Error(), ""), "yaml: "))
	case cp.Memories == nil:
		err = errors.New("does not parse: no memories key")
	default:
		return cp, nil
	}
	return nil, &markdown.ParseError{Path: file + " (" + side + ")", Line: line, Err: err}
}

// yamlLine is the line the YAML library names in its errors, which is
// often the line where the block holding the error begins.
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line \d+: `) })

// errorLine is the first line of b at which b stops parsing as YAML: the
// least n such that b's first n lines do not parse (found by halving,
// taking a longer prefix to parse when a shorter one does), or 0.
func errorLine(b []byte) int {
	starts := []int{0}
	for i, c := range b {
		if c == '\n' && i+1 < len(b) {
			starts = append(starts, i+1)
		}
	}
	prefix := func(n int) []byte { // b's first n lines
		if n >= len(starts) {
			return b
		}
		return b[:starts[n]]
	}
	var probe yaml.Node
	if yaml.Unmarshal(b, &probe) == nil {
		return 0
	}
	lo, hi := 0, len(starts) // the first lo lines parse; the first hi do not
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if yaml.Unmarshal(prefix(mid), &probe) == nil {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// laterRun is the later of two run times (RFC 3339); ours when neither
// is one.
func laterRun(ours, theirs string) string {
	o, oerr := time.Parse(time.RFC3339, ours)
	t, terr := time.Parse(time.RFC3339, theirs)
	if terr == nil && (oerr != nil || t.After(o)) {
		return theirs
	}
	return ours
}

// encodeCheckpoint is the checkpoint file's content for cp: its header
// and cp as YAML.
func encodeCheckpoint(cp Checkpoint) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(checkpointHeader)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(cp); err != nil {
		return nil, fmt.Errorf("encode the checkpoint: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode the checkpoint: %w", err)
	}
	return buf.Bytes(), nil
}
