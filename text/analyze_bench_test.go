package text

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchText is prose as notes hold it: the generator's word list run
// together into sentences, with punctuation, digits and an accented word.
func benchText(b *testing.B) string {
	words, err := os.ReadFile(filepath.Join("..", "fixtures", "gen", "words.txt"))
	if err != nil {
		b.Fatal(err)
	}
	ws := strings.Fields(string(words))
	var sb strings.Builder
	for i := 0; sb.Len() < 64<<10; i++ {
		sb.WriteString(ws[(i*7919)%len(ws)])
		switch i % 11 {
		case 3:
			sb.WriteString(", ")
		case 7:
			sb.WriteString(". The 2nd café's ")
		default:
			sb.WriteByte(' ')
		}
	}
	return sb.String()
}

// BenchmarkAnalyzed analyzes 64 KB of prose on every core at once, as an
// index's readers do.
func BenchmarkAnalyzed(b *testing.B) {
	s := benchText(b)
	b.SetBytes(int64(len(s)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			Analyzed(s)
		}
	})
}
