package recall

import "strings"

// Working memory (L1): within one agent session, what recall gave the
// agent already and which notes the agent just wrote. The caller keeps it
// (a session's state, an MCP server's session) and passes it in each
// Request: recall gives nothing twice (Request.Given: the stages search
// on for what the agent does not have yet, and Result.Repeats counts what
// was left out) and ranks the notes the agent just wrote a little higher
// (Request.Recent), since what it is working on is what it asks about.

// recentBoost scales the score of a chunk of a note the agent just wrote
// (Request.Recent): enough to put it before an equal hit, too little to
// lift an unrelated note over a relevant one.
const recentBoost = 1.2

// ItemKey names one item of context as Request.Given takes it: the
// note's path, the chunk's heading path and its block id. The hooks'
// session state keeps these keys, so the same chunk is never given twice
// in a session.
func ItemKey(path, heading, block string) string {
	return path + "#" + heading + "^" + block
}

// NoteOf returns the path of the note an ItemKey names; a key without a
// "#" is a path already (a whole note given, as a read of it does).
func NoteOf(key string) string {
	p, _, _ := strings.Cut(key, "#")
	return p
}

// given reports whether the agent has the chunk h already: the chunk
// itself, or its whole note (a key that is a path).
func (s *search) given(path, heading, block string) bool {
	if len(s.givenKeys) == 0 {
		return false
	}
	return s.givenKeys[path] || s.givenKeys[ItemKey(path, heading, block)]
}
