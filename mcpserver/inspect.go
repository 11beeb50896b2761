package mcpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// verdict is what to do with a message: forward it (message ""), answer
// it (code != 0, with id) or drop it (code 0).
type verdict struct {
	code    int64
	id      json.RawMessage
	message string
}

// inspect judges one trimmed, non-empty line. What it lets through, the
// SDK decodes without error, since the last check is the SDK's own
// decoding.
func inspect(msg []byte) verdict {
	parseErr := func(why string) verdict { return verdict{code: jsonrpc.CodeParseError, message: "Parse error: " + why} }
	switch {
	case !utf8.Valid(msg):
		return parseErr("invalid UTF-8")
	case tooDeep(msg, MaxDepth):
		return parseErr(fmt.Sprintf("nested deeper than %d", MaxDepth))
	case !json.Valid(msg):
		return parseErr(syntaxError(msg))
	case msg[0] == '[':
		return verdict{code: jsonrpc.CodeInvalidRequest, message: "Invalid Request: batches are not supported"}
	case msg[0] != '{':
		return verdict{code: jsonrpc.CodeInvalidRequest, message: "Invalid Request: not a JSON object"}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(msg, &fields); err != nil {
		return parseErr(err.Error())
	}
	id, hasID := fields["id"]
	var version string
	json.Unmarshal(fields["jsonrpc"], &version)
	_, hasResult := fields["result"]
	_, hasError := fields["error"]
	method, hasMethod := fields["method"]
	if !hasMethod && (hasResult || hasError) {
		// A response: forwarded if the SDK can take it, else dropped.
		switch {
		case version != "2.0":
			return verdict{message: `response whose "jsonrpc" is not "2.0"`}
		case !hasID || idProblem(id) != "" || string(id) == "null":
			return verdict{message: "response without a string or integer id"}
		}
		if _, err := jsonrpc.DecodeMessage(msg); err != nil {
			return verdict{message: "malformed response: " + err.Error()}
		}
		return verdict{}
	}
	invalid := func(echo json.RawMessage, why string) verdict {
		return verdict{code: jsonrpc.CodeInvalidRequest, id: echo, message: "Invalid Request: " + why}
	}
	var echo json.RawMessage // the id, when it can be answered to
	if hasID {
		switch why := idProblem(id); {
		case why != "" && (id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9'):
			return invalid(id, why)
		case why != "":
			return invalid(nil, why)
		}
		echo = id
	}
	switch {
	case version != "2.0":
		return invalid(echo, `"jsonrpc" must be "2.0"`)
	case !hasMethod:
		return invalid(echo, `"method" is missing`)
	case method[0] != '"':
		return invalid(echo, `"method" must be a string`)
	}
	if _, err := jsonrpc.DecodeMessage(msg); err != nil {
		return invalid(echo, err.Error())
	}
	return verdict{}
}

// syntaxError describes why msg, which json.Valid rejects, is not JSON.
func syntaxError(msg []byte) string {
	err := json.Unmarshal(msg, new(json.RawMessage))
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	case err != nil:
		return err.Error()
	}
	return "not JSON"
}

// idProblem says what is wrong with a request id, or "". A number must be
// an integer literal the SDK holds exactly (it reads ids as float64), else
// the answer would carry another id. null is let through: the SDK takes
// the request for a notification, which is not answered.
func idProblem(id json.RawMessage) string {
	switch c := id[0]; {
	case c == '"' || string(id) == "null":
		return ""
	case c == '-' || c >= '0' && c <= '9':
		n, err := strconv.ParseInt(string(id), 10, 64)
		if err != nil || n > 1<<53 || n < -1<<53 {
			return `"id" must be a string or an integer of at most 2^53`
		}
		return ""
	}
	return `"id" must be a string, an integer or null`
}

// tooDeep reports whether arrays and objects nest deeper than limit in
// data. It is one pass over the bytes, skipping strings, so a deep input
// costs no stack and no more time than a flat one. It counts as the SDK's
// own check does.
func tooDeep(data []byte, limit int) bool {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			if depth++; depth > limit {
				return true
			}
		case '}', ']':
			depth = max(depth-1, 0)
		}
	}
	return false
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
