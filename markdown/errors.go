package markdown

import (
	"errors"
	"fmt"
)

// ErrBadFrontmatter is returned when an edit would have to rewrite
// frontmatter that does not parse (or is written in flow style): such
// notes are left for a human. The error is a *ParseError naming the file
// and line.
var ErrBadFrontmatter = errors.New("markdown: frontmatter does not parse")

// ParseError is a problem in one file, at a line when one is known (Line 0
// means the whole file). It is modelled on fs.PathError.
type ParseError struct {
	Path string
	Line int
	Err  error
	// frontmatter says an edit was refused for the frontmatter's sake: the
	// error also matches ErrBadFrontmatter.
	frontmatter bool
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrBadFrontmatter) true for an edit refused for
// the frontmatter's sake.
func (e *ParseError) Is(target error) bool { return target == ErrBadFrontmatter && e.frontmatter }

// badFrontmatter makes a frontmatter *ParseError match ErrBadFrontmatter
// too.
func badFrontmatter(err error) error {
	var pe *ParseError
	if errors.As(err, &pe) {
		c := *pe
		c.frontmatter = true
		return &c
	}
	return err
}

// Problem is something wrong in a note that a human should fix (a
// frontmatter key of the wrong shape, a link to nothing, a cycle), at a
// line when one is known: reported, never fixed behind their back.
type Problem struct {
	Path string `json:"path"`
	// Line is the line at fault, 0 when not known.
	Line    int    `json:"line,omitempty"`
	Message string `json:"reason"`
}
