package vectors

import "golang.org/x/sys/unix"

// mapPopulate maps every page at once: one system call instead of a page
// fault per page, since every byte is read (checksum, then scans).
const mapPopulate = unix.MAP_POPULATE
