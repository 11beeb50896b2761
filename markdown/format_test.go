package markdown_test

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/vaultmem/vaultmem/markdown"
	"go.yaml.in/yaml/v3"
)

// parseBack reads a formatted note the way a caller would: its frontmatter
// keys in order with their values decoded to plain Go values, and its body.
func parseBack(t *testing.T, note []byte) ([]markdown.Field, string) {
	t.Helper()
	n := markdown.Parse("n.md", note)
	if len(n.Warnings) > 0 || n.Frontmatter == nil {
		t.Fatalf("formatted note does not parse: %v\n%s", n.Warnings, note)
	}
	var fields []markdown.Field
	c := n.Frontmatter.Node.Content
	for i := 0; i+1 < len(c); i += 2 {
		var v any
		if err := c[i+1].Decode(&v); err != nil {
			t.Fatalf("decode %q: %v\n%s", c[i].Value, err, note)
		}
		fields = append(fields, markdown.Field{Key: c[i].Value, Value: v})
	}
	return fields, string(n.Body())
}

// checkIdempotent formats the parsed-back note again and wants the same bytes.
func checkIdempotent(t *testing.T, note []byte) {
	t.Helper()
	fields, body := parseBack(t, note)
	if again := markdown.Format(fields, body); !bytes.Equal(again, note) {
		t.Fatalf("Format is not idempotent:\nfirst:  %q\nsecond: %q", note, again)
	}
}

func TestFormat(t *testing.T) {
	day := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	tests := []struct {
		name   string
		fields []markdown.Field
		body   string
		want   string
	}{
		{
			name: "tricky strings are quoted",
			fields: []markdown.Field{
				{"name", "yes"}, {"version", "1.0"}, {"link", "[[X]]"}, {"colon", ": x"},
				{"tag", "#tag"}, {"empty", ""}, {"null string", "null"}, {"date string", "2024-01-02"},
				{"plain", "just text"},
			},
			body: "Body",
			want: "---\nname: \"yes\"\nversion: \"1.0\"\nlink: \"[[X]]\"\ncolon: ': x'\ntag: '#tag'\nempty: \"\"\n" +
				"null string: \"null\"\ndate string: \"2024-01-02\"\nplain: just text\n---\n\nBody\n",
		},
		{
			name: "multi-line strings use block scalars",
			fields: []markdown.Field{
				{"text", "line 1\nline 2\n"}, {"nofinal", "a\nb"}, {"indented", "  code\nx\n"},
				{"blank lines after", "a\n\n"},
			},
			want: "---\ntext: |\n  line 1\n  line 2\nnofinal: |-\n  a\n  b\nindented: \"  code\\nx\\n\"\n" +
				"blank lines after: \"a\\n\\n\"\n---\n",
		},
		{
			name: "other types",
			fields: []markdown.Field{
				{"tags", []string{"a", "b"}}, {"n", 3} /* "n" is a YAML 1.1 bool */, {"f", 0.25}, {"ok", true}, {"none", nil},
				{"when", day}, {"map", map[string]any{"b": 1, "a": []any{"x"}}}, {"yes", 1},
			},
			body: "\n\n  \n\nFirst line\n\nlast   \n\n\n",
			want: "---\ntags:\n  - a\n  - b\n\"n\": 3\nf: 0.25\nok: true\nnone: null\nwhen: 2024-05-06T07:08:09Z\n" +
				"map:\n  a:\n    - x\n  b: 1\n\"yes\": 1\n---\n\nFirst line\n\nlast\n",
		},
		{
			name: "indented first line kept",
			body: "\n    code block\n",
			want: "---\n---\n\n    code block\n",
		},
		{
			name:   "empty body",
			fields: []markdown.Field{{"type", "user"}},
			body:   " \n\t\n",
			want:   "---\ntype: user\n---\n",
		},
		{
			name:   "repeated key keeps first place, last value",
			fields: []markdown.Field{{"a", 1}, {"b", 2}, {"a", 3}},
			want:   "---\na: 3\nb: 2\n---\n",
		},
		{
			name: "body that looks like frontmatter",
			body: "---\nnot: frontmatter\n---\n",
			want: "---\n---\n\n---\nnot: frontmatter\n---\n",
		},
		{
			name:   "negative zero stays a float",
			fields: []markdown.Field{{"z", -0.0 * 1}, {"nz", negZero()}},
			want:   "---\nz: 0\nnz: -0.0\n---\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := markdown.Format(tt.fields, tt.body)
			if string(got) != tt.want {
				t.Fatalf("got\n%q\nwant\n%q", got, tt.want)
			}
			checkIdempotent(t, got)
		})
	}
}

