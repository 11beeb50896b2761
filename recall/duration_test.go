package recall

import (
	"slices"
	"testing"

	"github.com/vaultmem/vaultmem/index"
)

func TestAsksDuration(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want bool
	}{
		{"How long has Caroline had her current group of friends for?", true},
		{"how long did the migration take?", true},
		{"How long ago was her 18th birthday?", true},
		{"For how long have we used Postgres?", true},
		{"How many years has she been painting?", true},
		{"how many days did the outage last", true},
		{"Since when do we deploy on Fridays?", true},
		{"迁移花了多久?", true},
		{"这个项目做了多长时间?", true},
		{"他学画画几年了?", true},
		{"我们用了多少天修好这个问题?", true},
		{"When did we move to Postgres?", false},
		{"How many people came to the launch?", false},
		{"What did Melanie paint last week?", false},
		{"long story short, what broke?", false},
		{"为什么构建失败了?", false},
	} {
		if got := asksDuration(tc.q); got != tc.want {
			t.Errorf("asksDuration(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestStatesDuration(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"I've known these friends for 4 years, since I moved from my home country.", true},
		{"We have been married five years now.", true},
		{"The migration took a few weeks.", true},
		{"I've been painting since 2016.", true},
		{"I've loved music since I was a kid.", true},
		{"The outage lasted 3 hours.", true},
		{"We have used Postgres for years.", true},
		{"It has been a couple of months since the launch.", true},
		{"迁移用了三个月。", true},
		{"我画画已经7年了。", true},
		{"这几天一直在下雨,两周以来没有出门。", true},
		{"The meeting is on 2023-05-07 at 10:00.", false},
		{"I went to the beach with my kids.", false},
		{"Version 4 of the API shipped.", false},
		{"她喜欢画画。", false},
	} {
		if got := statesDuration(tc.text); got != tc.want {
			t.Errorf("statesDuration(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestRankPrefersALengthOfTime: for a question that asks how long, a
// chunk stating a length of time ranks above one the engines ranked
// higher; for another question the engines' order stands.
func TestRankPrefersALengthOfTime(t *testing.T) {
	ranked := func(q string) []string {
		s := &search{e: New(nil, Options{}), route: DefaultRoutes()[SimpleFact], budget: 500, cands: map[int64]*candidate{}, duration: asksDuration(q)}
		s.add("exact", []index.Result{
			{Chunk: 1, Path: "fair.md", Text: "Ana's painting: painting after painting at the fair.", Tokens: 10},
			{Chunk: 2, Path: "school.md", Text: "Ana has been at it for 7 years, painting since art school.", Tokens: 12},
		}, 1)
		var paths []string
		for _, c := range s.rank() {
			paths = append(paths, c.hit.Path)
		}
		return paths
	}
	if got := ranked("How long has Ana been painting?"); !slices.Equal(got, []string{"school.md", "fair.md"}) {
		t.Errorf("how long: %v, want school.md (for 7 years) first", got)
	}
	if got := ranked("What is Ana painting?"); !slices.Equal(got, []string{"fair.md", "school.md"}) {
		t.Errorf("what: %v, want the engines' order", got)
	}
}
