package config

import (
	"strings"
	"testing"
)

// TestAlertFailures: lessons.alert_failures is 3 unless set, 0 turns the
// alert off, and a value outside 0..MaxAlertFailures is refused naming the
// file and line.
func TestAlertFailures(t *testing.T) {
	for _, tc := range []struct {
		yaml    string
		want    int
		wantErr string
	}{
		{"", 3, ""},
		{DefaultConfigText, 3, ""},
		{"lessons:\n  alert_failures: 5\n", 5, ""},
		{"lessons:\n  router: true\n", 3, ""},
		{"lessons:\n  alert_failures: 0\n", 0, ""},
		{"lessons:\n  router: false\n  alert_failures: -1\n", 0, "config.yaml:3: lessons.alert_failures: -1 is not 0 to 100"},
		{"lessons:\n  alert_failures: 101\n", 0, "config.yaml:2: lessons.alert_failures: 101 is not 0 to 100"},
		{"lessons:\n  alert_failures: many\n", 0, "config.yaml:2"},
	} {
		c, err := LoadConfig(vaultWithConfig(t, tc.yaml))
		switch {
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%q: %v, want an error with %q", tc.yaml, err, tc.wantErr)
		case tc.wantErr == "" && (err != nil || c.Lessons.AlertFailures != tc.want):
			t.Errorf("%q: alert_failures %d, %v; want %d", tc.yaml, c.Lessons.AlertFailures, err, tc.want)
		}
	}
}
