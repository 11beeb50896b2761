//go:build unix

package vault

import (
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"strconv"
	"syscall"
)

// unsafeOwner says why another user may change the file or folder fi
// (owned by another user, or writable by its group or by everyone), or
// "" when none may.
func unsafeOwner(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	if me := os.Geteuid(); int(st.Uid) != me {
		return fmt.Sprintf("is owned by %s, not by you (%s)", userName(int(st.Uid)), userName(me))
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Sprintf("can be changed by other users (mode %s)", fi.Mode())
	}
	return ""
}

// userName is the name of the user uid, with the number: "bob (uid
// 1001)", or "uid 1001" when the system knows no name.
func userName(uid int) string {
	if u, err := user.LookupId(strconv.Itoa(uid)); err == nil && u.Username != "" {
		return fmt.Sprintf("%s (uid %d)", u.Username, uid)
	}
	return fmt.Sprintf("uid %d", uid)
}

// fileUser is the owner of the file fi, as userName words it.
func fileUser(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return userName(int(st.Uid))
}
