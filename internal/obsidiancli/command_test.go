package obsidiancli

import (
	"errors"
	"slices"
	"testing"
)

// TestCommand: the argument list is the command, its parameters as
// name=value in order, then its flags; newlines and tabs are written \n
// and \t, and a value the CLI's syntax has no way to say is refused.
func TestCommand(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params []param
		flags  []string
		want   []string // nil: ErrUnsupported
	}{
		{"create", []param{{"path", "a b/c.md"}, {"content", "x = y\n\tz"}}, []string{"silent"},
			[]string{"create", "path=a b/c.md", `content=x = y\n\tz`, "silent"}},
		{"append", []param{{"path", "c.md"}, {"content", ""}}, []string{"inline"},
			[]string{"append", "path=c.md", "content=", "inline"}},
		{"property:set", []param{{"name", "k"}, {"value", "v"}, {"type", "text"}, {"path", "c.md"}}, nil,
			[]string{"property:set", "name=k", "value=v", "type=text", "path=c.md"}},
		{"move", []param{{"path", "c.md"}, {"to", "d/c.md"}}, nil,
			[]string{"move", "path=c.md", "to=d/c.md"}},
		{"create", []param{{"path", "c.md"}, {"content", `a\nb`}}, nil, nil},
		{"create", []param{{"path", "c.md"}, {"content", "a\r\nb"}}, nil, nil},
		{"create", []param{{"path", "c.md"}, {"content", "a\x00b"}}, nil, nil},
	} {
		got, err := command(tc.name, tc.params, tc.flags...)
		switch {
		case tc.want == nil && !errors.Is(err, ErrUnsupported):
			t.Errorf("command(%s, %q): %q, %v; want ErrUnsupported", tc.name, tc.params, got, err)
		case tc.want != nil && (err != nil || !slices.Equal(got, tc.want)):
			t.Errorf("command(%s, %q): %q, %v; want %q", tc.name, tc.params, got, err, tc.want)
		}
	}
}
