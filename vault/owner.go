package vault

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A vault's .vaultmem holds what vaultmem acts on (its config, its state,
// its cache): one that another user can change would have vaultmem act
// for them. So, as git refuses a repository another user owns, a vault
// whose .vaultmem (or .vaultmem/config.yaml) is another user's, or can be
// changed by the group or everyone, is not used until the user running
// vaultmem says they trust it (vaultmem trust), which records the vault in
// their own config folder. Windows has no such modes: there the check is
// skipped.

// ErrUntrusted is matched by an *UntrustedError.
var ErrUntrusted = errors.New("vault: .vaultmem can be changed by another user")

// UntrustedError reports a vault whose .vaultmem, or config, another user
// owns or may change, and which the user has not trusted.
type UntrustedError struct {
	// Vault is the vault folder, absolute, symbolic links resolved.
	Vault string
	// Path is the folder or file at fault, absolute; Reason says what is
	// wrong with it.
	Path, Reason string
}

func (e *UntrustedError) Error() string {
	return fmt.Sprintf("%s %s: vaultmem does not use a vault whose .vaultmem another user can change, as git refuses "+
		"another user's repository; if you trust this vault, run: vaultmem trust --vault %s", e.Path, e.Reason, shellQuote(e.Vault))
}

// Is makes errors.Is(err, ErrUntrusted) true.
func (e *UntrustedError) Is(target error) bool { return target == ErrUntrusted }

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:,@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// CheckOwner checks that the vault in folder dir may be used by the user
// running vaultmem: its .vaultmem and .vaultmem/config.yaml, where they
// exist, are no symbolic links (a *LinkError, always), the config is a
// regular file, and both are the user's own and writable by no one else,
// unless the user trusts the vault (see [Trust]); otherwise it returns an
// *UntrustedError (ErrUntrusted) naming the folder or file and the
// command that allows it. A vault without .vaultmem yet is fine. [Open]
// calls it; a caller that reads the config before opening the vault
// calls it first.
func CheckOwner(dir string) error {
	real, err := realDir(dir)
	if err != nil {
		return nil // Open says what is wrong with the folder
	}
	var bad *UntrustedError
	for _, rel := range []string{DotDir, ConfigFile} {
		p := filepath.Join(real, filepath.FromSlash(rel))
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return fmt.Errorf("check %s: %w", p, unwrapPathError(err))
		case fi.Mode()&fs.ModeSymlink != 0:
			return &LinkError{Path: p}
		case rel == ConfigFile && !fi.Mode().IsRegular():
			return fmt.Errorf("%s: not a regular file", p) // a FIFO would never answer its reader
		}
		if why := unsafeOwner(fi); why != "" && bad == nil {
			bad = &UntrustedError{Vault: real, Path: p, Reason: why}
		}
	}
	if bad == nil {
		return nil
	}
	trusted, err := TrustedVaults()
	if err != nil {
		return fmt.Errorf("%w (and the list of trusted vaults could not be read: %v)", bad, err)
	}
	if slices.Contains(trusted, real) {
		return nil
	}
	return bad
}

// realDir is dir absolute, symbolic links resolved.
func realDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// TrustFile is the file that lists the vaults the user trusts, one
// absolute path a line: vaultmem/trusted in the user's config folder
// (os.UserConfigDir: $XDG_CONFIG_HOME or ~/.config on Linux).
func TrustFile() (string, error) {
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("the list of trusted vaults: %w", err)
	}
	return filepath.Join(d, "vaultmem", "trusted"), nil
}

// TrustedVaults lists the vaults the user trusts, as [TrustFile] holds
// them (none when it does not exist). Errors name the file.
func TrustedVaults() ([]string, error) {
	p, err := TrustFile()
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return []string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, unwrapPathError(err))
	}
	out := []string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out, nil
}

// Trust records the vault in folder dir (which must exist) as trusted by
// the user, its absolute path with symbolic links resolved, in
// [TrustFile]; it returns that path, and added false when it was there
// already. The file and its folder are made private to the user.
func Trust(dir string) (vaultPath string, added bool, err error) {
	real, err := realDir(dir)
	if err != nil {
		return "", false, fmt.Errorf("trust %s: %w", dir, unwrapPathError(err))
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "", false, fmt.Errorf("trust %s: not a folder", dir)
	}
	list, err := TrustedVaults()
	if err != nil {
		return "", false, err
	}
	if slices.Contains(list, real) {
		return real, false, nil
	}
	return real, true, writeTrusted(append(list, real))
}

// Untrust removes the vault in folder dir from [TrustFile] (the path as
// given, made absolute, and, when it exists, with symbolic links
// resolved); removed is false when it was not there.
func Untrust(dir string) (vaultPath string, removed bool, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false, fmt.Errorf("untrust %s: %w", dir, err)
	}
	names := []string{abs}
	if real, err := realDir(abs); err == nil {
		names = append(names, real)
		abs = real
	}
	list, err := TrustedVaults()
	if err != nil {
		return "", false, err
	}
	kept := slices.DeleteFunc(slices.Clone(list), func(p string) bool { return slices.Contains(names, p) })
	if len(kept) == len(list) {
		return abs, false, nil
	}
	return abs, true, writeTrusted(kept)
}

// writeTrusted replaces [TrustFile] with list (see [WriteUserFile]).
func writeTrusted(list []string) error {
	p, err := TrustFile()
	if err != nil {
		return err
	}
	var text strings.Builder
	text.WriteString("# Vaults whose .vaultmem you trust though another user can change it (vaultmem trust).\n")
	for _, v := range list {
		text.WriteString(v + "\n")
	}
	return WriteUserFile(p, text.String())
}

// WriteUserFile replaces the file p of the user's own config folder (not a
// vault's) with text: through a temp file beside it renamed over it, so a
// reader sees the old file or the new one, readable by the user alone, its
// folder made (0700) when missing. Errors name the file.
func WriteUserFile(p, text string) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("write %s: %w", p, unwrapPathError(err))
	}
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", p, unwrapPathError(err))
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", p, unwrapPathError(err))
	}
	return nil
}
