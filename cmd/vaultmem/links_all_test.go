package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestLinksAll: --all gives every link of the link listings, page after
// page of --limit, from --offset on, as one page would, with nothing said
// about more.
func TestLinksAll(t *testing.T) {
	dir := fixtureVault(t, "link-forms")
	type page struct {
		Edges      []map[string]any `json:"edges"`
		Total      int              `json:"total"`
		More       int              `json:"more"`
		NextOffset *int             `json:"next_offset"`
	}
	read := func(args ...string) page {
		t.Helper()
		var p page
		out := ok(t, dir, append([]string{"--vault", dir}, args...)...)
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatalf("vaultmem %v: %v", args, err)
		}
		return p
	}
	whole := read("links", "--json")
	if whole.Total < 10 || len(whole.Edges) != whole.Total {
		t.Fatalf("the fixture's links: %d of %d; want one page of at least 10", len(whole.Edges), whole.Total)
	}
	tests := []struct {
		name string
		args []string
		want []map[string]any
	}{
		{"pages of 3", []string{"links", "--json", "--limit", "3", "--all"}, whole.Edges},
		{"a page of 1", []string{"links", "--json", "--limit", "1", "--all"}, whole.Edges},
		{"from an offset", []string{"links", "--json", "--limit", "4", "--offset", "5", "--all"}, whole.Edges[5:]},
		{"one page holds all", []string{"links", "--json", "--all"}, whole.Edges},
		{"unresolved", []string{"unresolved", "--json", "--limit", "1", "--all"}, read("unresolved", "--json").Edges},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := read(tt.args...)
			if !reflect.DeepEqual(got.Edges, tt.want) {
				t.Errorf("vaultmem %v: %d edges, want the %d of one page, in its order", tt.args, len(got.Edges), len(tt.want))
			}
			if got.More != 0 || got.NextOffset != nil || (tt.args[0] == "links" && got.Total != whole.Total) {
				t.Errorf("vaultmem %v: more %d, next_offset %v, total %d; want 0, none, %d", tt.args, got.More, got.NextOffset, got.Total, whole.Total)
			}
		})
	}
	// The text form: every link, a line each, and no "N more" hint.
	r := vaultmem(t, dir, "", "--vault", dir, "links", "--limit", "2", "--all")
	if r.code != 0 || strings.Count(r.stdout, "\n") != whole.Total || strings.Contains(r.stderr, "more:") {
		t.Errorf("links --limit 2 --all: exit %d, %d lines (want %d), stderr %q", r.code, strings.Count(r.stdout, "\n"), whole.Total, r.stderr)
	}
}
