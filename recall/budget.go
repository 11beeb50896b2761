package recall

import (
	"path"
	"strings"

	"github.com/vaultmem/vaultmem/text"
)

// truncationMarker ends an item cut to fit the budget.
const truncationMarker = " […truncated]"

// minTruncated is the fewest tokens worth keeping of a truncated item.
const minTruncated = 8

// fillBudget keeps ranked items while the context fits res.Budget; the first
// one that does not fit is truncated with a marker, and the rest are
// counted as dropped. Items without text are left out.
func (e *Engine) fillBudget(res *Result, ranked []*candidate) {
	var picked []*candidate
	var texts []string
	for i, c := range ranked {
		if strings.TrimSpace(c.hit.Text) == "" {
			continue // a note without text (a task with neither description nor log yet): nothing to show
		}
		trial := render(append(picked, c), append(texts, c.hit.Text))
		if text.EstimateTokens(trial) <= res.Budget {
			picked, texts = append(picked, c), append(texts, c.hit.Text)
			continue
		}
		// Cut this one to what is left, if that is worth it.
		room := res.Budget - text.EstimateTokens(render(append(picked, c), append(texts, "")))
		if cut := cutTo(c.hit.Text, room-text.EstimateTokens(truncationMarker)); cut != "" && room >= minTruncated {
			picked, texts = append(picked, c), append(texts, cut+truncationMarker)
			res.Truncated = true
			i++
		}
		res.Dropped = len(ranked) - i
		break
	}
	res.Context = render(picked, texts)
	res.UsedTokens = text.EstimateTokens(res.Context)
	for k, c := range picked {
		res.Items = append(res.Items, Item{Path: c.hit.Path, Heading: c.hit.Heading, Block: c.hit.Block,
			Source: sources(c), Layer: Layer(c.hit.Kind), Score: c.final, Tokens: text.EstimateTokens(texts[k]),
			Text: texts[k], Why: why(c, Layer(c.hit.Kind))})
	}
}

// LayerTask is the layer of the focused task's context.
const LayerTask = "task"

// fillBudgetAfter fills the budget with ranked items as fillBudget does,
// after the presets of r (the focused task's context first): as many of them, in order, as take at
// most half the budget together.
func (e *Engine) fillBudgetAfter(res *Result, ranked []*candidate, r Request) {
	presets := r.Presets
	if f := strings.TrimSpace(r.Focus); f != "" {
		presets = append([]Preset{{Layer: LayerTask, Title: "Focused task: " + r.FocusPath, Path: r.FocusPath, Text: f, Source: "focus",
			Why: "the context of the agent's focused task: its ancestors, siblings, children and log"}}, presets...)
	}
	var head []string
	var items []Item
	used := 0
	for _, p := range presets {
		t := strings.TrimSpace(p.Text)
		if t == "" {
			continue
		}
		block := "## " + p.Title + "\n" + t + "\n"
		n := text.EstimateTokens(block + "\n")
		if 2*(used+n) > res.Budget {
			continue
		}
		used += n
		head = append(head, block)
		items = append(items, Item{Path: p.Path, Source: p.Source, Layer: p.Layer, Tokens: text.EstimateTokens(block), Text: t, Why: p.Why})
	}
	if len(head) == 0 {
		e.fillBudget(res, ranked)
		return
	}
	budget := res.Budget
	res.Budget -= used
	e.fillBudget(res, ranked)
	res.Budget = budget
	res.Context = strings.TrimSuffix(strings.Join(append(head, res.Context), "\n"), "\n")
	if !strings.HasSuffix(res.Context, "\n") {
		res.Context += "\n"
	}
	res.UsedTokens = text.EstimateTokens(res.Context)
	res.Items = append(items, res.Items...)
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

// render writes the context: items grouped by note, in the order their
// notes first appear in the ranking, and in note order within a note;
// each note under a header with its path, its date when it has one, and
// how its items were found.
func render(picked []*candidate, texts []string) string {
	type group struct {
		header string
		items  []int
	}
	var groups []*group
	byPath := map[string]*group{}
	for i, c := range picked {
		g, ok := byPath[c.hit.Path]
		if !ok {
			h := "## " + c.hit.Path
			if len(c.hit.Date) >= 10 {
				h += " (" + c.hit.Date[:10] + ")"
			}
			g = &group{header: h}
			byPath[c.hit.Path] = g
			groups = append(groups, g)
		}
		g.items = append(g.items, i)
	}
	var b strings.Builder
	for gi, g := range groups {
		if gi > 0 {
			b.WriteString("\n")
		}
		b.WriteString(g.header)
		b.WriteString("\n")
		items := g.items
		sortByLine(items, picked)
		lastHeading := ""
		for _, i := range items {
			if h := section(picked[i].hit.Heading, picked[i].hit.Title, picked[i].hit.Path); h != "" && h != lastHeading {
				b.WriteString("### " + h + "\n")
				lastHeading = h
			}
			b.WriteString(texts[i])
			b.WriteString("\n")
		}
	}
	return b.String()
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
