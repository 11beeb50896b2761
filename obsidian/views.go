package obsidian

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"slices"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/vault"
	"go.yaml.in/yaml/v3"
)

// StateFile is the state file (under .vaultmem/state, committed) that
// records, for each view file vaultmem wrote, the hash of what it last
// wrote.
const StateFile = "views.yaml"

// What Write did with a file.
const (
	Created   = "created"   // it did not exist: written
	Updated   = "updated"   // it was as vaultmem last wrote it: rewritten
	Unchanged = "unchanged" // it already held what vaultmem writes
	Kept      = "kept"      // someone changed it (or wrote it): left as it is
)

// Written is what Write did with one view file.
type Written struct {
	// Path is the file's vault path.
	Path string `json:"path"`
	// Status is Created, Updated, Unchanged or Kept.
	Status string `json:"status"`
	// Reason says why a file was kept.
	Reason string `json:"reason,omitempty"`
}

// stateHeader heads the state file.
const stateHeader = "# The view files vaultmem wrote for Obsidian, each with the hash of what it last\n" +
	"# wrote (vaultmem init). It rewrites a file only while the file still has that\n" +
	"# hash, so that a person's edit is never overwritten.\n"

// Write writes the view files into the vault folder folder ("" for the
// top), each only where that never overwrites a person's edit: a file
// that does not exist is created; one that still has the hash recorded
// when vaultmem last wrote it (see StateFile) is rewritten; any other is
// kept as it is, and said so. It records the hash of each file it wrote
// or found as it would write it. Every write is compared with the file
// as read (a save meanwhile makes the file kept).
//
// Errors: the state file's when it cannot be read or parsed (naming it),
// a view path that is not safe, I/O errors.
func Write(ctx context.Context, w *vault.Writer, folder string, files []File) ([]Written, error) {
	records, err := readState(w)
	if err != nil {
		return nil, err
	}
	out := make([]Written, 0, len(files))
	ours := map[string]string{} // path -> hash now on disk, written by vaultmem
	var failed error
	for _, f := range files {
		p := path.Join(folder, f.Name)
		res, err := writeOne(ctx, w, p, f.Content, records[p])
		if err != nil {
			failed = err // what was written before is recorded all the same
			break
		}
		if res.Status != Kept {
			ours[p] = markdown.Hash(f.Content)
		}
		out = append(out, res)
	}
	if err := record(ctx, w, ours); err != nil {
		return out, errors.Join(failed, err)
	}
	return out, failed
}

// record adds to the state file the hashes of the view files vaultmem
// wrote (or found as it would write them): path -> hash.
func record(ctx context.Context, w *vault.Writer, ours map[string]string) error {
	if len(ours) == 0 {
		return nil
	}
	_, err := w.UpdateState(ctx, StateFile, func(cur []byte) ([]byte, error) {
		m, err := parseState(cur)
		if err != nil {
			return nil, err
		}
		changed := false
		for p, h := range ours {
			if m[p] != h {
				m[p], changed = h, true
			}
		}
		if !changed {
			return cur, nil
		}
		return formatState(m), nil
	})
	if err != nil {
		return fmt.Errorf("record the views in %s/%s: %w", vault.StateDir, StateFile, err)
	}
	return nil
}

// writeOne writes content to the view file p unless a person's edit is
// there; recorded is the hash vaultmem last wrote to it ("" for none).
func writeOne(ctx context.Context, w *vault.Writer, p string, content []byte, recorded string) (Written, error) {
	res := Written{Path: p}
	cur, hash, err := w.ReadView(p)
	switch {
	case errors.Is(err, vault.ErrNotFound):
		if _, err := w.WriteView(ctx, p, content, ""); errors.Is(err, vault.ErrExists) || errors.Is(err, vault.ErrConflict) {
			res.Status, res.Reason = Kept, "someone wrote it just now"
			return res, nil
		} else if err != nil {
			return res, err
		}
		res.Status = Created
		return res, nil
	case errors.As(err, new(*vault.PathError)), errors.Is(err, vault.ErrLink):
		// A folder, a symbolic link (the file or a folder on its way), a
		// file that is not regular: a person's, never written through or
		// over.
		res.Status, res.Reason = Kept, "not a file vaultmem writes: "+err.Error()
		return res, nil
	case err != nil:
		return res, err
	case bytes.Equal(cur, content):
		res.Status = Unchanged
		return res, nil
	case recorded == "":
		res.Status, res.Reason = Kept, "vaultmem did not write it (a file of yours of that name)"
		return res, nil
	case hash != recorded:
		res.Status, res.Reason = Kept, "changed since vaultmem wrote it: yours now (delete it to get vaultmem's again)"
		return res, nil
	}
	if _, err := w.WriteView(ctx, p, content, hash); errors.Is(err, vault.ErrConflict) {
		res.Status, res.Reason = Kept, "saved by someone just now"
		return res, nil
	} else if err != nil {
		return res, err
	}
	res.Status = Updated
	return res, nil
}

// readState reads the state file's records: view path -> hash.
func readState(w *vault.Writer) (map[string]string, error) {
	b, _, err := w.ReadState(StateFile)
	if errors.Is(err, vault.ErrNotFound) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	return parseState(b)
}

// parseState parses the state file (nil: none yet).
func parseState(b []byte) (map[string]string, error) {
	m := map[string]string{}
	if len(bytes.TrimSpace(b)) == 0 {
		return m, nil
	}
	if err := yaml.Unmarshal(b, &m); err != nil {
		if merged, ok := parseMergedState(b); ok {
			return merged, nil
		}
		return nil, fmt.Errorf("%s/%s: %v (fix or delete it: vaultmem then keeps every view file that differs from its own)",
			vault.StateDir, StateFile, err)
	}
	if m == nil {
		m = map[string]string{}
	}
	return m, nil
}

// parseMergedState reads a state file two machines wrote, merged line by
// line (by git's union rule, or left with conflict markers): one record a
// line, the marker lines skipped. A view both machines recorded with
// different hashes is left out, so that vaultmem takes its file for a
// person's and never overwrites it. ok is false when a line is no record.
func parseMergedState(b []byte) (map[string]string, bool) {
	m, clash := map[string]string{}, map[string]bool{}
	for line := range bytes.Lines(b) {
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' || markdown.IsConflictMarker(string(t)) {
			continue
		}
		var rec map[string]string
		if yaml.Unmarshal(t, &rec) != nil || len(rec) != 1 {
			return nil, false
		}
		for p, h := range rec {
			if old, ok := m[p]; ok && old != h {
				clash[p] = true
			}
			m[p] = h
		}
	}
	for p := range clash {
		delete(m, p)
	}
	return m, true
}

// formatState is the state file of records m, sorted by path.
func formatState(m map[string]string) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b bytes.Buffer
	b.WriteString(stateHeader)
	for _, k := range keys {
		line, _ := yaml.Marshal(map[string]string{k: m[k]})
		b.Write(line)
	}
	return b.Bytes()
}
