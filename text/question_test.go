package text_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/text"
)

// trace is a Go stack trace of n frames.
func trace(n int) string {
	var b strings.Builder
	b.WriteString("panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a2b3c]\n\ngoroutine 1 [running]:\n")
	for i := range n {
		b.WriteString("github.com/acme/importer/internal/csv.(*Reader).readRecord(0xc000123456, 0x0)\n\t/home/ann/src/importer/internal/csv/reader.go:")
		b.WriteString(strings.Repeat("1", 1+i%3))
		b.WriteString(" +0x1a5\n")
	}
	return b.String()
}

func TestQuestion(t *testing.T) {
	for _, tt := range []struct {
		name, msg string
		want      []string // lines the result holds
		not       []string // lines it must not
	}{
		{"short: as it is", "why does the importer crash?", []string{"why does the importer crash?"}, nil},
		{"a question around a 13 KB trace",
			"I ran the importer on the March export and got this:\n" + trace(120) + "\nWhy does the CSV reader crash on empty rows?\n",
			[]string{"Why does the CSV reader crash on empty rows?", "I ran the importer on the March export and got this:"},
			[]string{"goroutine 1 [running]:", "panic: runtime error"}},
		{"a question first, a 1 MB log after",
			"How do we handle the file size limit when the build fails?\n" + strings.Repeat("2026-11-29T10:00:00Z INFO build step 42 done in 12ms\n", 20000),
			[]string{"How do we handle the file size limit when the build fails?"}, []string{"INFO build step"}},
		{"no prose at all: the ends stand for it", strings.Repeat("0x1234 0x5678 0x9abc\n", 2000) + "0xffff end\n",
			[]string{"0x1234 0x5678 0x9abc", "0xffff end"}, nil},
	} {
		got := text.Question(tt.msg, 2000)
		if len(got) > 2000 || !utf8.ValidString(got) {
			t.Errorf("%s: %d bytes, valid UTF-8 %v", tt.name, len(got), utf8.ValidString(got))
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: lacks %q:\n%s", tt.name, w, got)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: holds %q:\n%s", tt.name, w, got)
			}
		}
	}
}

func FuzzQuestion(f *testing.F) {
	f.Add("why?\n"+trace(40), 200)
	f.Add("é"+strings.Repeat("ü", 600), 301)
	f.Fuzz(func(t *testing.T, msg string, max int) {
		if max < 1 || max > 1<<16 {
			return
		}
		got := text.Question(msg, max)
		if len(got) > max || (utf8.ValidString(msg) && !utf8.ValidString(got)) {
			t.Fatalf("Question(%d bytes, %d) = %d bytes %q", len(msg), max, len(got), got)
		}
	})
}
