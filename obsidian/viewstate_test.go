package obsidian

import (
	"maps"
	"testing"
)

// TestParseStateMerged: the record of the view files vaultmem wrote, as
// two machines' versions merge (git's union rule, or conflict markers),
// still reads; a view recorded with two different hashes is left out, so
// that its file is taken for a person's and never overwritten.
func TestParseStateMerged(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       map[string]string
	}{
		{"union of two lists", stateHeader + "views/Tasks.base: aaa\nviews/Memories.base: bbb\nviews/Tasks.base: aaa\nviews/Lessons.base: ccc\n",
			map[string]string{"views/Tasks.base": "aaa", "views/Memories.base": "bbb", "views/Lessons.base": "ccc"}},
		{"conflict markers", stateHeader + "views/Tasks.base: aaa\n<<<<<<< ours\nviews/Memories.base: bbb\n=======\nviews/Memories.base: ddd\nviews/Lessons.base: ccc\n>>>>>>> theirs\n",
			map[string]string{"views/Tasks.base": "aaa", "views/Lessons.base": "ccc"}},
	} {
		got, err := parseState([]byte(tt.text))
		if err != nil || !maps.Equal(got, tt.want) {
			t.Errorf("%s: got %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
	if _, err := parseState([]byte("views/Tasks.base: [not, a, hash\n")); err == nil {
		t.Error("a broken state file read")
	}
}
