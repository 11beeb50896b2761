package dream

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/chat"
	"github.com/vaultmem/vaultmem/dream/similar"
	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/sameness"
	"github.com/vaultmem/vaultmem/text"
)

// With a chat endpoint configured, the LLM rewrites each merged memory
// into one text (the blocks united in order are the fallback) and suggests
// how a human might resolve each new contradiction. Its answers are
// checked: a merged text that drops a number, a date, a link, a URL or a
// code span of the originals, or that is far shorter or longer, is not
// used. Any failure keeps the deterministic result and says why in the
// report.

// llmTimeout bounds one request when the options set none.
const llmTimeout = 30 * time.Second

const mergePrompt = `The note below is one memory written down several times over. Write it once, as a markdown body:
keep every fact, name, number, date, link and code span; drop only what is repeated.
Answer with the body alone: no frontmatter, no title line, no preamble.

`

const resolvePrompt = `Two memories of an AI agent may contradict each other. In one or two sentences, suggest how the
user could resolve it (which one to keep, or how to reword them). Answer in plain text.

`

// facts are what a rewrite must keep: numbers, URLs, wikilinks, code spans.
var facts = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("https?://[^\\s)>]+|\\[\\[[^\\]]+\\]\\]|`[^`\\n]+`|\\d+(?:[.,:/-]\\d+)*")
})

// rewriteMerges asks the LLM for each merged memory's text.
func (d *Dreamer) rewriteMerges(ctx context.Context, p *plan, rep *Report) {
	if d.opts.LLM == nil {
		return
	}
	for _, mg := range p.merges {
		w := mg.winner
		if w.Next() == nil || len(mg.losers) == 0 {
			continue // the others said nothing the winner lacks
		}
		// The blocks of all of them, united and dated: what the rewrite must keep.
		union := string(markdown.Parse(w.Path, w.Next()).Body())
		answer, err := chat.Complete(ctx, d.opts.LLM, mergePrompt+union, llmTimeout)
		if err != nil {
			rep.LLMError = err.Error()
			return // the endpoint fails: the other merges would too
		}
		if why := lost(union, answer); why != "" {
			rep.LLMError = fmt.Sprintf("the LLM's text for %s %s; the merged blocks are kept", w.Path, why)
			continue
		}
		first := mg.losers[0]
		w.Set(markdown.SetBody(w.Next(), answer))
		// The winner's own words live on in the first note merged away.
		first.Set(append([]byte(strings.TrimRight(string(first.Next()), "\n")+
			"\n\n## "+w.Name+", before the merge\n\n"), strings.TrimSpace(mg.before)+"\n"...))

		mg.rewritten = true
	}
}

// lost says what a rewrite of union dropped or how it went wrong, "" when
// it is fit to use.
func lost(union, rewrite string) string {
	rewrite = strings.TrimSpace(rewrite)
	switch {
	case strings.HasPrefix(rewrite, "---"):
		return "starts with frontmatter"
	case len(text.Words(rewrite)) < len(text.Words(union))/3:
		return "is less than a third of the merged text"
	case len(text.Words(rewrite)) > 2*len(text.Words(union)):
		return "is more than twice the merged text"
	}
	for _, f := range facts().FindAllString(union, -1) {
		if !strings.Contains(rewrite, f) {
			return fmt.Sprintf("drops %q", f)
		}
	}
	if !sameness.Contains(rewrite, union) {
		// A merge may lose no sentence of what it merged (see
		// docs/merge-rules.md): a rewording is a person's to make.
		return "drops or rewords a sentence of the merged text"
	}
	return ""
}

// suggest asks the LLM how to resolve each new contradiction.
func (d *Dreamer) suggest(ctx context.Context, p *plan, rep *Report) {
	if d.opts.LLM == nil {
		return
	}
	for i, c := range rep.Contradictions {
		a, b := p.by[c.Paths[0]], p.by[c.Paths[1]]
		if !c.New || a == nil || b == nil {
			continue
		}
		prompt := fmt.Sprintf("%sMemory A (%s):\n%s\n\nMemory B (%s):\n%s\n", resolvePrompt, a.Name, a.Current(), b.Name, b.Current())
		answer, err := chat.Complete(ctx, d.opts.LLM, prompt, llmTimeout)
		if err != nil {
			rep.LLMError = err.Error()
			return
		}
		rep.Contradictions[i].Suggestion = strings.Join(strings.Fields(answer), " ")
	}
}

// judgePrompt asks the LLM whether two alike memories are the same.
const judgePrompt = `Two notes of an AI agent's memory are alike in words. Do they say the same thing (every fact of each
is in the other: same numbers, units, names, scope, tense and polarity), different things, or contradicting
things? Answer with one line: SAME, DIFFERENT or CONTRADICTS, then ": " and the reason in one sentence.

`

// maxJudged is the most pairs one run asks the LLM about: the others wait
// for the next run, listed for review meanwhile.
const maxJudged = 20

// Judgement is the LLM's verdict on a pair of possible duplicates.
type Judgement struct {
	Paths [2]string `json:"paths"`
	// Verdict is "same" (they were merged, the loser's text kept whole in
	// the winner), "different" (kept apart, not listed again while both
	// stay as they are) or "contradicts" (flagged as a contradiction).
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
}

// judge asks the LLM, when there is one, whether sp's memories are the
// same, different or contradicting, and plans what it said: a merge (the
// caller's), a flag. A merge the LLM calls for still loses no text: the
// winner gets every block of the loser it does not hold (see mergeTexts),
// and no rewrite that drops a sentence is used (see lost).
func (d *Dreamer) judge(ctx context.Context, p *plan, rep *Report, sp similarPair) similar.Verdict {
	if d.opts.LLM == nil || p.judged >= maxJudged || rep.LLMError != "" {
		return similar.Unjudged
	}
	p.judged++
	prompt := fmt.Sprintf("%sNote A (%s):\n%s\n\nNote B (%s):\n%s\n", judgePrompt, sp.a.Name, sp.a.Said(), sp.b.Name, sp.b.Said())
	answer, err := chat.Complete(ctx, d.opts.LLM, prompt, llmTimeout)
	if err != nil {
		rep.LLMError = err.Error()
		return similar.Unjudged
	}
	line := strings.TrimSpace(answer)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	word, reason, _ := strings.Cut(line, ":")
	word = strings.ToLower(strings.Trim(strings.TrimSpace(word), "*`'\"."))
	reason = strings.Join(strings.Fields(reason), " ")
	k := pairOf(sp.a.Path, sp.b.Path)
	j := Judgement{Paths: [2]string{k[0], k[1]}, Reason: reason}
	switch word {
	case "same":
		j.Verdict = "same"
		rep.Judged = append(rep.Judged, j)
		return similar.JudgedSame
	case "different":
		j.Verdict = "different"
		p.judgedFlags = append(p.judgedFlags, memory.Flag{A: k[0], B: k[1], Kind: memory.Distinct, Reason: "the LLM: " + reason, Found: p.today})
	case "contradicts":
		j.Verdict = "contradicts"
		p.judgedFlags = append(p.judgedFlags, memory.Flag{A: k[0], B: k[1], Reason: "the LLM: " + reason, Found: p.today})
	default:
		rep.LLMError = fmt.Sprintf("the LLM's verdict on %s and %s is not SAME, DIFFERENT or CONTRADICTS: %q", k[0], k[1], clip(line, 80))
		return similar.Unjudged
	}
	rep.Judged = append(rep.Judged, j)
	return similar.JudgedOther
}

// clip is s cut to n bytes at most, at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
