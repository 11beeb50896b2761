package lesson

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Reason is what of a situation matched a lesson, as a suggestion names
// it.
type Reason struct {
	// Kind is "words" (a trigger phrase in the text), "path" (a trigger
	// glob), "tool", "meaning" (by the vault's embedder), "keywords"
	// (the lesson's words in the text), or "" for none.
	Kind string
	// What is the trigger phrase, the path or the tool that matched;
	// Pattern the glob a path matched.
	What, Pattern string
	// Partial says only some of the phrase's words were in the text.
	Partial bool
}

// Suggest is the suggested adjustment of a lesson named name, whose action
// bias is actionBias, found for reason r: one sentence, the reason first,
// then what to do ("Since the situation mentions "integration tests", run
// make migrate before the integration tests."). A lesson without an
// action bias suggests keeping it in mind.
func Suggest(name, actionBias string, r Reason) string {
	action := strings.TrimRight(strings.Join(strings.Fields(actionBias), " "), ".;:, ")
	if action == "" {
		action = fmt.Sprintf("keep the lesson %q in mind", name)
	}
	var since string
	switch r.Kind {
	case "words":
		if r.Partial {
			since = fmt.Sprintf("the situation mentions part of %q", r.What)
		} else {
			since = fmt.Sprintf("the situation mentions %q", r.What)
		}
	case "path":
		since = fmt.Sprintf("%s matches %s", r.What, r.Pattern)
	case "tool":
		since = "you are about to call " + r.What
	case "meaning":
		since = "the situation is much like what this lesson is about"
	case "keywords":
		since = "the situation shares words with this lesson"
	}
	if since == "" {
		return upperFirst(action) + "."
	}
	return "Since " + since + ", " + action + "."
}

// upperFirst is s with its first letter upper-cased.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
