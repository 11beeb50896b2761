package embed

import "testing"

func TestStem(t *testing.T) {
	tests := []struct{ word, want string }{
		// Plurals.
		{"paints", "paint"},
		{"classes", "class"},
		{"class", "class"},
		{"parties", "parti"},
		{"party", "parti"},
		{"ties", "tie"},
		{"boxes", "box"},
		{"churches", "church"},
		{"wishes", "wish"},
		{"heroes", "hero"},
		{"status", "status"},
		{"analysis", "analysis"},
		{"notes", "note"},
		{"uses", "us"},
		{"news", "news"},
		{"series", "series"},
		// Verbs.
		{"painted", "paint"},
		{"painting", "paint"},
		{"paintings", "paint"},
		{"running", "run"},
		{"hoped", "hope"},
		{"hoping", "hope"},
		{"hopping", "hop"},
		{"making", "make"},
		{"noted", "note"},
		{"coding", "code"},
		{"created", "creat"},
		{"creating", "creat"},
		{"create", "creat"},
		{"studied", "studi"},
		{"studies", "studi"},
		{"studying", "studi"},
		{"carried", "carri"},
		{"carry", "carri"},
		{"tied", "tie"},
		{"agreed", "agre"},
		{"agree", "agre"},
		{"need", "need"},
		{"feed", "feed"},
		{"used", "us"},
		{"use", "us"},
		{"falling", "fall"},
		{"missing", "miss"},
		{"planned", "plan"},
		{"meeting", "meet"},
		{"going", "go"},
		// Words that only look inflected.
		{"bring", "bring"},
		{"string", "string"},
		{"king", "king"},
		{"shed", "shed"},
		{"morning", "morning"},
		{"evenings", "evening"},
		{"wedding", "wedding"},
		// Adverbs.
		{"quickly", "quick"},
		{"really", "real"},
		{"happily", "happi"},
		{"happy", "happi"},
		{"likely", "like"},
		{"weekly", "week"},
		{"family", "famili"},
		{"families", "famili"},
		{"apply", "appli"},
		{"supply", "suppli"},
		{"supplies", "suppli"},
		{"assembly", "assembli"},
		{"early", "earli"},
		{"butterfly", "butterfly"},
		{"day", "dai"},
		{"days", "dai"},
		{"sky", "sky"},
		// Final e.
		{"note", "note"},
		{"make", "make"},
		{"code", "code"},
		{"movie", "movi"},
		{"movies", "movi"},
		{"free", "free"},
		// Left alone: short, non a-z.
		{"bus", "bus"},
		{"ox", "ox"},
		{"gas", "gas"},
		{"café", "café"},
		{"mp3s", "mp3s"},
		{"organization", "organization"},
	}
	for _, tt := range tests {
		w := append(make([]byte, 0, len(tt.word)+1), tt.word...)
		if got := string(stem(w)); got != tt.want {
			t.Errorf("stem(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestMeasure(t *testing.T) {
	// The examples of Porter's paper.
	tests := []struct {
		word string
		want int
	}{
		{"tr", 0}, {"ee", 0}, {"tree", 0}, {"y", 0}, {"by", 0},
		{"trouble", 1}, {"oats", 1}, {"trees", 1}, {"ivy", 1},
		{"troubles", 2}, {"private", 2}, {"oaten", 2}, {"orrery", 2},
	}
	for _, tt := range tests {
		if got := measure([]byte(tt.word)); got != tt.want {
			t.Errorf("measure(%q) = %d, want %d", tt.word, got, tt.want)
		}
	}
}
