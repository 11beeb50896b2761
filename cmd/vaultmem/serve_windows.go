package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"
)

// serverAddress is the named pipe of vault dir's server for this user:
// \\.\pipe\vaultmem-HASH, HASH a hash of the user's SID and dir (named
// pipes share one namespace on a machine).
func serverAddress(dir string) string {
	sid, _ := userSID() // without it, the pipe is still the vault's
	sum := sha256.Sum256([]byte(sid + "\x00" + dir))
	return `\\.\pipe\vaultmem-` + hex.EncodeToString(sum[:12])
}

// dialServer connects to the server listening at addr, waiting at most
// serverWait.
func dialServer(ctx context.Context, addr string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, serverWait)
	defer cancel()
	return winio.DialPipeContext(ctx, addr)
}

// listenServer listens at addr, a named pipe only this user may open. A
// pipe goes with the process that made it: no server that died leaves one
// behind, and while one serves, no other can listen at addr.
func listenServer(addr string) (net.Listener, error) {
	sid, err := userSID()
	if err != nil {
		return nil, err
	}
	// Protected (P: nothing inherited), one entry: all access (GA) for
	// this user.
	return winio.ListenPipe(addr, &winio.PipeConfig{SecurityDescriptor: "D:P(A;;GA;;;" + sid + ")"})
}

// userSID is the SID of the user this process runs as.
func userSID() (string, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return "", fmt.Errorf("the user's SID: %w", err)
	}
	return u.User.Sid.String(), nil
}
