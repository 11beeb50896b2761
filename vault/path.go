package vault

import (
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/markdown"
)

// Limits on note paths. 255 bytes is the file-name limit of ext4, APFS and
// NTFS (in UTF-16 units there, which is never fewer than UTF-8 bytes would
// suggest for the names that fit here); 1024 keeps every vault path well
// under PATH_MAX once the vault's own location is prepended.
const (
	maxNameBytes     = 255
	maxPathBytes     = 1024
	maxSafeNameBytes = 100
)

// forbiddenChars are the characters Obsidian refuses in file names, plus
// '#', '^', '[' and ']', which would make the note impossible to
// [[wikilink]] to.
const forbiddenChars = `*"<>:|?#^[]`

// CleanPath validates an untrusted, vault-relative note path (from an agent,
// an MCP call or the command line) and returns it cleaned and
// slash-separated, with ".md" appended when it has no extension. It does no
// I/O, so it cannot see symbolic links; [Writer] checks those on disk.
//
// It returns a *PathError (errors.Is(err, ErrInvalidPath)) whose Reason says
// what is wrong when the path is empty, not valid UTF-8, absolute ("/x",
// "\x", "C:\x"), contains "..", a control character (NUL included) or a
// backslash, names a folder ("a/"), passes through or names a dot-file or
// dot-folder (.obsidian, .git, .vaultmem, .trash), has a name over 255 bytes
// or is over 1024 bytes in all, uses a Windows-reserved name (CON, PRN, AUX,
// NUL, COM1-9, LPT1-9, with any extension), a name ending in a space or a
// dot, one of the characters *"<>:|?#^[], or an extension other than .md.
//
// A suffix counts as an extension only when it is 1-10 ASCII letters and
// digits with at least one letter, so "Meeting 2024.01.05" and "Dr. Who"
// become notes, while "photo.png" is refused (write "node.js.md" for a note
// whose name ends in ".js").
func CleanPath(p string) (string, error) { return cleanPath(p, true, false) }

// cleanExisting is [CleanPath] for a note that may already exist: it
// keeps every rule that keeps a path inside the vault's notes, but not the
// rules for the names of new notes (the characters Obsidian or Windows
// refuse), since a vault synced from elsewhere has such names and they must
// still be read and updated.
func cleanExisting(p string) (string, error) { return cleanPath(p, false, false) }

// The extensions of the files besides notes that vaultmem writes in a
// vault: views of the notes that Obsidian shows, a base (Bases, YAML) and
// a canvas (JSON Canvas).
const (
	BaseExt   = ".base"
	CanvasExt = ".canvas"
)

// CleanViewPath is [CleanPath] for a view file vaultmem writes beside the
// notes: an Obsidian base (.base) or canvas (.canvas). The same rules
// apply, but the extension must be one of those two, and none is added.
func CleanViewPath(p string) (string, error) { return cleanPath(p, true, true) }

// cleanPath is CleanPath; newName applies the rules for new notes' names;
// view asks for a view file's path (see CleanViewPath) instead of a
// note's.
func cleanPath(p string, newName, view bool) (string, error) {
	bad := func(format string, args ...any) (string, error) {
		return "", &PathError{Path: p, Reason: fmt.Sprintf(format, args...)}
	}
	outside := func(format string, args ...any) (string, error) {
		return "", &PathError{Path: p, Reason: fmt.Sprintf(format, args...), Outside: true}
	}
	switch {
	case p == "":
		return bad("is empty")
	case !utf8.ValidString(p):
		return bad("is not valid UTF-8")
	case strings.IndexByte(p, 0) >= 0:
		return bad("contains a NUL byte")
	case strings.IndexFunc(p, isControl) >= 0:
		return bad("contains a control character or line separator")
	case p[0] == '/' || p[0] == '\\':
		return outside("is absolute; give a path relative to the vault")
	case len(p) >= 2 && p[1] == ':' && isASCIILetter(p[0]) && (len(p) == 2 || p[2] == '\\' || p[2] == '/'):
		return outside("is an absolute Windows path; give a path relative to the vault")
	case strings.IndexByte(p, '\\') >= 0:
		return bad(`contains a backslash; separate folders with "/"`)
	case len(p) > maxPathBytes:
		return bad("is longer than %d bytes", maxPathBytes)
	case strings.HasSuffix(p, "/"):
		return bad(`ends with "/", so it names a folder, not a note`)
	}
	for _, c := range strings.Split(p, "/") {
		if c == ".." {
			return outside("contains '..'")
		}
	}
	clean := path.Clean(p)
	if clean == "." {
		return bad("names no file")
	}
	comps := strings.Split(clean, "/")
	for i, c := range comps {
		if c == ".." { // cannot happen after the check above; kept as a guard
			return bad("contains '..'")
		}
		last := i == len(comps)-1
		if reason := badComponent(c, last, newName); reason != "" {
			if strings.HasPrefix(c, ".") {
				return outside("%s", reason)
			}
			return bad("%s", reason)
		}
	}
	name := comps[len(comps)-1]
	switch ext := noteExt(name); {
	case view && !strings.EqualFold(ext, BaseExt) && !strings.EqualFold(ext, CanvasExt):
		return bad("is not a view file: only %s and %s files are written beside the notes", BaseExt, CanvasExt)
	case view:
	case ext == "":
		name += markdown.Ext
		comps[len(comps)-1] = name
		clean += markdown.Ext
	case !strings.EqualFold(ext, markdown.Ext):
		return bad("has the extension %s; only %s notes can be written (append %s if the dot is part of the name)", ext, markdown.Ext, markdown.Ext)
	}
	if len(name) > maxNameBytes {
		return bad("has a file name longer than %d bytes", maxNameBytes)
	}
	if len(clean) > maxPathBytes {
		return bad("is longer than %d bytes", maxPathBytes)
	}
	return clean, nil
}

