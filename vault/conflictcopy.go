package vault

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"
)

// Sync services (Obsidian Sync, iCloud, Dropbox, Syncthing, OneDrive,
// Google Drive, Nextcloud) that meet two edits of one file keep both: the
// second as a copy beside the first, named after it. vaultmem must tell a
// copy from its original, so that the original stays the note links and
// MEMORY.md name (the copy is what a person deletes when cleaning up) and
// a copy is not read as a second memory, task or lesson. The names are in
// docs/memories-and-dream.md ("Sync services' conflict copies").

// The names of the services, as ConflictCopy returns them.
const (
	ServiceObsidianSync = "Obsidian Sync"
	ServiceICloud       = "iCloud"
	ServiceDropbox      = "Dropbox"
	ServiceSyncthing    = "Syncthing"
	ServiceOneDrive     = "OneDrive"
	ServiceGoogleDrive  = "Google Drive"
	ServiceNextcloud    = "Nextcloud"
)

var (
	// syncthingCopy: "X.sync-conflict-20261129-101010-ABCDEFG" (the
	// device id's first seven characters).
	syncthingCopy = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+)\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7}$`) })
	// parenthesised is a name ending in " (...)".
	parenthesised = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(.+) \(([^()]+)\)$`) })
	// What the parentheses hold, by service: Nextcloud and ownCloud add
	// the time to the date, Dropbox does not (and names the person whose
	// copy it is, or says "Case Conflict"); Obsidian Sync writes "conflict"
	// or "Conflicted copy" with a date or its device.
	nextcloudCopy = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^conflicted copy \d{4}-\d{2}-\d{2} \d{6}$`) })
	dropboxCopy   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:.+'s )?conflicted copy \d{4}-\d{2}-\d{2}$|^Case Conflict(?: \d+)?$`)
	})
	obsidianCopy = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?i:conflict(?:ed copy)?) .*\d`) })
	// numberedParen: "X (1)" of Google Drive, like "X 2" of iCloud and
	// Finder (see copyNumber), is also a name a person gives a note: a
	// copy only beside its original.
	numberedParen = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+$`) })
	// machineName: OneDrive adds "-" and the computer's name, which
	// Windows writes in capitals, at most 15 characters.
	machineName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Z0-9][A-Z0-9-]{0,14}$`) })
)

// ConflictCopy reports whether the file at vault path p is a copy that a
// sync service made beside another file, its original (a vault path in
// the same folder, with the same extension), and which service's name it
// has. Names only a copy has ("X (conflict 2026-11-29).md",
// "X.sync-conflict-20261129-101010-ABCDEFG.md", "X (Ann's conflicted copy
// 2026-11-29).md", ...) are copies whatever exists; names a person may give
// a note ("X 2.md" of iCloud, "X (1).md" of Google Drive, "X-LAPTOP.md" of
// OneDrive) are copies only when exists reports that their original
// exists (a nil exists: never). ok is false for any other name.
func ConflictCopy(p string, exists func(string) bool) (original, service string, ok bool) {
	dir, file := path.Split(p)
	ext := path.Ext(file)
	stem := strings.TrimSuffix(file, ext)
	if stem == "" {
		return "", "", false
	}
	orig := func(s string) string { return dir + s + ext }
	found := func(s string) bool { return exists != nil && s != "" && exists(orig(s)) }
	// Cheap tests of the last characters first: most names are no copy's,
	// and a vault has tens of thousands.
	if strings.Contains(stem, ".sync-conflict-") {
		if m := syncthingCopy().FindStringSubmatch(stem); m != nil {
			return orig(m[1]), ServiceSyncthing, true
		}
	}
	if strings.HasSuffix(stem, ")") {
		open := strings.LastIndexByte(stem, '(')
		if open < 0 || !strings.Contains(strings.ToLower(stem[open:]), "conflict") && !numberedParen().MatchString(stem[open+1:len(stem)-1]) {
			return "", "", false // "Q3 (draft)"
		}
		if m := parenthesised().FindStringSubmatch(stem); m != nil {
			switch inner := m[2]; {
			case nextcloudCopy().MatchString(inner):
				return orig(m[1]), ServiceNextcloud, true
			case dropboxCopy().MatchString(inner):
				return orig(m[1]), ServiceDropbox, true
			case obsidianCopy().MatchString(inner):
				return orig(m[1]), ServiceObsidianSync, true
			case numberedParen().MatchString(inner) && found(m[1]):
				return orig(m[1]), ServiceGoogleDrive, true
			}
		}
		return "", "", false
	}
	if sp := strings.LastIndexByte(stem, ' '); sp > 0 && copyNumber(stem[sp+1:]) && found(stem[:sp]) {
		return orig(stem[:sp]), ServiceICloud, true
	}
	// OneDrive: the computer's name may hold "-" itself, so every "-" may
	// start it; the first whose original exists is taken.
	for i := strings.IndexByte(stem, '-'); i > 0; {
		if name := stem[i+1:]; len(name) <= 15 && machineName().MatchString(name) && strings.ContainsAny(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && found(stem[:i]) {
			return orig(stem[:i]), ServiceOneDrive, true
		}
		j := strings.IndexByte(stem[i+1:], '-')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return "", "", false
}

// copyNumber reports whether s is the number iCloud and Finder add to a
// copy's name: 2 or more, without a leading zero.
func copyNumber(s string) bool {
	if s == "" || s[0] == '0' || s == "1" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// ConflictCopyAdvice says to a person that the file at vault path copy is
// service's conflict copy of the one at original, and what to do.
func ConflictCopyAdvice(copy, original, service string) string {
	return fmt.Sprintf("%s is a conflict copy of %s made by %s: compare them, keep one", path.Base(copy), path.Base(original), service)
}
