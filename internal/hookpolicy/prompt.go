package hookpolicy

import (
	"context"
	"errors"
	"fmt"
	"github.com/vaultmem/vaultmem/config"
	"github.com/vaultmem/vaultmem/frame"
	"github.com/vaultmem/vaultmem/index"
	"github.com/vaultmem/vaultmem/recall"
	"github.com/vaultmem/vaultmem/redact"
	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/text"
	"math"
	"slices"
	"strings"
)

// trivial reports whether a prompt says nothing to recall for: no word
// but stop words, or only words of assent and going on ("yes", "go on").
func trivial(terms, words []string) bool {
	if len(terms) == 0 {
		return true
	}
	for _, w := range words {
		if !assent[strings.ToLower(w)] {
			return false
		}
	}
	return true
}

// assent are the words of a prompt that only lets the agent go on.
var assent = map[string]bool{}

func init() {
	for _, w := range strings.Fields("yes y yeah yep no n nope ok okay k sure thanks thank you thx ty go on ahead continue proceed do it please pls fine great good nice cool lgtm next done right correct agreed perfect") {
		assent[w] = true
	}
}

// covers reports whether s holds enough of a prompt's terms: the share
// share of them, rounded up, and at most three (a long prompt's passage
// need not hold all its words, but three of them is no accident).
func covers(terms []string, s string, share float64) bool {
	need := min(3, int(math.Ceil(share*float64(len(terms)))))
	have := map[string]bool{}
	for _, t := range text.Analyze(s) {
		have[t] = true
	}
	n := 0
	for _, t := range terms {
		if have[t] {
			n++
		}
	}
	return n >= need
}

// promptContext gives what recall finds for a prompt that holds enough
// of the prompt's words and was not given earlier in the session, and
// keeps the prompt for the session note.
func (h *Policy) promptContext(ctx context.Context, ev Event) (Answer, error) {
	kept := keepPrompt(ev.Prompt, h.Settings.Hooks.Prompts)
	query := ev.Prompt
	if len(query) > index.MaxQueryBytes {
		// A question around a pasted trace or log: recall on the question.
		query = text.Question(query, bigPromptQuery)
	}
	terms := text.ContentTerms(query)
	skip := trivial(terms, text.Words(query)) || h.Settings.Hooks.PromptBudget == 0
	focus, notice := "", ""
	if !skip {
		if f, err := h.Tasks.Focus(ctx, ev.Agent); err == nil {
			focus, notice = f.Task, f.Notice
		}
	}
	st, err := h.updateSession(ctx, ev, func(st *session.State) error {
		if !slices.ContainsFunc(st.Prompts, func(p session.Prompt) bool { return p.Time.Equal(ev.Time) }) {
			st.AddPrompt(ev.Time, kept)
		}
		st.AddTask(focus)
		return nil
	})
	if err != nil || skip {
		return Answer{}, err
	}
	var hide []string
	if st.Note != "" {
		hide = []string{st.Note} // the session's own note: what it does, not memory
	}
	res, err := h.Recall.Recall(ctx, RecallQuery{Query: query, Budget: h.Settings.Hooks.PromptBudget, Agent: ev.Agent, NoFocus: true, Hide: hide,
		Given: st.Given, Recent: st.Wrote})
	if errors.Is(err, recall.ErrEmptyQuery) {
		return Answer{}, nil
	}
	if err != nil {
		return Answer{}, err
	}
	var keys []string
	var items []frame.Item
	// An agent whose focused task another agent holds (a claim two clones
	// made, settled to the other when git merged them) is told once a
	// session, before what recall found.
	if key := "held:" + focus + "@" + notice; notice != "" && !st.WasGiven(key) {
		keys = append(keys, key)
		items = append(items, frame.Item{Source: frame.SourceTask, Path: focus, Title: "Not yours", Text: notice + "."})
	}
	for _, it := range res.Items {
		key := recall.ItemKey(it.Path, it.Heading, it.Block)
		if st.WasGiven(key) || slices.Contains(keys, key) ||
			!covers(terms, it.Path+" "+it.Heading+" "+it.Text, h.Settings.Hooks.MinCoverage) {
			continue
		}
		keys = append(keys, key)
		items = append(items, frame.Item{Source: recall.SourceOf(it.Kind), Path: it.Path, Heading: it.Heading, Text: it.Text})
	}
	out, held := fit(promptPreamble, h.Settings.Hooks.PromptBudget, items)
	if len(held) == 0 {
		return Answer{}, nil
	}
	var given, heldKeys []string
	for _, i := range held {
		heldKeys = append(heldKeys, keys[i])
		if !slices.Contains(given, items[i].Path) {
			given = append(given, items[i].Path)
		}
	}
	if _, err := h.updateSession(ctx, ev, func(st *session.State) error { st.Give(heldKeys...); return nil }); err != nil {
		return Answer{}, err
	}
	return Answer{Context: out, Given: given}, nil
}

// keepPrompt is what a session note keeps of a prompt: nothing, its first
// line or all of it, secrets masked. They are masked before the line is
// shortened: half a token is no longer one redact finds.
func keepPrompt(p string, how config.PromptKeeping) string {
	p = strings.TrimSpace(p)
	switch how {
	case config.PromptsOff:
		return ""
	case config.PromptsFirstLine:
		p, _, _ = strings.Cut(p, "\n")
		return text.Shorten(redact.String(headAtSpace(p, 300+redactMargin)), 300)
	}
	if len(p) <= maxKeptPrompt {
		return redact.String(p)
	}
	// Masked past the cut, then cut: a secret the cut falls in (a private
	// key's lines) is masked whole, and its mask kept or dropped whole.
	head := headAtSpace(p, maxKeptPrompt+redactMargin)
	kept := headAtSpace(redact.String(head), maxKeptPrompt)
	return kept + fmt.Sprintf(" [… %d more bytes not kept]", len(p)-len(kept))
}

// redactMargin is how far past a cut a prompt is masked before it is
// cut: more than the longest secret redact knows (a private key).
const redactMargin = 8 << 10

// bigPromptQuery is how much of a prompt over the recall query limit
// (index.MaxQueryBytes) recall is given: its question (text.Question).
const bigPromptQuery = 2000

// maxKeptPrompt is the most of one prompt a session note keeps with
// hooks.prompts: full; the rest is said to be cut, not kept.
const maxKeptPrompt = 16 << 10

// headAtSpace is the start of s up to about n bytes, cut at a space so
// that no token is cut in two (half a secret is no longer one redact
// finds): at the last space before n, else nothing of a first word longer
// than n.
func headAtSpace(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexAny(s[:n], " \t\n"); i > 0 {
		return strings.TrimSpace(s[:i])
	}
	return ""
}
