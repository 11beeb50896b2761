package mcpserver_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/mcpserver"
)

// TestResourcesListedByPage: resources/list reads the notes from the
// index, index.MaxLimit a page, every note once and in path order; a
// cursor the server did not give is refused; NotesChanged sends clients
// notifications/resources/list_changed, and the marker that makes the SDK
// send it is never listed.
func TestResourcesListedByPage(t *testing.T) {
	files := map[string]string{}
	var want []string
	for i := range 2*index.MaxLimit + 100 {
		p := fmt.Sprintf("notes/%04d.md", i)
		files[p] = fmt.Sprintf("---\ndescription: about note %d\n---\n# Note %d\n", i, i)
		want = append(want, p)
	}
	_, srv, _ := serve(t, files, nil)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	changed := make(chan struct{}, 1)
	st, ct := mcp.NewInMemoryTransports()
	go srv.Run(ctx, st)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		}}).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })

	first, err := cs.ListResources(ctx, &mcp.ListResourcesParams{})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Resources) != index.MaxLimit || first.NextCursor == "" {
		t.Fatalf("first page: %d resources, next cursor %q; want %d and a cursor", len(first.Resources), first.NextCursor, index.MaxLimit)
	}
	if r := first.Resources[0]; r.URI != mcpserver.URI(want[0]) || r.Title != "0000" || r.Description != "about note 0" || r.MIMEType != "text/markdown" {
		t.Errorf("first resource: %+v", r)
	}
	var got []string
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("listed %d resources, want the %d notes in path order", len(got), len(want))
	}
	if _, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: "not-a-cursor"}); err == nil || !strings.Contains(err.Error(), "cursor") {
		t.Errorf("a bad cursor gave %v, want an error naming the cursor", err)
	}

	srv.NotesChanged()
	<-changed // the test's own timeout ends it if no notification comes
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(r.URI, ".vaultmem") {
			t.Errorf("listed %s", r.URI)
		}
	}
}
