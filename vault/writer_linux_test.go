package vault_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

type inotifyEvent struct {
	wd     int32
	mask   uint32
	cookie uint32
	name   string
}

// TestWriterTempFileInVaultmemTmp watches, with inotify, what a write does:
// the temp file is made in .vaultmem/tmp, and a watcher on the note's folder
// sees one rename onto the note and nothing else.
func TestWriterTempFileInVaultmemTmp(t *testing.T) {
	dir, w := newVault(t)
	ctx := context.Background()
	h, err := w.Write(ctx, "notes/a.md", []byte("one\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		t.Skipf("inotify: %v", err)
	}
	defer unix.Close(fd)
	const all = unix.IN_CREATE | unix.IN_MODIFY | unix.IN_CLOSE_WRITE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE | unix.IN_ATTRIB
	notesWD, err := unix.InotifyAddWatch(fd, filepath.Join(dir, "notes"), all)
	if err != nil {
		t.Fatal(err)
	}
	tmpWD, err := unix.InotifyAddWatch(fd, filepath.Join(dir, ".vaultmem", "tmp"), all)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(ctx, "notes/a.md", []byte("two\n"), h); err != nil {
		t.Fatal(err)
	}

	buf := make([]byte, 64<<10)
	n, err := unix.Read(fd, buf)
	if err != nil {
		t.Fatal(err)
	}
	var notes, tmp []inotifyEvent
	for off := 0; off+unix.SizeofInotifyEvent <= n; {
		raw := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
		name := string(bytes.TrimRight(buf[off+unix.SizeofInotifyEvent:off+unix.SizeofInotifyEvent+int(raw.Len)], "\x00"))
		ev := inotifyEvent{raw.Wd, raw.Mask, raw.Cookie, name}
		switch int(raw.Wd) {
		case notesWD:
			notes = append(notes, ev)
		case tmpWD:
			tmp = append(tmp, ev)
		}
		off += unix.SizeofInotifyEvent + int(raw.Len)
	}
	if len(notes) != 1 || notes[0].mask&unix.IN_MOVED_TO == 0 || notes[0].name != "a.md" {
		t.Fatalf("the note's folder saw %+v, want one rename onto a.md", notes)
	}
	if len(tmp) == 0 || tmp[0].mask&unix.IN_CREATE == 0 || !strings.HasPrefix(tmp[0].name, ".a.md") {
		t.Fatalf(".vaultmem/tmp saw %+v, want the temp file created there first", tmp)
	}
	last := tmp[len(tmp)-1]
	if last.mask&unix.IN_MOVED_FROM == 0 || last.name != tmp[0].name || last.cookie != notes[0].cookie {
		t.Fatalf(".vaultmem/tmp saw %+v, want the temp file renamed away last, onto the note", tmp)
	}
	assertDir(t, filepath.Join(dir, ".vaultmem", "tmp"))
}
