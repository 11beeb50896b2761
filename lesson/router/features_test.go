package router

import (
	"math"
	"slices"
	"testing"
)

func TestWords(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"", nil},
		{"Run the integration tests", []string{"run", "integration", "tests"}},
		{"fix db/x.sql: migrate-up FAILED (exit 2)", []string{"fix", "db", "x", "sql", "migrate", "failed", "exit", "2"}},
		{"the a to of and", nil},
		{"Go go GO", []string{"go"}},
		{"déjà vu über Straße", []string{"déjà", "vu", "über", "straße"}},
		{"数据库 迁移", []string{"数据库", "迁移"}},
		{"don't", []string{"don", "t"}},
		{"x1234567890123456789012345678901234567890 y", []string{"y"}}, // 41 runes: too long
		{"snake_case and kebab-case", []string{"snake", "case", "kebab"}},
	} {
		if got := words(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("words(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestContextTerms(t *testing.T) {
	for _, tt := range []struct {
		name string
		s    Situation
		want []string
	}{
		{"empty", Situation{}, []string{}},
		{"text and tool", Situation{Text: "Run the tests", Tool: " Bash "},
			[]string{"w:run", "w:tests", "t:bash"}},
		{"paths", Situation{Paths: []string{"db/x.SQL", "./Docs/a/b.md", "README", "/abs/y.go", "../up/z.go", "", "."}},
			[]string{"e:sql", "d:db", "e:md", "d:docs", "e:go", "d:abs"}},
		{"repeats", Situation{Text: "go go", Paths: []string{"a/x.go", "a/y.go"}},
			[]string{"w:go", "e:go", "d:a"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := contextTerms(tt.s); !slices.Equal(got, tt.want) {
				t.Errorf("contextTerms(%+v) = %q, want %q", tt.s, got, tt.want)
			}
		})
	}
}

func TestContextTermsCaps(t *testing.T) {
	var s Situation
	for i := range 100 {
		s.Text += " w" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		s.Paths = append(s.Paths, "d"+string(rune('a'+i%26))+"/f.x")
	}
	got := contextTerms(s)
	if want := maxWords + 1 + maxPaths; len(got) != want {
		t.Errorf("%d terms, want %d (maxWords words, one extension, maxPaths folders)", len(got), want)
	}
}

func TestLessonTerms(t *testing.T) {
	for _, tt := range []struct {
		c    Candidate
		want []string
	}{
		{Candidate{}, []string{}},
		{Candidate{Path: "lessons/A.md", Domain: "Testing", Tags: []string{"#DB", "db", " ", "ci"}},
			[]string{"l:lessons/A.md", "o:testing", "g:db", "g:ci"}},
	} {
		if got := lessonTerms(tt.c); !slices.Equal(got, tt.want) {
			t.Errorf("lessonTerms(%+v) = %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestFeatures(t *testing.T) {
	ctx := hashTerms([]string{"w:run", "t:bash"})
	lesson := hashTerms([]string{"l:a.md", "o:testing"})
	got, x := features(nil, ctx, lesson, 1<<18)
	// (2+1)×(2+1) pairs but "*"×"*", the bias.
	if len(got) != 8 {
		t.Fatalf("%d features, want 8", len(got))
	}
	if want := 1 / math.Sqrt(8); x != want {
		t.Errorf("value %v, want %v", x, want)
	}
	seen := map[uint32]bool{}
	for _, b := range got {
		if seen[b] {
			t.Errorf("bucket %d twice: a collision among 8 features in 2^18 buckets is a bad hash", b)
		}
		seen[b] = true
	}
	if again, _ := features(got[:0:0], ctx, lesson, 1<<18); !slices.Equal(again, got) {
		t.Errorf("features are not deterministic: %v then %v", got, again)
	}
	if none, x := features(nil, hashTerms(nil), hashTerms(nil), 16); len(none) != 0 || x != 0 {
		t.Errorf("no terms: %v features of value %v, want none", none, x)
	}
	// A word crossed with a lesson is not the lesson crossed with the word.
	a, b := hashTerm("x"), hashTerm("y")
	if cross(a, b) == cross(b, a) {
		t.Error("cross is symmetric")
	}
}

// TestHashTerm pins the hash: a saved model's weights mean nothing under
// another one.
func TestHashTerm(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want uint64
	}{
		{"", 0xcbf29ce484222325},
		{"a", 0xaf63dc4c8601ec8c},
		{"foobar", 0x85944171f73967e8},
	} {
		if got := hashTerm(tt.s); got != tt.want {
			t.Errorf("hashTerm(%q) = %#x, want %#x", tt.s, got, tt.want)
		}
	}
}
