package agenthook

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"strings"
)

// maxSubagentResult is the most of a sub-agent's last answer a hook
// passes on: enough for what it found, not its whole report.
const maxSubagentResult = 1500

// subagentResult is what a sub-agent that stopped found: the client's
// last_assistant_message (Codex, Claude Code), else the last assistant
// text of its own transcript (agent_transcript_path, Claude Code's JSON
// lines), on one line (a task's log holds one line an event), cut to
// maxSubagentResult bytes at a word. "" when neither says.
func subagentResult(last, transcript string) string {
	text := strings.Join(strings.Fields(last), " ")
	if text == "" {
		text = strings.Join(strings.Fields(lastAssistantText(transcript)), " ")
	}
	if len(text) <= maxSubagentResult {
		return text
	}
	cut := text[:maxSubagentResult]
	if i := strings.LastIndexByte(cut, ' '); i > maxSubagentResult/2 {
		cut = cut[:i]
	}
	return strings.TrimSpace(cut) + " …"
}

// lastAssistantText is the text of the last assistant message of a
// Claude Code transcript at path (JSON lines: {"type": "assistant",
// "message": {"content": [{"type": "text", "text": …}]}}), read from its
// last maxTranscriptTail bytes; "" when there is none or it cannot be
// read.
func lastAssistantText(path string) string {
	if path == "" {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return ""
	} else if fi.Size() > maxTranscriptTail {
		if _, err := f.Seek(fi.Size()-maxTranscriptTail, io.SeekStart); err != nil {
			return ""
		}
	}
	var last string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), maxTranscriptTail)
	for sc.Scan() {
		var rec struct {
			Type    string `json:"type"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) != nil || rec.Type != "assistant" {
			continue
		}
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		var s string
		var texts []string
		switch {
		case json.Unmarshal(rec.Message.Content, &s) == nil:
			texts = append(texts, s)
		case json.Unmarshal(rec.Message.Content, &parts) == nil:
			for _, p := range parts {
				if p.Type == "text" {
					texts = append(texts, p.Text)
				}
			}
		}
		if t := strings.TrimSpace(strings.Join(texts, "\n")); t != "" {
			last = t
		}
	}
	return last
}
