package proposal

import (
	"slices"
	"strings"
	"testing"
)

// TestParseProposals: the LLM's answer is checked item by item.
func TestParseProposals(t *testing.T) {
	mem := func(fields string) string { return `{"memories": [{` + fields + `}]}` }
	les := func(fields string) string { return `{"lessons": [{` + fields + `}]}` }
	okMem := `"type": "feedback", "name": "Terse", "description": "answer tersely", "body": "The user wants terse answers."`
	okLes := `"title": "Migrate first", "trigger": ["integration tests"], "action_bias": "migrate first", "body": "The database starts empty."`
	long := strings.Repeat("x", 81)
	for _, tt := range []struct {
		name     string
		answer   string
		err      string // the answer is of no use
		memories int
		lessons  int
		dropped  int
		warn     string
	}{
		{"empty", `{}`, "", 0, 0, 0, ""},
		{"nulls", `{"memories": null, "lessons": null}`, "", 0, 0, 0, ""},
		{"prose around", "Sure! " + mem(okMem) + " Hope it helps.", "", 1, 0, 0, ""},
		{"a memory and a lesson", `{"memories": [{` + okMem + `}], "lessons": [{` + okLes + `}]}`, "", 1, 1, 0, ""},
		{"unknown top-level key", `{"thoughts": "hm", "memories": []}`, "", 0, 0, 0, ""},
		{"garbage", "no", "not the JSON", 0, 0, 0, ""},
		{"an array", `[1, 2]`, "not the JSON", 0, 0, 0, ""},
		{"memories a string", `{"memories": "none"}`, "memories is not a list", 0, 0, 0, ""},
		{"lessons an object", `{"lessons": {}}`, "lessons is not a list", 0, 0, 0, ""},
		{"item not an object", `{"memories": ["remember this"]}`, "", 0, 0, 1, "is not an object"},
		{"unknown type", mem(`"type": "opinion", "name": "a", "description": "b", "body": "c"`), "", 0, 0, 1, `type "opinion"`},
		{"type upper case", mem(`"type": "Feedback", "name": "a", "description": "b", "body": "c"`), "", 1, 0, 0, ""},
		{"no name", mem(`"type": "user", "description": "b", "body": "c"`), "", 0, 0, 1, "has no name"},
		{"blank name", mem(`"type": "user", "name": "  ", "description": "b", "body": "c"`), "", 0, 0, 1, "has no name"},
		{"name too long", mem(`"type": "user", "name": "` + long + `", "description": "b", "body": "c"`), "", 0, 0, 1, "more than 80"},
		{"name two lines", mem(`"type": "user", "name": "a\nb", "description": "b", "body": "c"`), "", 0, 0, 1, "not one line"},
		{"name a path", mem(`"type": "user", "name": "../../x", "description": "b", "body": "c"`), "", 0, 0, 1, "file path"},
		{"name a number", mem(`"type": "user", "name": 7, "description": "b", "body": "c"`), "", 0, 0, 1, "wrong type"},
		{"no description", mem(`"type": "user", "name": "a", "body": "c"`), "", 0, 0, 1, "no description"},
		{"description too long", mem(`"type": "user", "name": "a", "description": "` + strings.Repeat("y", 201) + `", "body": "c"`), "", 0, 0, 1, "more than 200"},
		{"no body", mem(`"type": "user", "name": "a", "description": "b", "body": ""`), "", 0, 0, 1, "no body"},
		{"body too long", mem(`"type": "user", "name": "a", "description": "b", "body": "` + strings.Repeat("z", 4001) + `"`), "", 0, 0, 1, "more than 4000"},
		{"body frontmatter", mem(`"type": "user", "name": "a", "description": "b", "body": "---\nx: 1\n---"`), "", 0, 0, 1, "frontmatter"},
		{"body control", mem(`"type": "user", "name": "a", "description": "b", "body": "a\u0000b"`), "", 0, 0, 1, "control"},
		{"extra key", mem(okMem + `, "confidence": 0.9`), "", 0, 0, 1, "does not decode"},
		{"four memories", `{"memories": [{` + strings.Join([]string{
			`"type": "user", "name": "a", "description": "b", "body": "c"`, `"type": "user", "name": "b", "description": "b", "body": "c"`,
			`"type": "user", "name": "c", "description": "b", "body": "c"`, `"type": "user", "name": "d", "description": "b", "body": "c"`}, "}, {") + `}]}`,
			"", 3, 0, 0, "past the 3"},
		{"a repeat", `{"memories": [{` + okMem + `}, {` + okMem + `}]}`, "", 1, 0, 0, "repeats"},
		{"lesson ok", les(okLes), "", 0, 1, 0, ""},
		{"lesson no trigger", les(`"title": "a", "trigger": [], "action_bias": "b", "body": "c"`), "", 0, 0, 1, "no trigger"},
		{"lesson trigger a string", les(`"title": "a", "trigger": "tool:Bash", "action_bias": "b", "body": "c"`), "", 0, 0, 1, "wrong type"},
		{"lesson blank trigger", les(`"title": "a", "trigger": [" "], "action_bias": "b", "body": "c"`), "", 0, 0, 1, "no trigger"},
		{"lesson six triggers", les(`"title": "a", "trigger": ["a", "b", "c", "d", "e", "f"], "action_bias": "b", "body": "c"`), "", 0, 0, 1, "more than 5"},
		{"lesson no action bias", les(`"title": "a", "trigger": ["x"], "body": "c"`), "", 0, 0, 1, "no action_bias"},
		{"lesson title of nothing", les(`"title": "???", "trigger": ["x"], "action_bias": "b", "body": "c"`), "", 0, 0, 1, "names no file"},
		{"lesson history heading", les(`"title": "a", "trigger": ["x"], "action_bias": "b", "body": "c\n\n## History\n\n- x"`), "", 0, 0, 1, "History"},
		{"three lessons", `{"lessons": [{` + strings.Join([]string{
			`"title": "a", "trigger": ["x"], "action_bias": "b", "body": "c"`, `"title": "b", "trigger": ["x"], "action_bias": "b", "body": "c"`,
			`"title": "c", "trigger": ["x"], "action_bias": "b", "body": "c"`}, "}, {") + `}]}`, "", 0, 2, 0, "past the 2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseProposals(tt.answer)
			if (err != nil) != (tt.err != "") || err != nil && !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("error %v, want %q", err, tt.err)
			}
			if len(got.memories) != tt.memories || len(got.lessons) != tt.lessons || got.dropped != tt.dropped {
				t.Errorf("%d memories, %d lessons, %d dropped; want %d, %d, %d (warnings %q)", len(got.memories), len(got.lessons), got.dropped,
					tt.memories, tt.lessons, tt.dropped, got.warnings)
			}
			if tt.warn != "" && !slices.ContainsFunc(got.warnings, func(w string) bool { return strings.Contains(w, tt.warn) }) {
				t.Errorf("warnings %q lack %q", got.warnings, tt.warn)
			}
			if tt.warn == "" && len(got.warnings) > 0 {
				t.Errorf("warnings %q", got.warnings)
			}
		})
	}
}
