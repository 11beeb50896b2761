package lesson

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vaultmem/vaultmem/markdown"
)

// MergeRules are how git's merge driver combines two machines' changes to
// a lesson note, with the default rules (see MergeRulesFor).
var MergeRules = MergeRulesFor(DefaultRules())

// MergeRulesFor are how git's merge driver combines two machines' changes
// to a lesson note whose strength follows rules (see markdown.MergeRules):
// the History is append-only; application counts add up both sides'
// changes; last_applied and decayed take the later day, created the
// earlier, archived the earlier; and the strength is not merged but
// computed again from the merged History (Rules.Strength) for the later
// of both sides' days (decayed, last_applied, the last entry), so that the
// merge gives the same value on every machine, whatever its clock, and a
// day's decay on two machines counts once. A strength a person wrote on
// one side that its History does not give is recorded first, as a "set by
// hand" entry, and kept. An archived day one side's decay wrote is
// dropped and computed again from the merged History (an outcome on the
// other side may have kept the lesson alive); one a person wrote is kept.
func MergeRulesFor(rules Rules) markdown.MergeRules {
	rules, err := rules.Check()
	if err != nil {
		rules = DefaultRules() // Check refuses only what a config check refused first
	}
	return markdown.MergeRules{AppendOnly: []string{HistoryHeading}, Counts: []string{KeyApplications},
		Later: []string{KeyLastApplied, decayedKey, "updated"}, Earlier: []string{"created", KeyArchived},
		Settle: []func(base, ours, theirs *markdown.Note) markdown.Settlement{func(base, ours, theirs *markdown.Note) markdown.Settlement {
			return settle(rules, base, ours, theirs)
		}},
		Finish: []func(p string, merged []byte) ([]byte, error){func(p string, merged []byte) ([]byte, error) {
			return finish(rules, p, merged)
		}}}
}

// settle records each side's hand edit of strength in the History; when
// both sides changed the strength it settles it to the strength of the
// merged ledger (both Histories and the hand edits), which finish computes
// again on a clean merge; it drops an archived day a side's decay wrote,
// for finish to compute again from the merged History.
func settle(r Rules, base, ours, theirs *markdown.Note) markdown.Settlement {
	if ours.Type() != Type || theirs.Type() != Type {
		return markdown.Settlement{}
	}
	st := markdown.Settlement{Section: HistoryHeading}
	ourLed, theirLed := ReadLedger(ours), ReadLedger(theirs)
	// The merged ledger: ours, what theirs added to base's History, and
	// each side's hand edit; computed for the later side's day.
	led := ourLed
	led.Entries = slices.Concat(ourLed.Entries, added(ReadLedger(base).Entries, theirLed.Entries))
	led.LastApplied = later(ourLed.LastApplied, theirLed.LastApplied)
	if led.Created.IsZero() || !theirLed.Created.IsZero() && theirLed.Created.Before(led.Created) {
		led.Created = theirLed.Created
	}
	day := later(cacheDay(ours, ourLed), cacheDay(theirs, theirLed))
	for _, side := range []struct {
		n   *markdown.Note
		led Ledger
	}{{ours, ourLed}, {theirs, theirLed}} {
		e, line, ok := handEdit(r, side.n, side.led, time.Time{})
		if ok && !recorded(line, st.Entries, ours, theirs) {
			st.Entries = append(st.Entries, line)
			led.Entries = append(led.Entries, e)
		}
	}
	bs, us, ts := scalar(base, KeyStrength), scalar(ours, KeyStrength), scalar(theirs, KeyStrength)
	if !day.IsZero() && us != bs && ts != bs && us != ts {
		// Computed here too, so that the strength is right also when the
		// merge is not clean (finish runs on clean merges only); without
		// a day to compute for, the clash is a person's to decide.
		st.Keys = append(st.Keys, markdown.KeyValue{Key: KeyStrength, Value: r.Strength(led, day).Strength})
	}
	// Confidence is a function of the History's outcomes (see
	// Confidence): both sides' outcomes are the merged ledger's.
	if bc, uc, tc := scalar(base, KeyConfidence), scalar(ours, KeyConfidence), scalar(theirs, KeyConfidence); uc != bc && tc != bc && uc != tc {
		st.Keys = append(st.Keys, markdown.KeyValue{Key: KeyConfidence, Value: ledgerConfidence(led)})
	}
	drop := false
	for _, side := range []struct {
		n   *markdown.Note
		led Ledger
	}{{ours, ourLed}, {theirs, theirLed}} {
		a := scalar(side.n, KeyArchived)
		if a == "" || a == scalar(base, KeyArchived) {
			continue
		}
		if on := r.Strength(side.led, cacheDay(side.n, side.led)).ArchivedOn; !on.IsZero() && on.Format(DateLayout) == a {
			drop = true // written by decay
		} else {
			return st // a person's, or an older note's true: kept (the earlier when both wrote one)
		}
	}
	if drop {
		st.Keys = append(st.Keys, markdown.KeyValue{Key: KeyArchived})
	}
	return st
}

// later is the later of two days (zero is earliest).
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// added are the entries of side that base lacks (each entry counted: an
// entry twice in side and once in base is added once).
func added(base, side []Entry) []Entry {
	have := map[Entry]int{}
	for _, e := range base {
		have[e]++
	}
	var out []Entry
	for _, e := range side {
		if have[e] > 0 {
			have[e]--
			continue
		}
		out = append(out, e)
	}
	return out
}

// recorded reports whether History line is among entries or in the
// History of ours or theirs already (a writer recorded the same edit).
func recorded(line string, entries []string, ours, theirs *markdown.Note) bool {
	if slices.Contains(entries, line) {
		return true
	}
	for _, n := range []*markdown.Note{ours, theirs} {
		if sec, ok := markdown.Section(n, HistoryHeading); ok && slices.Contains(strings.Split(strings.ReplaceAll(sec, "\r\n", "\n"), "\n"), line) {
			return true
		}
	}
	return false
}

// scalar is the text of frontmatter key in n; "" when it has none.
func scalar(n *markdown.Note, key string) string {
	if n == nil {
		return ""
	}
	s, _ := n.Frontmatter.String(key)
	return strings.TrimSpace(s)
}

// finish computes the merged lesson note's strength (and archived day)
// from its merged History, for the later of both sides' days, and its
// confidence from the History's outcomes when it has any.
func finish(r Rules, p string, merged []byte) ([]byte, error) {
	n := markdown.Parse(p, merged)
	if n.Type() != Type {
		return merged, nil
	}
	v, ok := n.Frontmatter.String(KeyStrength)
	written, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if ok && (err != nil || math.IsNaN(written)) {
		return merged, nil // broken by hand: Read reports it, nobody computes over it
	}
	led := ReadLedger(n)
	day := cacheDay(n, led)
	if day.IsZero() {
		return merged, nil // no day to compute for
	}
	c := r.Strength(led, day)
	var kv []any
	if !ok || round(written) != c.Strength {
		kv = append(kv, KeyStrength, c.Strength)
	}
	if conf := ledgerConfidence(led); hasOutcome(led) && scalar(n, KeyConfidence) != num(conf) {
		kv = append(kv, KeyConfidence, conf)
	}
	if !c.ArchivedOn.IsZero() && n.Frontmatter.Value(KeyArchived) == nil {
		kv = append(kv, KeyArchived, markdown.FromJSON(c.ArchivedOn.Format(DateLayout)))
	}
	if len(kv) == 0 {
		return merged, nil
	}
	return markdown.SetFrontmatterKeys(p, merged, kv...)
}
