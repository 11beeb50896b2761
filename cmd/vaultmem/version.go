package main

import (
	"runtime/debug"
	"strings"
)

// buildVersion is what `vaultmem --version` prints after "vaultmem version ":
// the module's version and, when the binary was built from a clone, the
// commit it was built from (see versionOf).
func buildVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(bi)
}

// versionOf formats a build's version: the main module's version as the
// go command recorded it (a tag such as v0.4.0 for go install ...@v0.4.0;
// in a clone, a pseudo-version of the commit, or "(devel)" when the go
// command could not read the clone's git state), then, when the go command
// stamped the build with its VCS state, "commit REVISION" with
// ", modified" when the work tree had changes. A build without VCS stamps (go run, a test binary,
// -buildvcs=false) says "commit unknown", so a bug report never claims a
// commit it cannot know. A nil bi (a binary built without module
// support) is "(devel), commit unknown".
func versionOf(bi *debug.BuildInfo) string {
	v, rev, modified := "", "", false
	if bi != nil {
		v = bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	var b strings.Builder
	b.WriteString(v)
	if rev == "" {
		b.WriteString(", commit unknown")
		return b.String()
	}
	b.WriteString(", commit " + rev)
	if modified {
		b.WriteString(", modified")
	}
	return b.String()
}