func negZero() float64 {
	z := 0.0
	return -z
}

// TestFormatValuesReadBack checks that what Format writes decodes to the
// values given.
func TestFormatValuesReadBack(t *testing.T) {
	in := []markdown.Field{
		{"s", "yes"}, {"m", "a\nb\n"}, {"k", "x\n\n\n"}, {"n", 42}, {"f", 1.5}, {"b", false},
		{"l", []any{"[[A]]", "#b", 3}}, {"nil", nil}, {"t", time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC)},
	}
	fields, body := parseBack(t, markdown.Format(in, "text"))
	if body != "\ntext\n" {
		t.Errorf("body = %q", body)
	}
	if len(fields) != len(in) {
		t.Fatalf("got %d fields, want %d", len(fields), len(in))
	}
	for i, f := range fields {
		if f.Key != in[i].Key || !reflect.DeepEqual(f.Value, in[i].Value) {
			t.Errorf("field %d = %#v, want %#v", i, f, in[i])
		}
	}
}

func TestFormatNodeValue(t *testing.T) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("[a, b] # flow\n"), &n); err != nil {
		t.Fatal(err)
	}
	got := markdown.Format([]markdown.Field{{"tags", &n}}, "")
	if want := "---\ntags: [a, b] # flow\n---\n"; string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestFormatPanicsOnUnencodable(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	markdown.Format([]markdown.Field{{"c", make(chan int)}}, "")
}

func FuzzFormatIdempotent(f *testing.F) {
	f.Add("name", "yes", "tags", int64(1), "Body")
	f.Add("text", "line 1\nline 2\n", "list", int64(-7), "\n\n  indented\n\n")
	f.Add("link", "[[X]]", ": x", int64(0), "---\na: b\n---\n")
	f.Add("#", "1.0", "<<", int64(1<<62), "x\r\n\r\n")
	f.Add("k", "a\n\n", "", int64(3), "")
	f.Add("\xff", "\xfe", "null", int64(9), "\t\n")
	f.Fuzz(func(t *testing.T, k1, v1, k2 string, n int64, body string) {
		fields := []markdown.Field{
			{Key: k1, Value: v1},
			{Key: k2, Value: []string{v1, body}},
			{Key: "count", Value: n},
		}
		note := markdown.Format(fields, body)
		checkIdempotent(t, note)
		got, _ := parseBack(t, note)
		if k1 != k2 && k1 != "count" && string(bytes.ToValidUTF8([]byte(k1), []byte("\uFFFD"))) == k1 {
			if got[0].Key != k1 || got[0].Value != v1 {
				t.Fatalf("field 0 = %#v, want %q: %q", got[0], k1, v1)
			}
		}
	})
}

func TestSetBody(t *testing.T) {
	for _, tt := range []struct{ content, body, want string }{
		{"---\na: 1 # keep\n---\nold body\n", "\n\nnew body  \n\n", "---\na: 1 # keep\n---\n\nnew body\n"},
		{"---\nbad: [\n---\nold", "new", "---\nbad: [\n---\n\nnew\n"},
		{"no frontmatter", "  indented\nbody", "  indented\nbody\n"},
		{"---\na: 1\n---\nold", "", "---\na: 1\n---\n"},
	} {
		if got := string(markdown.SetBody([]byte(tt.content), tt.body)); got != tt.want {
			t.Errorf("SetBody(%q, %q) = %q, want %q", tt.content, tt.body, got, tt.want)
		}
	}
}
