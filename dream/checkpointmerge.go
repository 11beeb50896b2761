package dream

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/vaultmem/vaultmem/markdown"
	"go.yaml.in/yaml/v3"
)

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
	merged := checkpoint{LastRun: laterRun(o.LastRun, t.LastRun), Memories: map[string]string{}}
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
func parseCheckpoint(file, side string, b []byte) (*checkpoint, error) {
	cp := &checkpoint{}
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
func encodeCheckpoint(cp checkpoint) ([]byte, error) {
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
