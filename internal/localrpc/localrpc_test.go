package localrpc

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestServerAndAsk: a Server answers the ops it takes for its vault, an
// op's error reaches the client with its class, and what it does not take
// (another op, another vault) is left to the client to answer itself.
func TestServerAndAsk(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr := Address(dir, filepath.Join(dir, "tmp"))
	stop, err := Server{
		Vault: dir, Addr: addr,
		Takes: func(op string) bool { return op == "double" || op == "fail" },
		Answer: func(_ context.Context, op string, args json.RawMessage) (any, error) {
			if op == "fail" {
				return nil, errors.New("no such thing")
			}
			var n int
			if err := json.Unmarshal(args, &n); err != nil {
				return nil, err
			}
			return 2 * n, nil
		},
		Class: func(error) int { return 7 },
		Logf:  t.Logf,
	}.Listen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	wait := AskOptions{FirstByte: time.Hour, Wait: time.Hour} // no timing in this test
	var got int
	if answered, err := Ask(ctx, addr, dir, "double", 21, &got, wait); !answered || err != nil || got != 42 {
		t.Errorf("double 21: %v, %v, %d", answered, err, got)
	}
	var re *RemoteError
	if answered, err := Ask(ctx, addr, dir, "fail", 0, &got, wait); !answered || !errors.As(err, &re) || re.Class != 7 || re.Message != "no such thing" {
		t.Errorf("fail: %v, %v", answered, err)
	}
	if answered, err := Ask(ctx, addr, dir, "other", 0, &got, wait); answered || err != nil {
		t.Errorf("an op not taken: %v, %v", answered, err)
	}
	other := t.TempDir()
	if answered, err := Ask(ctx, Address(other, filepath.Join(other, "tmp")), other, "double", 1, &got, wait); answered || err != nil {
		t.Errorf("a vault with no server: %v, %v", answered, err)
	}
	// A second server for the same vault serves nothing: the first does.
	stop2, err := Server{Vault: dir, Addr: addr, Takes: func(string) bool { return true },
		Answer: func(context.Context, string, json.RawMessage) (any, error) { return -1, nil }}.Listen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer stop2()
	if answered, err := Ask(ctx, addr, dir, "double", 5, &got, wait); !answered || err != nil || got != 10 {
		t.Errorf("with a second server started: %v, %v, %d", answered, err, got)
	}
}
