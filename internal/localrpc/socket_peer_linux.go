package localrpc

import "golang.org/x/sys/unix"

// peerCredUID is the user id of the peer of the Unix socket fd, from the
// kernel (SO_PEERCRED).
func peerCredUID(fd int) (int, error) {
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}
