package text_test

import (
	"reflect"
	"testing"

	"github.com/vaultmem/vaultmem/text"
)

func TestContentTerms(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"Which package manager do we use for installs?", []string{"packag", "manag", "use", "instal"}},
		{"the the THE", nil},
		{"Running runs, run!", []string{"run"}},
		{"Café au lait", []string{"cafe", "au", "lait"}},
		{"", nil},
	} {
		if got := text.ContentTerms(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ContentTerms(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
