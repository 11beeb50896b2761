package recall

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/vaultmem/vaultmem/frame"
	"github.com/vaultmem/vaultmem/lesson"
	"github.com/vaultmem/vaultmem/memory"
	"github.com/vaultmem/vaultmem/session"
	"github.com/vaultmem/vaultmem/task"
	"github.com/vaultmem/vaultmem/text"
)

// truncationMarker ends an item cut to fit the budget.
const truncationMarker = " […truncated]"

// minTruncated is the fewest tokens worth keeping of a truncated item.
const minTruncated = 8

// The budget fills (Options.BudgetFill).
const (
	// FillGreedy keeps items whole in rank order while they fit; the first
	// that does not is truncated with a marker.
	FillGreedy = "greedy"
	// FillShared first shares the budget left after the presets among the
	// best items (see shares), cutting an item longer than its share with
	// the truncation marker, then fills as FillGreedy does: no long item
	// takes the budget from the ones ranked after it.
	FillShared = "shared"
)

// DefaultBudgetFill is the fill used when Options.BudgetFill is "": the
// better of the two on LoCoMo (docs/recall.md, "Budget").
const DefaultBudgetFill = FillShared

// ParseBudgetFill checks a budget fill's name: "" (the default),
// FillGreedy or FillShared.
func ParseBudgetFill(s string) (string, error) {
	switch s {
	case "":
		return DefaultBudgetFill, nil
	case FillGreedy, FillShared:
		return s, nil
	}
	return "", fmt.Errorf("recall: unknown budget fill %q (want %s or %s)", s, FillGreedy, FillShared)
}

// minShare is the least text a shared fill gives each item it shares the
// budget among: it shares it among no more items than fit with their
// frames and that much text each, so that fifty short notes each keep
// their sentence rather than a few words of it.
const minShare = 16

// shares returns the text of each ranked item as the shared fill gives it.
// The budget left after head is shared among the first k items with text
// (as many as fit with their own frames and minShare tokens each, all of
// a shorter one) by
// water-filling: the cap is the largest c for which the k items cut to c
// tokens fit beside their frames, so an item shorter than its share keeps
// all of it and leaves the rest to the longer ones; a longer item is cut,
// with the truncation marker. Items after the first k keep their text:
// the fill drops what does not fit.
func shares(ranked []*candidate, head []frame.Item, budget int) []string {
	out := make([]string, len(ranked))
	for i, c := range ranked {
		out[i] = c.hit.Text
	}
	wrapper := text.EstimateTokens(render(nil, nil, nil))
	avail := budget - text.EstimateTokens(render(head, nil, nil))
	var idx, sizes []int
	need := 0 // the frames so far, and minShare of text each (all of a shorter one)
	for i, c := range ranked {
		if strings.TrimSpace(c.hit.Text) == "" {
			continue
		}
		size := text.EstimateTokens(c.hit.Text)
		n := text.EstimateTokens(render(nil, ranked[i:i+1], []string{"x"})) - wrapper - 1 + min(size, minShare)
		if len(idx) > 0 && need+n > avail {
			break
		}
		need += n
		idx = append(idx, i)
		sizes = append(sizes, size)
	}
	if len(idx) == 0 {
		return out
	}
	// The frames of the k items as they render together (items of one
	// section share one), and their whole texts when those fit.
	picked := make([]*candidate, len(idx))
	for j, i := range idx {
		picked[j] = ranked[i]
	}
	whole := make([]string, len(idx))
	for j, i := range idx {
		whole[j] = out[i]
	}
	if text.EstimateTokens(render(head, picked, whole)) <= budget {
		return out
	}
	// (An item without text renders no frame: each holds one token, not
	// counted.) Token estimates of a text's parts round up apart, so the
	// cap is lowered, a token at a time, until the k items fit.
	ones := make([]string, len(idx))
	for j := range ones {
		ones[j] = "x"
	}
	limit := waterLevel(sizes, budget-text.EstimateTokens(render(head, picked, ones))+len(idx))
	for range 16 {
		texts := make([]string, len(idx))
		for j, i := range idx {
			texts[j] = out[i]
			if sizes[j] <= limit {
				continue
			}
			if cut := cutTo(out[i], max(minTruncated, limit)-text.EstimateTokens(truncationMarker)); cut != "" {
				texts[j] = cut + truncationMarker
			}
		}
		if text.EstimateTokens(render(head, picked, texts)) <= budget || limit <= minTruncated {
			for j, i := range idx {
				out[i] = texts[j]
			}
			break
		}
		limit--
	}
	return out
}

