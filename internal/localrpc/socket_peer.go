//go:build linux || darwin || freebsd

package localrpc

import (
	"fmt"
	"net"
	"syscall"
)

// peerUID returns the user id the process at the other end of the Unix
// socket c ran as when it listened (or connected): what the kernel says
// (see peerCredUID), whatever owns the socket's file. known is true.
func peerUID(c net.Conn) (uid int, known bool, err error) {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return 0, false, fmt.Errorf("a %T is no socket", c)
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return 0, false, err
	}
	var gerr error
	if err := raw.Control(func(fd uintptr) { uid, gerr = peerCredUID(int(fd)) }); err != nil {
		return 0, false, err
	}
	if gerr != nil {
		return 0, false, fmt.Errorf("the peer's credentials: %w", gerr)
	}
	return uid, true, nil
}
