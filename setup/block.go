package setup

import (
	"fmt"
	"strings"
)

// A block is setup's part of a text file (markdown, TOML): whole lines
// from a begin marker line to an end marker line. Setup replaces the
// block where it is, or appends it after one line break (a blank line
// when the file ends with one); removing it takes out that line break
// too, so the file is left byte for byte as it was.

// markers are a block's first and last lines.
type markers struct{ begin, end string }

var (
	mdMarkers   = markers{"<!-- vaultmem:begin -->", "<!-- vaultmem:end -->"}
	tomlMarkers = markers{"# vaultmem:begin", "# vaultmem:end"}
)

// findBlock is the span of the block in text: from the start of its begin
// line to past its end line (and that line's break). found is false when
// text has no block. Errors: a marker without its pair, a second block.
func findBlock(file, text string, m markers) (start, end int, found bool, err error) {
	start, end = -1, -1
	off := 0
	for i, line := range strings.SplitAfter(text, "\n") {
		next := off + len(line)
		switch strings.TrimSpace(line) {
		case m.begin:
			if start >= 0 {
				return 0, 0, false, fmt.Errorf("%s:%d: a second %s: remove one of vaultmem's blocks", file, i+1, m.begin)
			}
			start = off
		case m.end:
			if start < 0 || end >= 0 {
				return 0, 0, false, fmt.Errorf("%s:%d: %s without %s before it", file, i+1, m.end, m.begin)
			}
			end = next
		}
		off = next
	}
	switch {
	case start < 0:
		return 0, 0, false, nil
	case end < 0:
		line := strings.Count(text[:start], "\n") + 1
		return 0, 0, false, fmt.Errorf("%s:%d: %s without %s after it", file, line, m.begin, m.end)
	}
	return start, end, true, nil
}

// putBlock returns text with block (whole lines, "\n"-ended) in it: in
// place of the one it has, else appended.
func putBlock(file, text, block string, m markers) (string, error) {
	if strings.Contains(text, "\r\n") {
		block = strings.ReplaceAll(block, "\n", "\r\n")
	}
	start, end, found, err := findBlock(file, text, m)
	switch {
	case err != nil:
		return "", err
	case found:
		if end == len(text) && !strings.HasSuffix(text, "\n") { // the end marker ends the file
			block = strings.TrimRight(block, "\r\n")
		}
		return text[:start] + block + text[end:], nil
	case text == "":
		return block, nil
	}
	return text + lineBreak(text) + block, nil
}

// cutBlock returns text without its block and the line break before it.
func cutBlock(file, text string, m markers) (string, error) {
	start, end, found, err := findBlock(file, text, m)
	if err != nil || !found {
		return text, err
	}
	before := text[:start]
	if lb := lineBreak(text); strings.HasSuffix(before, lb) {
		before = strings.TrimSuffix(before, lb)
	} else {
		before = strings.TrimSuffix(before, "\n")
	}
	return before + text[end:], nil
}

// lineBreak is the text's line break: "\r\n" when it uses those.
func lineBreak(text string) string {
	if strings.Contains(text, "\r\n") {
		return "\r\n"
	}
	return "\n"
}
