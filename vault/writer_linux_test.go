package vault_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/vaultmem/vaultmem/vault"
	"golang.org/x/sys/unix"
)

type inotifyEvent struct {
	wd     int32
	mask   uint32
	cookie uint32
	name   string
}

// TestWriterTempFileBesideTheNote watches, with inotify, what a write does:
// a hidden temp file is made beside the note, the note is exchanged with it
// (see atomicWrite) and the old note, left at the temp file's name, is
// removed. The note itself is never written in place, nothing else in its
// folder is touched, and .vaultmem/tmp sees nothing.
func TestWriterTempFileBesideTheNote(t *testing.T) {
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
	if len(tmp) != 0 {
		t.Errorf(".vaultmem/tmp saw %+v, want nothing", tmp)
	}
	if len(notes) == 0 || notes[0].mask&unix.IN_CREATE == 0 || !strings.HasPrefix(notes[0].name, ".a.md.vaultmem-tmp-") {
		t.Fatalf("the note's folder saw %+v, want a hidden temp file created first", notes)
	}
	temp := notes[0].name
	// The note is moved out and the new one moved in, by one call, whose
	// other half moves the temp file's name.
	var in, out *inotifyEvent
	for i, ev := range notes {
		switch {
		case ev.name == temp:
		case ev.name != "a.md":
			t.Errorf("the note's folder saw %+v on %s", ev, ev.name)
		case ev.mask&unix.IN_MOVED_TO != 0:
			in = &notes[i]
		case ev.mask&unix.IN_MOVED_FROM != 0:
			out = &notes[i]
		default:
			t.Errorf("a.md saw %+v, want only the exchange", ev)
		}
	}
	if in == nil || out == nil {
		t.Fatalf("the note's folder saw %+v, want a.md exchanged (moved out, moved in)", notes)
	}
	var movedToNote bool
	for _, ev := range notes {
		movedToNote = movedToNote || ev.mask&unix.IN_MOVED_FROM != 0 && ev.name == temp && ev.cookie == in.cookie
	}
	if !movedToNote || notes[len(notes)-1].name != temp || notes[len(notes)-1].mask&unix.IN_DELETE == 0 {
		t.Fatalf("the note's folder saw %+v, want the temp file moved onto the note, then the old note removed", notes)
	}
	assertDir(t, filepath.Join(dir, "notes"), "a.md")
}

// TestWriterSeesEditInTheLastInstant saves a "human" edit after the
// writer's last check, right before its move: on Linux the exchange
// displaces the human's note, sees it is not the one read, and puts it
// back; the write reports a conflict. A note created in that instant is
// never replaced either.
func TestWriterSeesEditInTheLastInstant(t *testing.T) {
	ctx := context.Background()
	dir, w := newVault(t)
	p := filepath.Join(dir, "a.md")
	writeFile(t, p, "original\n")
	vault.SetAfterCheck(w, func() { writeFile(t, p, "human, in place\n") })
	_, err := w.Update(ctx, "a.md", func(b []byte) ([]byte, error) { return append(b, "agent\n"...), nil })
	if !errors.Is(err, vault.ErrConflict) {
		t.Fatalf("got %v, want a conflict", err)
	}
	if got := readFile(t, p); got != "human, in place\n" {
		t.Fatalf("the note is %q, want the human's edit", got)
	}
	assertDir(t, dir, ".vaultmem", "a.md") // no temp file left beside the note

	n := filepath.Join(dir, "new.md")
	vault.SetAfterCheck(w, func() { writeFile(t, n, "human's new note\n") })
	if _, err := w.Write(ctx, "new.md", []byte("agent\n"), ""); !errors.Is(err, vault.ErrExists) {
		t.Fatalf("create: got %v, want ErrExists", err)
	}
	if got := readFile(t, n); got != "human's new note\n" {
		t.Fatalf("new.md is %q, want the human's", got)
	}
}
