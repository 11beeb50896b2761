package memory

import (
	"bytes"
)

// The region's markers count only on lines of their own, outside code: a
// human who shows the markers in a fenced block (an example in the note,
// say) or in inline code keeps that text as written.

// markerLines returns the byte offsets of the markers' lines in content
// that count (each the offset of the marker text itself, after the up to
// three spaces Markdown allows before it): none inside a fenced code block
// or indented as code, none sharing a line with other text (an empty
// region, both markers on one line, counts).
func markerLines(content []byte) (begins, ends []int) {
	var fence []byte // the open fence's run ("```", "~~~~"), nil outside one
	for off := 0; off < len(content); {
		end := bytes.IndexByte(content[off:], '\n')
		if end < 0 {
			end = len(content)
		} else {
			end += off
		}
		line := bytes.TrimRight(content[off:end], "\r")
		indent := len(line) - len(bytes.TrimLeft(line, " "))
		text := bytes.TrimSpace(line)
		switch {
		case fence != nil:
			if indent < 4 && bytes.HasPrefix(text, fence) && len(bytes.Trim(text, string(fence[:1]))) == 0 {
				fence = nil
			}
		case indent < 4 && (bytes.HasPrefix(text, []byte("```")) || bytes.HasPrefix(text, []byte("~~~"))):
			n := len(text) - len(bytes.TrimLeft(text, string(text[:1])))
			fence = text[:n]
		case indent < 4 && string(text) == Begin:
			begins = append(begins, off+indent)
		case indent < 4 && string(text) == End:
			ends = append(ends, off+indent)
		case indent < 4 && string(text) == Begin+End: // an empty region, as the merge driver writes it
			begins, ends = append(begins, off+indent), append(ends, off+indent+len(Begin))
		}
		off = end + 1
	}
	return begins, ends
}
