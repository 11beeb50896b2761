package memory_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
)

// doc is MEMORY.md at file with human text before and after the region
// and the region listing es and rs, as Render writes it.
func doc(t testing.TB, file, before string, es []memory.Entry, rs []memory.Review, after string) string {
	t.Helper()
	out, st, err := memory.Render(file, []byte(before+memory.Begin+memory.End+after), es, rs)
	if err != nil {
		t.Fatal(err)
	}
	if st.Omitted > 0 {
		t.Fatalf("doc: %d memories left out; keep test documents small", st.Omitted)
	}
	return string(out)
}

// withStray is content with a line vaultmem never writes at the top of
// its region: the same memories in other bytes.
func withStray(content string) string {
	return strings.Replace(content, memory.Begin+"\n", memory.Begin+"\nA line typed by hand.\n", 1)
}

var (
	mRole     = memory.Entry{Path: "memory/user_role.md", Type: memory.User, Title: "User role", Hook: "senior Go engineer"}
	mTesting  = memory.Entry{Path: "memory/feedback_testing.md", Type: memory.Feedback, Title: "Testing feedback", Hook: "integration tests hit a real database"}
	mFreeze   = memory.Entry{Path: "memory/project_freeze.md", Type: memory.Project, Title: "Release freeze", Hook: "merge freeze from 2026-03-05"}
	mAlpha    = memory.Entry{Path: "memory/alpha.md", Type: memory.Project, Title: "Alpha", Hook: "made on machine A"}
	mBeta     = memory.Entry{Path: "memory/beta.md", Type: memory.Project, Title: "Beta", Hook: "made on machine B"}
	mTracker  = memory.Entry{Path: "memory/reference_linear.md", Type: memory.Reference, Title: "Bug tracker", Hook: "Linear INGEST"}
	mOdd      = memory.Entry{Path: "memory/a [draft] (v2) #1 50% 🚀 é.md", Type: memory.Feedback, Title: `Odd [title] with \ back\slash`, Hook: "hook — with a dash"}
	mOdd2     = memory.Entry{Path: "other folder/100%?.md", Type: memory.Reference, Title: "]starts odd[", Hook: "emoji 🧠 hook"}
	hand      = "# Team memory\n\nWritten by hand.\n\n"
	handAfter = "\n\nFooter by hand.\n"
)

func changed(e memory.Entry, hook string) memory.Entry { e.Hook = hook; return e }

