package meaning

import "testing"

func TestPolarity(t *testing.T) {
	for _, tt := range []struct {
		s      string
		want   int
		marker string
	}{
		{"always use tabs", 1, "always"},
		{"never use tabs", -1, "never"},
		{"always use pnpm, not npm", 1, "always"},
		{"use pnpm, never npm", 1, "use"},
		{"don't mock the database", -1, "don't"},
		{"do not mock the database", -1, "do not"},
		{"you should never push to main", -1, "should never"},
		{"always write tests against a real database", 1, "always"},
		{"the build takes ten minutes", 0, ""},
		{"avoid emojis in commits", -1, "avoid"},
	} {
		if p, m := Polarity(tt.s); p != tt.want || m != tt.marker {
			t.Errorf("%q: %d %q, want %d %q", tt.s, p, m, tt.want, tt.marker)
		}
	}
}