// waterLevel is the largest cap c for which the sizes, each cut to c, sum
// to at most total (every size, when they all fit).
func waterLevel(sizes []int, total int) int {
	sorted := slices.Clone(sizes)
	slices.Sort(sorted)
	left := total
	for i, s := range sorted {
		rest := len(sorted) - i
		if s*rest > left {
			return left / rest
		}
		left -= s
	}
	return sorted[len(sorted)-1]
}

// fillBudget keeps ranked items while the context, after head (the
// presets, already chosen) and in its frame, fits res.Budget; the first
// one that does not fit is truncated with a marker, and the rest are
// counted as dropped. Items without text are left out. With FillShared,
// each item is first cut to its share (see shares).
func (e *Engine) fillBudget(res *Result, ranked []*candidate, head []frame.Item) {
	var picked []*candidate
	var texts []string
	fits := func(cs []*candidate, ts []string) bool {
		return text.EstimateTokens(render(head, cs, ts)) <= res.Budget
	}
	full := make([]string, len(ranked))
	for i, c := range ranked {
		full[i] = c.hit.Text
	}
	if e.fill == FillShared {
		full = shares(ranked, head, res.Budget)
	}
	for i, c := range ranked {
		if strings.TrimSpace(c.hit.Text) == "" {
			continue // a note without text (a task with neither description nor log yet): nothing to show
		}
		if fits(append(picked, c), append(texts, full[i])) {
			picked, texts = append(picked, c), append(texts, full[i])
			if full[i] != c.hit.Text {
				res.Truncated = true
			}
			continue
		}
		// Cut this one to what is left, if that is worth it. Escaping in
		// the frame may lengthen the cut text a little: cut shorter until
		// it fits.
		room := res.Budget - text.EstimateTokens(render(head, append(picked, c), append(texts, "")))
		for n := room - text.EstimateTokens(truncationMarker); room >= minTruncated && n > 0; {
			cut := cutTo(strings.TrimSuffix(full[i], truncationMarker), n)
			if cut == "" {
				break
			}
			if fits(append(picked, c), append(texts, cut+truncationMarker)) {
				picked, texts = append(picked, c), append(texts, cut+truncationMarker)
				res.Truncated = true
				i++
				break
			}
			n -= max(1, text.EstimateTokens(render(head, append(picked, c), append(texts, cut+truncationMarker)))-res.Budget)
		}
		res.Dropped = len(ranked) - i
		break
	}
	res.Context = render(head, picked, texts)
	res.UsedTokens = text.EstimateTokens(res.Context)
	for k, c := range picked {
		res.Items = append(res.Items, Item{Path: c.hit.Path, Heading: c.hit.Heading, Block: c.hit.Block, Kind: c.hit.Kind,
			Source: sources(c), Layer: Layer(c.hit.Kind), Score: c.final, Tokens: text.EstimateTokens(texts[k]),
			Text: texts[k], Why: why(c, Layer(c.hit.Kind))})
	}
}

// LayerTask is the layer of the focused task's context.
const LayerTask = "task"

// fillBudgetAfter fills the budget with ranked items as fillBudget does,
// after the presets of r (the focused task's context first): as many of
// them, in order, as take at most half the budget together, frame
// included.
func (e *Engine) fillBudgetAfter(res *Result, ranked []*candidate, r Request) {
	presets := r.Presets
	if f := strings.TrimSpace(r.Focus); f != "" {
		presets = append([]Preset{{Layer: LayerTask, Title: "Focused task: " + r.FocusPath, Path: r.FocusPath, Text: f, Source: "focus",
			Why: "the context of the agent's focused task: its ancestors, siblings, children and log"}}, presets...)
	}
	var head []frame.Item
	var items []Item
	for _, p := range presets {
		t := strings.TrimSpace(p.Text)
		if t == "" {
			continue
		}
		it := frame.Item{Source: presetSource(p), Path: p.Path, Title: p.Title, Text: t}
		if 2*text.EstimateTokens(render(append(head, it), nil, nil)) > res.Budget {
			continue
		}
		head = append(head, it)
		items = append(items, Item{Path: p.Path, Source: p.Source, Layer: p.Layer, Tokens: text.EstimateTokens(it.Render()), Text: t, Why: p.Why})
	}
	e.fillBudget(res, ranked, head)
	res.Items = append(append([]Item{}, items...), res.Items...) // [] in JSON when empty, never null
}

