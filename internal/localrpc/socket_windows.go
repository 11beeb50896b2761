package localrpc

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"
)

// Address is the named pipe of the server of the vault in folder dir for
// this user: \\.\pipe\vaultmem-HASH, HASH a hash of the user's SID and dir
// (named pipes share one namespace on a machine; private, the vault's own
// temporary folder, is not used).
func Address(dir, _ string) string {
	sid, _ := userSID() // without it, the pipe is still the vault's
	sum := sha256.Sum256([]byte(sid + "\x00" + dir))
	return `\\.\pipe\vaultmem-` + hex.EncodeToString(sum[:12])
}

// Dial connects to the server listening at addr, waiting at most
// serverWait. Pipe names are one namespace for every user of the machine,
// so a pipe of this name made by another user would be taken for the
// server: the connection is refused unless this user's process serves it.
func Dial(ctx context.Context, addr string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, serverWait)
	defer cancel()
	c, err := winio.DialPipeContext(ctx, addr)
	if err != nil {
		return nil, err
	}
	if err := servedByThisUser(c); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: %w", addr, err)
	}
	return c, nil
}

// servedByThisUser says why the process at the other end of pipe c does
// not run as this user.
func servedByThisUser(c net.Conn) error {
	f, ok := c.(interface{ Fd() uintptr })
	if !ok {
		return fmt.Errorf("a %T has no handle", c)
	}
	var pid uint32
	if err := windows.GetNamedPipeServerProcessId(windows.Handle(f.Fd()), &pid); err != nil {
		return fmt.Errorf("the pipe's server: %w", err)
	}
	proc, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return fmt.Errorf("the pipe's server (pid %d): %w", pid, err)
	}
	defer windows.CloseHandle(proc)
	var token windows.Token
	if err := windows.OpenProcessToken(proc, windows.TOKEN_QUERY, &token); err != nil {
		return fmt.Errorf("the pipe's server (pid %d): %w", pid, err)
	}
	defer token.Close()
	theirs, err := token.GetTokenUser()
	if err != nil {
		return fmt.Errorf("the pipe's server (pid %d): %w", pid, err)
	}
	ours, err := userSID()
	if err != nil {
		return err
	}
	if sid := theirs.User.Sid.String(); sid != ours {
		return fmt.Errorf("served by another user (%s), not this one", sid)
	}
	return nil
}

// Listen listens at addr, a named pipe only this user may open. A
// pipe goes with the process that made it: no server that died leaves one
// behind, and while one serves, no other can listen at addr.
func Listen(addr string) (net.Listener, error) {
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
