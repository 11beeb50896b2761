package agenthook

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/vaultmem/vaultmem/app"
)

// gemini reads Gemini CLI's events for what they mean (checked against
// Gemini CLI 0.61):
//   - PreCompress fires before Gemini checks whether the history is over
//     its threshold, so on every turn with history: only a manual one
//     (/compress) compacts for certain; an automatic one is confirmed at
//     the turn's end (AfterAgent) by the transcript (see compressedInTurn).
//   - BeforeAgent's prompt, in non-interactive mode (gemini -p), starts
//     with the SessionStart hooks' context wrapped in <hook_context>:
//     vaultmem's own words, not the user's, which recall must not search.
func gemini(ev *app.HookEvent, in input) {
	switch in.HookEventName {
	case "PreCompress":
		ev.Compacts = in.Trigger == "manual"
	case "AfterAgent":
		ev.Compacted = compressedInTurn(in.TranscriptPath)
	case "BeforeAgent":
		ev.Prompt = strings.TrimSpace(hookContextRe.ReplaceAllString(ev.Prompt, ""))
	}
}

// hookContextRe is a block of hook context Gemini CLI wraps into a prompt.
var hookContextRe = regexp.MustCompile(`(?s)<hook_context>.*?</hook_context>`)

// maxTranscriptTail is how much of the end of a transcript
// compressedInTurn reads: the last turn's records are at its end.
const maxTranscriptTail = 8 << 20

// shrunk is how much smaller the history a turn's first reply was
// asked with must be than the last reply's before the turn for the
// history to have been compressed: a new turn only ever adds to it.
const shrunk = 0.7

// compressedInTurn reports whether Gemini CLI compressed the
// conversation during its last turn, from the transcript at path (its
// session file: JSON lines, each a message {id, type, tokens: {input}}
// or metadata, a message written again when it changes): the input
// tokens of the first reply after the last user message fell below
// shrunk of the last reply's before it. A transcript that cannot be read
// says no: a missed checkpoint is better than a false one in a task's
// log.
func compressedInTurn(path string) bool {
	if path == "" {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return false
	} else if fi.Size() > maxTranscriptTail {
		if _, err := f.Seek(fi.Size()-maxTranscriptTail, io.SeekStart); err != nil {
			return false
		}
	}
	type message struct {
		ID     string `json:"id"`
		Type   string `json:"type"`
		Tokens *struct {
			Input int `json:"input"`
		} `json:"tokens"`
	}
	var order []string
	byID := map[string]message{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), maxTranscriptTail)
	for sc.Scan() {
		var m message
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == "" || m.Type == "" {
			continue // metadata, or a line cut by the tail
		}
		if _, seen := byID[m.ID]; !seen {
			order = append(order, m.ID)
		}
		byID[m.ID] = m
	}
	lastUser := -1
	for i, id := range order {
		if byID[id].Type == "user" {
			lastUser = i
		}
	}
	if lastUser < 0 {
		return false
	}
	before, after := 0, 0
	for _, id := range order[:lastUser] {
		if m := byID[id]; m.Type == "gemini" && m.Tokens != nil && m.Tokens.Input > 0 {
			before = m.Tokens.Input
		}
	}
	for _, id := range order[lastUser+1:] {
		if m := byID[id]; m.Type == "gemini" && m.Tokens != nil && m.Tokens.Input > 0 {
			after = m.Tokens.Input
			break
		}
	}
	return before > 0 && after > 0 && float64(after) < shrunk*float64(before)
}