// presetSource is the frame's source of a preset's text.
func presetSource(p Preset) string {
	switch p.Layer {
	case LayerTask:
		return frame.SourceTask
	case LayerLesson:
		return frame.SourceLesson
	}
	return frame.SourceNote
}

// SourceOf is the frame's source (see package frame) of a note of type
// kind: a memory, a task, a lesson, a session note, or a note.
func SourceOf(kind string) string {
	switch {
	case slices.Contains(memory.Types, memory.Type(kind)):
		return frame.SourceMemory
	case kind == task.Type:
		return frame.SourceTask
	case kind == lesson.Type:
		return frame.SourceLesson
	case kind == session.Type:
		return frame.SourceSession
	}
	return frame.SourceNote
}

func sources(c *candidate) string {
	var out []string
	for _, e := range engines {
		if _, ok := c.ranks[e]; ok {
			out = append(out, e)
		}
	}
	return strings.Join(out, "+")
}

// cutTo returns the longest prefix of s, ending at a word boundary, that
// estimates at most n tokens; "" when none does.
func cutTo(s string, n int) string {
	if n <= 0 {
		return ""
	}
	lo, hi := 0, len(s)
	for lo < hi { // the longest prefix within n tokens
		mid := (lo + hi + 1) / 2
		if text.EstimateTokens(s[:mid]) <= n {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	cut := s[:lo]
	if i := strings.LastIndexAny(cut, " \n"); i > 0 && lo < len(s) {
		cut = cut[:i]
	}
	return strings.ToValidUTF8(strings.TrimSpace(cut), "")
}

// render writes the context in its frame (see package frame): the
// presets of head first, then the picked items grouped by note, in the
// order their notes first appear in the ranking, and in note order within
// a note; each run of a note's items under one section is one item of the
// frame, with the note's path, its date when it has one, and the section.
// No line of vaultmem's stands above the frame: its opening tag says what
// the text is, and in a small budget every token of it is one less of the
// notes (at 300 tokens, LoCoMo's evidence recall fell from 0.827 to 0.808
// with a line of 9 tokens).
func render(head []frame.Item, picked []*candidate, texts []string) string {
	var groups [][]int
	byPath := map[string]int{}
	for i, c := range picked {
		g, ok := byPath[c.hit.Path]
		if !ok {
			g = len(groups)
			byPath[c.hit.Path] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	var b strings.Builder
	for _, it := range head {
		b.WriteString(it.Render())
	}
	for _, items := range groups {
		sortByLine(items, picked)
		var cur *frame.Item
		for _, i := range items {
			h := picked[i].hit
			sec := section(h.Heading, h.Title, h.Path)
			if cur != nil && cur.Heading == sec {
				cur.Text += "\n" + texts[i]
				continue
			}
			if cur != nil {
				b.WriteString(cur.Render())
			}
			cur = &frame.Item{Source: SourceOf(h.Kind), Path: h.Path, Heading: sec, Text: texts[i]}
			if len(h.Date) >= 10 {
				cur.Date = h.Date[:10]
			}
		}
		if cur != nil {
			b.WriteString(cur.Render())
		}
	}
	return frame.Wrap("", b.String())
}

func sortByLine(items []int, picked []*candidate) {
	for i := 1; i < len(items); i++ {
		for j := i; j > 0 && picked[items[j]].hit.Line < picked[items[j-1]].hit.Line; j-- {
			items[j], items[j-1] = items[j-1], items[j]
		}
	}
}

// section is a chunk's heading path without a top heading that only
// repeats the note's title or file name (the header already names the
// note): "Deploys > Rollback" in note Deploys is "Rollback".
func section(heading, title, p string) string {
	top, rest, _ := strings.Cut(heading, " > ")
	top = strings.ToLower(top)
	name := strings.ToLower(strings.TrimSuffix(path.Base(p), ".md"))
	if strings.HasPrefix(top, strings.ToLower(title)) || strings.HasPrefix(top, name) {
		return rest
	}
	return heading
}

// LayerLesson is the layer of the lessons shown for a how-to question.
const LayerLesson = "lesson"

// LessonsPreset is the preset that shows lessons (one line each, as the
// lesson package writes them for recall) for a how-to question.
func LessonsPreset(lines string) Preset {
	return Preset{Layer: LayerLesson, Title: "Lessons", Text: lines, Source: "lessons",
		Why: "strong lessons matching a question about how to do something"}
}