// badComponent returns why one path component is unsafe, or "";
// newName adds the rules for the names of new notes.
func badComponent(c string, last, newName bool) string {
	switch {
	case strings.HasPrefix(c, ".") && last:
		return fmt.Sprintf("is the hidden file %s (its name starts with '.')", c)
	case strings.HasPrefix(c, "."):
		return "is inside the dot-folder " + c
	case len(c) > maxNameBytes:
		return fmt.Sprintf("has a name longer than %d bytes", maxNameBytes)
	case !newName:
		return ""
	}
	if i := strings.IndexAny(c, forbiddenChars); i >= 0 {
		return fmt.Sprintf("contains '%c', which Obsidian does not allow in file names", c[i])
	}
	if strings.HasSuffix(c, " ") || strings.HasSuffix(c, ".") {
		return fmt.Sprintf("has the name %q, which ends in a space or '.' that Windows drops", c)
	}
	if isReservedName(c) {
		return fmt.Sprintf("has the name %q, which is reserved on Windows", c)
	}
	return ""
}

// noteExt returns name's extension with its dot when it looks like one: 1-10
// ASCII letters and digits, at least one a letter. Otherwise "" (the dot is
// part of the name: "v1.2", "Dr. Who").
func noteExt(name string) string {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 {
		return ""
	}
	e := name[i+1:]
	if len(e) == 0 || len(e) > 10 {
		return ""
	}
	letter := false
	for j := 0; j < len(e); j++ {
		switch b := e[j]; {
		case isASCIILetter(b):
			letter = true
		case b >= '0' && b <= '9':
		default:
			return ""
		}
	}
	if !letter {
		return ""
	}
	return name[i:]
}

func isControl(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp)
}

func isASCIILetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// isReservedName reports whether Windows reserves a file name: its part
// before the first dot, trailing spaces dropped, is a DOS device name, in any
// case. The superscript digits count too: Windows treats COM¹ like COM1.
func isReservedName(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	base = strings.ToUpper(strings.TrimRight(base, " "))
	switch base {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	if rest, ok := strings.CutPrefix(base, "COM"); ok {
		return isPortDigit(rest)
	}
	if rest, ok := strings.CutPrefix(base, "LPT"); ok {
		return isPortDigit(rest)
	}
	return false
}

func isPortDigit(s string) bool {
	switch s {
	case "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
		return true
	}
	return false
}

// SafeName turns a free-form memory name from an agent ("User prefers
// pnpm", "../../etc/passwd", "日本語のメモ") into a safe file base name
// without extension: a lower-case slug of its letters and digits (any
// script, CJK included), every other character a word break, words joined by
// '-', at most 100 bytes (cut at a character boundary). A name Windows
// reserves gets a '-' appended ("con" -> "con-"). The result, with ".md"
// added, always passes [CleanPath].
//
// It returns a *PathError (errors.Is(err, ErrInvalidPath)) when the name has
// no letter or digit to keep.
func SafeName(name string) (string, error) {
	var b strings.Builder
	brk := false
	for _, r := range strings.ToLower(name) {
		word := unicode.IsLetter(r) || unicode.IsNumber(r)
		// A combining mark belongs to the letter before it (Devanagari
		// vowel signs, for example); alone it is a break.
		if unicode.In(r, unicode.Mn, unicode.Mc) && b.Len() > 0 && !brk {
			word = true
		}
		if !word {
			brk = true
			continue
		}
		if brk && b.Len() > 0 {
			b.WriteByte('-')
		}
		brk = false
		b.WriteRune(r)
	}
	s := b.String()
	if len(s) > maxSafeNameBytes {
		i := maxSafeNameBytes
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
		s = s[:i]
	}
	s = strings.Trim(s, "-.")
	if s == "" {
		return "", &PathError{Path: name, Reason: "has no letter or digit to make a file name from"}
	}
	if isReservedName(s) {
		s += "-"
	}
	return s, nil
}

// FileName makes a note's file name (without ".md") of a title: the
// characters Obsidian does not allow in names (and % and control
// characters) become spaces, runs of spaces one, the name cut at a word
// to at most 100 bytes, trailing dots and spaces dropped. It fails when
// nothing is left.
func FileName(title string) (string, error) {
	var b strings.Builder
	for _, r := range title {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`*"<>:|?#^[]/\%`, r) {
			r = ' '
		}
		b.WriteRune(r)
	}
	name := strings.Join(strings.Fields(b.String()), " ")
	for len(name) > 100 {
		i := strings.LastIndexByte(name[:100], ' ')
		if i <= 0 {
			i = 100
			for i > 0 && name[i]&0xc0 == 0x80 {
				i--
			}
		}
		name = name[:i]
	}
	name = strings.TrimRight(name, ". ")
	if strings.Trim(name, ". ") == "" {
		return "", fmt.Errorf("%q has nothing to name a file with", title)
	}
	return name, nil
}
