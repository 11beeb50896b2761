//go:build darwin || freebsd

package app

import (
	"fmt"
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// peerUID returns the user id the process at the other end of the Unix
// socket c ran as when it listened (or connected): what the kernel says
// (LOCAL_PEERCRED), whatever owns the socket's file. known is true.
func peerUID(c net.Conn) (uid int, known bool, err error) {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return 0, false, fmt.Errorf("a %T is no socket", c)
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return 0, false, err
	}
	var cred *unix.Xucred
	var gerr error
	if err := raw.Control(func(fd uintptr) {
		cred, gerr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return 0, false, err
	}
	if gerr != nil {
		return 0, false, fmt.Errorf("the peer's credentials: %w", gerr)
	}
	return int(cred.Uid), true, nil
}
