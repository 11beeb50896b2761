package setup

import (
	"strings"
	"testing"
)

// TestAddMember: a member added to an object follows the file's layout
// (indentation, one line or several, line endings), keeps every other
// byte, and removing it gives back the file byte for byte.
func TestAddMember(t *testing.T) {
	server := obj{{"command", "vaultmem"}, {"args", []string{"mcp"}}}
	tests := []struct {
		name, in string
		path     []string
		want     string
		back     string // after the removal, when not in
	}{
		{"empty object", "{}\n", []string{"mcpServers", "vaultmem"},
			"{\n  \"mcpServers\": {\n    \"vaultmem\": {\n      \"command\": \"vaultmem\",\n      \"args\": [\n        \"mcp\"\n      ]\n    }\n  }\n}\n", ""},
		{"after the last member, tabs", "{\n\t\"a\": 1\n}\n", []string{"vaultmem"},
			"{\n\t\"a\": 1,\n\t\"vaultmem\": {\n\t\t\"command\": \"vaultmem\",\n\t\t\"args\": [\n\t\t\t\"mcp\"\n\t\t]\n\t}\n}\n", ""},
		{"into an existing object", "{\n    \"mcpServers\": {\n        \"github\": {\"command\": \"npx\"}\n    },\n    \"z\": true\n}", []string{"mcpServers", "vaultmem"},
			"{\n    \"mcpServers\": {\n        \"github\": {\"command\": \"npx\"},\n        \"vaultmem\": {\n            \"command\": \"vaultmem\",\n            \"args\": [\n                \"mcp\"\n            ]\n        }\n    },\n    \"z\": true\n}", ""},
		{"one line, compact", `{"version":1,"hooks":{}}`, []string{"vaultmem"},
			`{"version":1,"hooks":{},"vaultmem":{"command":"vaultmem","args":["mcp"]}}`, ""},
		{"one line, spaced", `{"a": 1}`, []string{"vaultmem"},
			`{"a": 1, "vaultmem": {"command":"vaultmem","args":["mcp"]}}`, ""},
		{"one line, into an empty object", `{"version":1,"hooks":{}}`, []string{"hooks", "vaultmem"},
			`{"version":1,"hooks":{"vaultmem":{"command":"vaultmem","args":["mcp"]}}}`,
			`{"version":1}`}, // an object left empty goes: setup cannot tell it was there before
		{"a comment stays on its line", "{\n  // mine\n  \"a\": 1 /* one */\n}\n", []string{"vaultmem"},
			"{\n  // mine\n  \"a\": 1, /* one */\n  \"vaultmem\": {\n    \"command\": \"vaultmem\",\n    \"args\": [\n      \"mcp\"\n    ]\n  }\n}\n", ""},
		{"CRLF", "{\r\n  \"a\": 1\r\n}\r\n", []string{"vaultmem"},
			"{\r\n  \"a\": 1,\r\n  \"vaultmem\": {\r\n    \"command\": \"vaultmem\",\r\n    \"args\": [\r\n      \"mcp\"\r\n    ]\r\n  }\r\n}\r\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := parseDoc("f.json", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if err := d.set(tt.path, server); err != nil {
				t.Fatal(err)
			}
			if got := string(d.text); got != tt.want {
				t.Errorf("added:\n%s\nwant:\n%s", got, tt.want)
			}
			if err := d.removePath(tt.path...); err != nil {
				t.Fatal(err)
			}
			back := tt.in
			if tt.back != "" {
				back = tt.back
			}
			if got := string(d.text); got != back {
				t.Errorf("removed:\n%q\nwant:\n%q", got, back)
			}
		})
	}
}

// TestRemoveFirstMember: a member that is not the last goes with the
// separator after it.
func TestRemoveFirstMember(t *testing.T) {
	d, err := parseDoc("f.json", []byte("{\n  \"vaultmem\": 1,\n  \"b\": 2\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.removePath("vaultmem"); err != nil {
		t.Fatal(err)
	}
	if got, want := string(d.text), "{\n  \"b\": 2\n}\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestParseErrors: a file that is not a JSON object is refused, naming
// the file, the line and the column.
func TestParseErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{"{\n  \"a\": 1,\n}\n", "f.json:3:1: not valid JSON"},
		{"{\n  \"a\": [1 2]\n}", "f.json:2:11: not valid JSON"},
		{"[]", "f.json: not a JSON object"},
		{"{\n /* open\n}", "f.json: 2:2: a /* comment is not closed"},
	}
	for _, tt := range tests {
		_, err := parseDoc("f.json", []byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want %q", tt.in, err, tt.want)
		}
	}
}

// TestCommentsBlanked: comments (not "//" inside strings) become spaces,
// line breaks and offsets kept.
func TestCommentsBlanked(t *testing.T) {
	in := "{\"u\": \"http://x\", // c\n/* a\nb */ \"k\": 1}"
	got, err := blankComments([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\"u\": \"http://x\",     \n    \n     \"k\": 1}"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
