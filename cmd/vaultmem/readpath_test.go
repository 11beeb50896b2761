package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/vaultmem/vaultmem/fixtures"
)

// TestCLIAndMCPAgree reads every fixture vault through the CLI and through
// the MCP server: the notes (path, file name, title, type, description,
// tags) and the links come out the same, since both answer from the index.
func TestCLIAndMCPAgree(t *testing.T) {
	for _, name := range fixtures.Names() {
		t.Run(name, func(t *testing.T) {
			dir := fixtureVault(t, name)
			var cli struct {
				Notes []struct {
					Path, Name, Type, Title, Description string
					Tags                                 []string
				}
			}
			if err := json.Unmarshal([]byte(ok(t, dir, "--vault", dir, "-q", "list", "--json")), &cli); err != nil {
				t.Fatal(err)
			}
			var edges struct {
				Edges []struct {
					Source, Target string
					Resolved       bool
				}
			}
			if err := json.Unmarshal([]byte(ok(t, dir, "--vault", dir, "-q", "links", "--json")), &edges); err != nil {
				t.Fatal(err)
			}
			cliLinks := map[string]bool{}
			for _, e := range edges.Edges {
				if e.Resolved && e.Source != e.Target {
					cliLinks[e.Source+" -> "+e.Target] = true
				}
			}

			cs := mcpSession(t, dir)
			var mcp struct {
				Notes []struct {
					Path, Type, Title, Description string
					FileName                       string `json:"file_name"`
					Tags                           []string
				}
			}
			if e := call(t, cs, "list_notes", map[string]any{"limit": 1000}, &mcp); e != "" {
				t.Fatal(e)
			}
			if len(mcp.Notes) != len(cli.Notes) {
				t.Fatalf("CLI lists %d notes, MCP %d", len(cli.Notes), len(mcp.Notes))
			}
			mcpLinks := map[string]bool{}
			for i, n := range mcp.Notes {
				c := cli.Notes[i]
				got := fmt.Sprint(n.Path, n.FileName, n.Title, n.Type, n.Description, n.Tags)
				want := fmt.Sprint(c.Path, c.Name, c.Title, c.Type, c.Description, c.Tags)
				if got != want {
					t.Errorf("note %d:\n MCP %s\n CLI %s", i, got, want)
				}
				var out struct {
					Links []struct{ Source, Target string }
				}
				if e := call(t, cs, "links", map[string]any{"path": n.Path, "direction": "out", "limit": 1000}, &out); e != "" {
					t.Fatal(e)
				}
				for _, l := range out.Links {
					mcpLinks[l.Source+" -> "+l.Target] = true
				}
			}
			if !reflect.DeepEqual(mcpLinks, cliLinks) {
				t.Errorf("links differ:\n MCP %v\n CLI %v", sorted(mcpLinks), sorted(cliLinks))
			}
		})
	}
}

func sorted(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
