package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/vault"
)

// lessonsStampFile, in the cache folder, is what the last sync saw of the
// lessons folder: a digest of its files' names, sizes and modification
// times, with the index's lessons version after that sync. A hook before
// or after a tool call reads nothing of the index but lessons, and a
// vault of 13,400 notes takes tens of milliseconds to walk where its
// lessons folder takes one: while the stamp matches, such a hook leaves
// the index as it is (see Options.LessonsOnly).
const lessonsStampFile = "lessons.stamp"

// lessonStamp is the lessons folder's stamp (see above), kept beside
// the index it says is current.
type lessonStamp struct {
	v  *vault.Vault
	ix *index.Index
}

// lessonStamp is the stamp of a's lessons folder.
func (a *App) lessonStamp() lessonStamp { return lessonStamp{a.Vault, a.ix} }

// listing is the digest of the lessons folder's files as they are
// now (names, sizes, modification times; a folder not there yet is a
// listing of its own). A file edited in place changes its time or size,
// one added, removed or renamed the names: any edit made in Obsidian
// changes the digest. racy says a file was modified so recently that a
// second edit within the file system's clock tick could keep its size and
// time (as the index judges it): such a listing is no stamp.
func (ls lessonStamp) listing(ctx context.Context) (digest string, racy bool, err error) {
	now := time.Now()
	h := sha256.New()
	folder := strings.Trim(ls.v.Folders().Lessons, "/")
	if folder == "" || folder == "." {
		folder = "."
	}
	info, err := fs.Stat(ls.v.FS(), folder)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		io.WriteString(h, "none\n")
		return hex.EncodeToString(h.Sum(nil)), false, nil
	case err != nil:
		return "", false, err
	case !info.IsDir():
		return "", false, fmt.Errorf("lessons folder %s: not a folder", ls.v.Abs(folder))
	}
	sub, err := fs.Sub(ls.v.FS(), folder)
	if err != nil {
		return "", false, err
	}
	files, err := vault.Files(ctx, sub)
	if err != nil {
		return "", false, fmt.Errorf("list the lessons folder %s: %w", ls.v.Abs(folder), err)
	}
	for _, f := range files {
		if f.Err != nil {
			// A file that cannot be read now may be readable at the next
			// look: no digest, so that the sync runs each time.
			return "", false, fmt.Errorf("list the lessons folder: %w", f.Err)
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00%t\n", path.Clean(f.Path), f.Size, f.ModTime, f.Symlink)
		racy = racy || index.Racy(f.ModTime, now)
	}
	return hex.EncodeToString(h.Sum(nil)), racy, nil
}

// lessonsStamp is the stamp's text for a listing and the index's lessons
// version.
func lessonsStamp(listing, version string) string {
	return "lessons " + listing + "\nindex " + version + "\n"
}

// path is where the stamp is kept.
func (ls lessonStamp) path() string {
	return filepath.Join(ls.v.Abs(vault.CacheDir), lessonsStampFile)
}

// unchanged reports whether the index holds the lessons folder as
// it is now: the stamp the last sync left names today's listing and the
// index's lessons version (a rebuilt index, or a lesson vaultmem wrote
// since, has another). Any doubt (no stamp, an error) is a change.
func (ls lessonStamp) unchanged(ctx context.Context) bool {
	b, err := os.ReadFile(ls.path())
	if err != nil {
		return false
	}
	listing, _, err := ls.listing(ctx)
	if err != nil {
		return false
	}
	version, err := ls.ix.Kinds().LessonsVersion(ctx)
	if err != nil {
		return false
	}
	return string(b) == lessonsStamp(listing, version)
}

// write leaves the stamp of a sync that began after listing was
// taken: what the sync read is at least as new as the listing, so a
// change made after the listing (even during the sync) shows as another
// listing at the next look. A stamp that cannot be written only costs the
// next tool hook a sync.
func (ls lessonStamp) write(ctx context.Context, listing string) {
	version, err := ls.ix.Kinds().LessonsVersion(ctx)
	if err != nil {
		return
	}
	writeStamp(ls.path(), lessonsStamp(listing, version))
}

// skipped reports whether a sync could not read a file of the
// lessons folder: made readable later (a change of mode, which leaves the
// listing as it was), it must still be read, so such a sync leaves no
// stamp.
func (ls lessonStamp) skipped(st index.Stats) bool {
	folder := strings.Trim(ls.v.Folders().Lessons, "/")
	for _, s := range st.Skipped {
		if folder == "" || folder == "." || s.Path == folder || strings.HasPrefix(s.Path, folder+"/") {
			return true
		}
	}
	return false
}