func TestMergeIndex(t *testing.T) {
	es := func(e ...memory.Entry) []memory.Entry { return e }
	d := func(es []memory.Entry, rs ...memory.Review) string {
		return doc(t, "MEMORY.md", hand, es, rs, handAfter)
	}
	review := func(a, b memory.Entry, why string) memory.Review { return memory.Review{A: a, B: b, Reason: why} }
	broken := hand + memory.Begin + "\n- [X](x.md)\n"
	for _, c := range []struct {
		name                string
		base, ours, theirs  string
		want                string
		wantErr             error
		wantParseErrVersion string
	}{
		{name: "each side adds a memory of the same type",
			base: d(es(mRole)), ours: d(es(mRole, mBeta)), theirs: d(es(mRole, mAlpha)),
			want: d(es(mRole, mAlpha, mBeta))},
		{name: "each side adds a memory of another type",
			base: d(es(mRole)), ours: d(es(mRole, mTracker)), theirs: d(es(mRole, mTesting)),
			want: d(es(mRole, mTesting, mTracker))},
		{name: "one side deletes a memory the other left alone",
			base: d(es(mRole, mFreeze)), ours: d(es(mRole)), theirs: d(es(mRole, mFreeze, mAlpha)),
			want: d(es(mRole, mAlpha))},
		{name: "both delete the same memory",
			base: d(es(mRole, mFreeze)), ours: d(es(mRole, mAlpha)), theirs: d(es(mRole, mBeta)),
			want: d(es(mRole, mAlpha, mBeta))},
		{name: "one side changes a line, the other adds one",
			base: d(es(mRole, mFreeze)), ours: d(es(mRole, changed(mFreeze, "moved to April"))), theirs: d(es(mRole, mFreeze, mBeta)),
			want: d(es(mRole, changed(mFreeze, "moved to April"), mBeta))},
		{name: "both change the same line: theirs",
			base: d(es(mRole, mFreeze)), ours: d(es(mRole, changed(mFreeze, "ours"), mAlpha)), theirs: d(es(mRole, changed(mFreeze, "theirs"), mBeta)),
			want: d(es(mRole, changed(mFreeze, "theirs"), mAlpha, mBeta))},
		{name: "both add the same path differently: theirs",
			base: d(es(mRole)), ours: d(es(mRole, changed(mAlpha, "ours"), mTracker)), theirs: d(es(mRole, changed(mAlpha, "theirs"))),
			want: d(es(mRole, changed(mAlpha, "theirs"), mTracker))},
		{name: "deleted on one side, changed on the other: deleted",
			base: d(es(mRole, mFreeze)), ours: d(es(mRole, mAlpha)), theirs: d(es(mRole, changed(mFreeze, "theirs"))),
			want: d(es(mRole, mAlpha))},
		{name: "a memory's type changed on one side moves it",
			base: d(es(mRole, mFreeze)), ours: d(es(mRole, memory.Entry{Path: mFreeze.Path, Type: memory.Reference, Title: mFreeze.Title, Hook: mFreeze.Hook})),
			theirs: d(es(mRole, mFreeze, mBeta)),
			want:   d(es(mRole, memory.Entry{Path: mFreeze.Path, Type: memory.Reference, Title: mFreeze.Title, Hook: mFreeze.Hook}, mBeta))},
		{name: "human text changed on one side",
			base:   d(es(mRole)),
			ours:   doc(t, "MEMORY.md", "# Our memory\r\n\r\nEdited by hand.  \n", es(mRole, mAlpha), nil, handAfter),
			theirs: d(es(mRole, mBeta)),
			want:   doc(t, "MEMORY.md", "# Our memory\r\n\r\nEdited by hand.  \n", es(mRole, mAlpha, mBeta), nil, handAfter)},
		{name: "text before changed on one side, after on the other",
			base:   d(es(mRole)),
			ours:   doc(t, "MEMORY.md", "Ours above.\n", es(mRole, mAlpha), nil, handAfter),
			theirs: doc(t, "MEMORY.md", hand, es(mRole, mBeta), nil, "\nTheirs below.\n"),
			want:   doc(t, "MEMORY.md", "Ours above.\n", es(mRole, mAlpha, mBeta), nil, "\nTheirs below.\n")},
		{name: "human text changed on both sides",
			base:    d(es(mRole)),
			ours:    doc(t, "MEMORY.md", "Ours.\n", es(mRole, mAlpha), nil, handAfter),
			theirs:  doc(t, "MEMORY.md", "Theirs.\n", es(mRole, mBeta), nil, handAfter),
			wantErr: memory.ErrMergeConflict},
		{name: "human text changed the same way on both sides",
			base:   d(es(mRole)),
			ours:   doc(t, "MEMORY.md", "Both.\n", es(mRole, mAlpha), nil, handAfter),
			theirs: doc(t, "MEMORY.md", "Both.\n", es(mRole, mBeta), nil, handAfter),
			want:   doc(t, "MEMORY.md", "Both.\n", es(mRole, mAlpha, mBeta), nil, handAfter)},
		{name: "added on both sides, same human text",
			base: "", ours: d(es(mRole)), theirs: d(es(mAlpha)),
			want: d(es(mRole, mAlpha))},
		{name: "added on both sides, different human text",
			base: "", ours: d(es(mRole)), theirs: doc(t, "MEMORY.md", "# Theirs\n\n", es(mAlpha), nil, handAfter),
			wantErr: memory.ErrMergeConflict},
		{name: "no markers anywhere, changed on both sides",
			base: "- [A](a.md) — a\n", ours: "- [A](a.md) — a\n- [B](b.md) — b\n", theirs: "- [A](a.md) — a\n- [C](c.md) — c\n",
			wantErr: memory.ErrMergeConflict},
		{name: "a Claude Code file adopted on one side, edited by hand on the other",
			base:   "- [A](a.md) — a\n",
			ours:   doc(t, "MEMORY.md", "- [A](a.md) — a\n\n", es(mRole), nil, "\n"),
			theirs: "- [A](a.md) — a, edited\n",
			want:   doc(t, "MEMORY.md", "- [A](a.md) — a, edited\n\n", es(mRole), nil, "\n")},
		{name: "odd titles and paths round-trip",
			base: d(es(mRole)), ours: d(es(mRole, mOdd)), theirs: d(es(mRole, mOdd2)),
			want: d(es(mRole, mOdd, mOdd2))},
		{name: "odd titles and paths changed on one side",
			base: d(es(mOdd, mOdd2)), ours: d(es(changed(mOdd, "new [hook]"), mOdd2)), theirs: d(es(mOdd, mOdd2, mAlpha)),
			want: d(es(changed(mOdd, "new [hook]"), mOdd2, mAlpha))},
		{name: "reviews merge by their pair of paths",
			base:   d(es(mRole, mTesting, mFreeze, mAlpha)),
			ours:   d(es(mRole, mTesting, mFreeze, mAlpha), review(mTesting, mFreeze, "always vs never")),
			theirs: d(es(mRole, mTesting, mFreeze, mAlpha), review(mOdd, mAlpha, "odd one")),
			want:   d(es(mRole, mTesting, mFreeze, mAlpha), review(mTesting, mFreeze, "always vs never"), review(mOdd, mAlpha, "odd one"))},
		{name: "a review of a memory the merge deleted goes",
			base:   d(es(mRole, mTesting, mFreeze), review(mTesting, mFreeze, "why")),
			ours:   d(es(mRole, mTesting), review(mTesting, mFreeze, "why")),
			theirs: d(es(mRole, mTesting, mFreeze, mBeta), review(mTesting, mFreeze, "why")),
			want:   d(es(mRole, mTesting, mBeta))},
		{name: "the omission line and lines typed into the region are dropped",
			base: d(es(mRole)),
			ours: strings.Replace(d(es(mRole, mAlpha)), memory.End,
				"just a thought\n\n_3 more memories not listed (project 3): `vaultmem list --type TYPE`._\n\n"+memory.End, 1),
			theirs: d(es(mRole, mBeta)),
			want:   d(es(mRole, mAlpha, mBeta))},
		{name: "equal sides win whatever the base",
			base: d(es(mTracker)), ours: withStray(d(es(mRole))), theirs: withStray(d(es(mRole))),
			want: withStray(d(es(mRole)))},
		{name: "broken markers in theirs",
			base: d(es(mRole)), ours: d(es(mRole, mAlpha)), theirs: broken,
			wantParseErrVersion: "theirs"},
		{name: "broken markers in base",
			base: memory.End + "\n" + memory.Begin + "\n", ours: d(es(mRole, mAlpha)), theirs: d(es(mRole)),
			wantParseErrVersion: "base"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := memory.MergeList("MEMORY.md", []byte(c.base), []byte(c.ours), []byte(c.theirs), nil)
			var pe *markdown.ParseError
			switch {
			case c.wantParseErrVersion != "":
				if !errors.As(err, &pe) || pe.Path != "MEMORY.md ("+c.wantParseErrVersion+")" || pe.Line == 0 {
					t.Fatalf("err %v, want a *markdown.ParseError naming the %s version and the line", err, c.wantParseErrVersion)
				}
			case c.wantErr != nil:
				if !errors.Is(err, c.wantErr) || !strings.Contains(err.Error(), "MEMORY.md") {
					t.Fatalf("err %v, want %v naming the file", err, c.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case string(got) != c.want:
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
			if c.wantErr == nil {
				if strings.Contains(string(got), "<<<<<<<") {
					t.Errorf("conflict markers in\n%s", got)
				}
				return
			}
			// A conflict leaves both sides' lines between git's markers,
			// as the note driver does: a person decides, nothing is lost.
			if !strings.Contains(string(got), "<<<<<<< ours\n") || !strings.Contains(string(got), ">>>>>>> theirs\n") {
				t.Errorf("no conflict markers in\n%s", got)
			}
			for _, side := range []string{c.ours, c.theirs} {
				for _, line := range strings.Split(side, "\n") {
					if !strings.Contains(string(got), line) {
						t.Errorf("line %q lost in\n%s", line, got)
					}
				}
			}
		})
	}
}

// TestMergeIndexRelative: links are relative to MEMORY.md's folder (git's
// %P), including to memories outside it.
func TestMergeIndexRelative(t *testing.T) {
	const file = "notes/MEMORY.md"
	in := memory.Entry{Path: "notes/memory/in here.md", Type: memory.User, Title: "In", Hook: "h"}
	out := memory.Entry{Path: "elsewhere/out.md", Type: memory.User, Title: "Out", Hook: "h"}
	root := memory.Entry{Path: "root.md", Type: memory.Project, Title: "Root", Hook: "h"}
	base := doc(t, file, hand, []memory.Entry{in}, nil, "")
	got, err := memory.MergeList(file, []byte(base), []byte(doc(t, file, hand, []memory.Entry{in, out}, nil, "")),
		[]byte(doc(t, file, hand, []memory.Entry{in, root}, nil, "")), nil)
	if want := doc(t, file, hand, []memory.Entry{in, out, root}, nil, ""); err != nil || string(got) != want {
		t.Errorf("got %v\n%s\nwant\n%s", err, got, want)
	}
}

// randomDoc returns the parts of a random MEMORY.md: human text, memories
// (with titles and paths of every awkward kind) and reviews among them.
func randomDoc(r *rand.Rand) (before string, es []memory.Entry, rs []memory.Review, after string) {
	befores := []string{"", "# Memory\n\n", hand, "Hand text\r\n\r\n", "emoji 🧠 text [x](y.md)\n"}
	afters := []string{"", "\n", handAfter, "\nno newline at the end"}
	words := []string{"a", "Go", "[b]", "c]", "[d", `\e`, "f\\", "—", "(g)", "h%20", "#i", "j?k", "日本", "🚀", "", "  ", "l\tm", "é", "x—y", "](z)"}
	folders := []string{"", "memory/", "memory/sub dir/", "other (x)/", "%41/"}
	phrase := func(n int) string {
		var b strings.Builder
		for range r.IntN(n) {
			b.WriteString(words[r.IntN(len(words))])
			if r.IntN(3) > 0 {
				b.WriteString(" ")
			}
		}
		return b.String()
	}
	kinds := []memory.Type{memory.User, memory.Feedback, memory.Project, memory.Reference}
	seen := map[string]bool{}
	for range r.IntN(25) {
		p := folders[r.IntN(len(folders))] + strings.NewReplacer("/", "-", "\t", "_").Replace(phrase(6)) + fmt.Sprint(r.IntN(1000)) + ".md"
		if seen[p] {
			continue
		}
		seen[p] = true
		// Titles as MEMORY.md shows them (one line, spaces collapsed),
		// different in their first characters: Render orders by the whole
		// title, which a clipped line no longer shows.
		title := fmt.Sprintf("%d %s%s", len(es), phrase(8), strings.Repeat(" long", r.IntN(3)*r.IntN(20)))
		es = append(es, memory.Entry{Path: p, Type: kinds[r.IntN(4)], Title: strings.Join(strings.Fields(title), " "), Hook: phrase(30)})
	}
	for range r.IntN(4) {
		if len(es) < 2 {
			break
		}
		a, b := es[r.IntN(len(es))], es[r.IntN(len(es))]
		if !slices.ContainsFunc(rs, func(x memory.Review) bool { return x.A.Path == a.Path && x.B.Path == b.Path }) {
			rs = append(rs, memory.Review{A: a, B: b, Reason: phrase(40)})
		}
	}
	return befores[r.IntN(len(befores))], es, rs, afters[r.IntN(len(afters))]
}

// TestMergeIndexSelf: merging any X that Render made with itself gives X,
// whatever the base; and so does merging it with the same memories in
// other bytes, which takes the file apart and writes it again.
func TestMergeIndexSelf(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 300 {
		before, es, rs, after := randomDoc(r)
		x := doc(t, "MEMORY.md", before, es, rs, after)
		_, other, _, _ := randomDoc(r)
		base := doc(t, "MEMORY.md", before, other, nil, after)
		for _, c := range []struct{ name, base, theirs string }{
			{"self", x, x},
			{"self, another base", base, x},
			{"self, no base", "", x},
			{"other bytes", base, withStray(x)},
			{"other bytes, no base", "", withStray(x)},
		} {
			got, err := memory.MergeList("MEMORY.md", []byte(c.base), []byte(x), []byte(c.theirs), nil)
			if err != nil || string(got) != x {
				t.Fatalf("case %d, %s: %v\ngot\n%q\nwant\n%q", i, c.name, err, got, x)
			}
		}
	}
}

// TestMergeIndexUnion: memories added on each side since a base, and
// deleted on both, come out as Render lists the union.
func TestMergeIndexUnion(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for i := range 300 {
		before, es, _, after := randomDoc(r)
		var base, ours, theirs, want []memory.Entry
		for _, e := range es {
			switch r.IntN(4) {
			case 0: // in every version
				base, ours, theirs, want = append(base, e), append(ours, e), append(theirs, e), append(want, e)
			case 1: // added by us
				ours, want = append(ours, e), append(want, e)
			case 2: // added by them
				theirs, want = append(theirs, e), append(want, e)
			case 3: // deleted on both sides
				base = append(base, e)
			}
		}
		d := func(es []memory.Entry) []byte { return []byte(doc(t, "MEMORY.md", before, es, nil, after)) }
		got, err := memory.MergeList("MEMORY.md", d(base), d(ours), d(theirs), nil)
		if err != nil || string(got) != string(d(want)) {
			t.Fatalf("case %d: %v\ngot\n%s\nwant\n%s", i, err, got, d(want))
		}
	}
}

func FuzzMergeIndex(f *testing.F) {
	var a, b []memory.Entry
	a = append(a, mRole, mOdd, mFreeze)
	b = append(b, mRole, mOdd2, changed(mFreeze, "x"))
	da, db := doc(f, "MEMORY.md", hand, a, nil, handAfter), doc(f, "MEMORY.md", hand, b, []memory.Review{{A: mRole, B: mOdd, Reason: "r"}}, handAfter)
	f.Add("", da, db)
	f.Add(da, db, da+"x")
	f.Add(da, withStray(db), "- [A](a.md) — a\n")
	f.Add(memory.Begin, memory.End, da)
	f.Add(da, "- [a](%0A.md)\n"+da, "## User\n- [\\](b%2.md) — \r\n"+db)
	f.Add("", memory.Begin+"\n## User\n- [a  z](z.md)\n- [a b](b.md)\n"+memory.End, memory.Begin+"\n"+memory.End)
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		got, err := memory.MergeList("MEMORY.md", []byte(base), []byte(ours), []byte(theirs), nil)
		var pe *markdown.ParseError
		if err != nil {
			if !errors.Is(err, memory.ErrMergeConflict) && !errors.As(err, &pe) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if _, _, err := memory.Render("MEMORY.md", got, nil, nil); err != nil {
			t.Fatalf("merged file has broken markers: %v\n%q", err, got)
		}
		if s := string(got); s == ours || s == theirs || strings.Contains(s, "memories not listed (") {
			return
		}
		// A file the merge wrote reads back as the same memories.
		again, err := memory.MergeList("MEMORY.md", nil, got, []byte(withStray(string(got))), nil)
		if err != nil || string(again) != string(got) {
			t.Fatalf("merged file does not read back: %v\n%q\n%q", err, got, again)
		}
	})
}

// TestMergeIndexMarkersInCode: markers a human shows in a fenced block
// are text to the merge driver too, on each side.
func TestMergeIndexMarkersInCode(t *testing.T) {
	example := "# Team memory\n\nThe region looks like this:\n\n```\n" + memory.Begin + "\n- [X](x.md)\n" + memory.End + "\n```\n\n"
	ours := example + "Ours, by hand.\n"
	theirs := example
	out, err := memory.MergeList("MEMORY.md", []byte(example), []byte(ours), []byte(theirs), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), example) {
		t.Errorf("the example changed:\n%s", out)
	}
	if string(out) != ours {
		t.Errorf("merged:\n%s", out)
	}
}

// TestMergeIndexKeepsReport: the link to Dream's report survives a merge
// of MEMORY.md, with the reviews it goes with; with no review left, it
// goes too.
func TestMergeIndexKeepsReport(t *testing.T) {
	report := memory.Review{A: memory.Entry{Path: "memory/dream-log.md", Title: memory.ReportTitle}, Report: true}
	flag := memory.Review{A: mRole, B: mOdd, Reason: "always vs never"}
	es := []memory.Entry{mRole, mOdd}
	base := doc(t, "MEMORY.md", hand, es, nil, handAfter)
	ours := doc(t, "MEMORY.md", hand, es, []memory.Review{flag, report}, handAfter)
	theirs := doc(t, "MEMORY.md", hand, append(es, mFreeze), nil, handAfter)
	got, err := memory.MergeList("MEMORY.md", []byte(base), []byte(ours), []byte(theirs), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := doc(t, "MEMORY.md", hand, append(es, mFreeze), []memory.Review{flag, report}, handAfter); string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if out := doc(t, "MEMORY.md", hand, es, []memory.Review{report}, handAfter); strings.Contains(out, "Needs review") {
		t.Errorf("the report alone makes a Needs review section:\n%s", out)
	}
}
