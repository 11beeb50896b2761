package similar

import "testing"

func TestNormName(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"Package manager", "package_MANAGER.", true},
		{"Package manager", "PACKAGE-MANAGER", true},
		{"Package  manager!", "package manager", true},
		{"C++ style", "C style", false},
		{"Go 1.22", "Go 1.23", false},
		{"日本語のメモ", "日本語のメモ", true},
	} {
		if got := NormName(tt.a) == NormName(tt.b); got != tt.same {
			t.Errorf("%q, %q: same %v, want %v", tt.a, tt.b, got, tt.same)
		}
	}
}
