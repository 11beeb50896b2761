package main

import (
	"regexp"
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	const rev = "9388ae6916eef49dd87e85c3839a14b40355684a"
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "(devel), commit unknown"},
		{"a clone, committed", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs", "git", "vcs.revision", rev, "vcs.time", "2026-11-29T10:00:00Z", "vcs.modified", "false")},
			"(devel), commit " + rev},
		{"a clone with changes", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs.revision", rev, "vcs.modified", "true")},
			"(devel), commit " + rev + ", modified"},
		{"go install @tag", &debug.BuildInfo{Main: debug.Module{Version: "v0.4.0"}}, "v0.4.0, commit unknown"},
		{"a test binary: no version", &debug.BuildInfo{}, "(devel), commit unknown"},
		{"-buildvcs=false", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: vcs("-buildmode", "exe", "vcs.modified", "true")}, "(devel), commit unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionOf(tt.bi); got != tt.want {
				t.Errorf("versionOf = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestVersionFlag: --version and -v print one line of the documented
// shape (docs/cli.md, Conventions), need no vault, and exit 0.
func TestVersionFlag(t *testing.T) {
	shape := regexp.MustCompile(`^vaultmem version (\(devel\)|v\S+), commit ([0-9a-f]{7,64}(, modified)?|unknown)\n$`)
	dir := t.TempDir()
	for _, flag := range []string{"--version", "-v"} {
		r := vaultmem(t, dir, "", flag)
		if r.code != 0 || r.stderr != "" || !shape.MatchString(r.stdout) {
			t.Errorf("vaultmem %s: exit %d, stdout %q, stderr %q; want exit 0 and one line of the shape %s", flag, r.code, r.stdout, r.stderr, shape)
		}
	}
}
