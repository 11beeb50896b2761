package vault

import (
	"bufio"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// kernelHolder is the pid that holds a lock on the file fi as
// /proc/locks lists it (matched by device and inode; by inode alone when
// the device numbers differ, as on overlay file systems), 0 when none is
// listed. Waiters ("->" lines) are not holders.
func kernelHolder(fi fs.FileInfo) int {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	f, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer f.Close()
	dev := strconv.FormatUint(uint64(unix.Major(st.Dev)), 16) + ":" + strconv.FormatUint(uint64(unix.Minor(st.Dev)), 16)
	ino := strconv.FormatUint(st.Ino, 10)
	byInode := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "1: FLOCK  ADVISORY  WRITE 4242 08:02:1234 0 EOF"
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[1] == "->" {
			continue
		}
		id := strings.Split(fields[5], ":")
		if len(id) != 3 || id[2] != ino {
			continue
		}
		pid, err := strconv.Atoi(fields[4])
		if err != nil || pid <= 0 {
			continue
		}
		if trimZeros(id[0])+":"+trimZeros(id[1]) == dev {
			return pid
		}
		if byInode == 0 {
			byInode = pid
		}
	}
	return byInode
}

// trimZeros drops the leading zeros of a hex number ("08" → "8", "00" → "0").
func trimZeros(s string) string {
	if t := strings.TrimLeft(s, "0"); t != "" {
		return t
	}
	return "0"
}

// processUser is the user the process pid runs as, "" when it is not
// known (gone, or not visible).
func processUser(pid int) string {
	fi, err := os.Stat("/proc/" + strconv.Itoa(pid))
	if err != nil {
		return ""
	}
	return fileUser(fi)
}
