package vault

import (
	"io"
	"os"
	"path/filepath"
)

// WriteCacheFile writes the file at p, a file of the cache (the vector
// pack, the learned router, Dream's sketches: anything made again from
// the notes), with write: through a temporary file in the same folder,
// renamed over p, so that a reader sees the old file or the new one and
// never half of one. It does not sync: the file is rebuilt when lost, and
// its reader checks what a crash could leave. The temporary file is
// removed when anything fails. State that cannot be made again goes
// through [Writer.WriteState] instead. Neither p nor its folder may be a
// symbolic link (a *LinkError): the folder is the vault's cache, checked
// when the index opened it (see [Vault.CheckLinks]).
func WriteCacheFile(p string, write func(w io.Writer) error) error {
	if err := CheckNotLink(filepath.Dir(p), p); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".*")
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
