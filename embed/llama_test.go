//go:build llama

package embed

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ebitengine/purego"
)

// fakeLlama is a library with llama-go's functions and none of llama.cpp:
// a model's path says how it behaves ("bad": not loaded, "zero": no
// embeddings), a text's vector is [its length, 1, its first byte, 0], a
// text over 100 bytes is too long, and live_contexts counts the contexts
// not freed.
const fakeLlama = `
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int32_t dims; } model;
typedef struct { model *m; } context;
static int live;

uintptr_t load_library(int level) { return 0; }
void *load_model(const char *path, uint32_t gpu) {
	if (strstr(path, "bad")) return 0;
	model *m = malloc(sizeof *m);
	m->dims = strstr(path, "zero") ? 0 : 4;
	return m;
}
void *load_context(void *m, uint32_t size, bool embeddings) {
	context *c = malloc(sizeof *c);
	c->m = m;
	live++;
	return c;
}
void free_model(void *m) { free(m); }
void free_context(void *c) { free(c); live--; }
int32_t embed_size(void *m) { return ((model *)m)->dims; }
int embed_text(void *ctx, const char *text, float *out, uint32_t *tokens) {
	size_t n = strlen(text);
	*tokens = n;
	if (n > 100) return 1;
	if (n == 0) return 3;
	out[0] = n; out[1] = 1; out[2] = (unsigned char)text[0]; out[3] = 0;
	return 0;
}
int live_contexts(void) { return live; }
`

// buildLib compiles C source into a shared library called name in a new
// folder, which it returns; without a C compiler the test is skipped.
func buildLib(t *testing.T, name, src string) string {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skip("no C compiler to build a library with")
	}
	dir := t.TempDir()
	c := filepath.Join(dir, "lib.c")
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(cc, "-shared", "-fPIC", "-o", filepath.Join(dir, name), c).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	return dir
}

// TestOpenLlamaErrors: whatever is wrong with the library, loading it is
// an error of one line naming the file or the folders searched, never a
// panic.
func TestOpenLlamaErrors(t *testing.T) {
	empty := t.TempDir()
	notLib := t.TempDir()
	if err := os.WriteFile(filepath.Join(notLib, llamaLibName), []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	folder := t.TempDir() // a folder where the file should be is not it
	if err := os.Mkdir(filepath.Join(folder, llamaLibName), 0o755); err != nil {
		t.Fatal(err)
	}
	other := buildLib(t, llamaLibName, "int load_library(int level) { return 0; }\n")
	for _, tt := range []struct {
		name string
		dirs []string
		want []string
	}{
		{"missing", []string{empty, folder}, []string{llamaLibName + " not found in " + empty + ", " + folder, "github.com/kelindar/search", llamaPathVar, "embedder.provider"}},
		{"not a library", []string{empty, notLib}, []string{"open " + filepath.Join(notLib, llamaLibName)}},
		{"another library", []string{other}, []string{filepath.Join(other, llamaLibName) + " is not kelindar/search's llama-go library: it has no load_model"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lib, err := openLlama(llamaLibName, tt.dirs)
			if lib != nil || err == nil {
				t.Fatalf("openLlama = %v, %v; want an error", lib, err)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error of more than one line: %q", msg)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
}

// TestNewLlamaWithoutLibrary: on a system without the library, NewLlama
// returns the error that names it; the build and the process survive.
func TestNewLlamaWithoutLibrary(t *testing.T) {
	empty := t.TempDir()
	t.Setenv(llamaPathVar, empty)
	t.Chdir(empty)
	for _, d := range llamaDirs() {
		if _, err := os.Stat(filepath.Join(d, llamaLibName)); err == nil {
			t.Skipf("this system has %s in %s", llamaLibName, d)
		}
	}
	l, err := NewLlama(filepath.Join(empty, "model.gguf"), 0)
	if l != nil || err == nil || !strings.Contains(err.Error(), llamaLibName+" not found") {
		t.Errorf("NewLlama = %v, %v; want the library not found", l, err)
	}
}

// TestLlamaFakeLibrary runs Llama over a library with llama-go's
// functions: the model's errors, vectors in order and normalised, a long
// text cut until it fits, concurrent Embeds, and Close freeing every
// context.
func TestLlamaFakeLibrary(t *testing.T) {
	dir := buildLib(t, llamaLibName, fakeLlama)
	lib, err := openLlama(llamaLibName, []string{t.TempDir(), dir})
	if err != nil {
		t.Fatal(err)
	}
	h, err := dlopen(filepath.Join(dir, llamaLibName))
	if err != nil {
		t.Fatal(err)
	}
	var live func() int32
	purego.RegisterLibFunc(&live, h, "live_contexts")

	for _, tt := range []struct{ model, want string }{
		{"/m/bad.gguf", "load llama model /m/bad.gguf: llama.cpp could not load it"},
		{"/m/zero.gguf", "load llama model /m/zero.gguf: not an embedding model"},
	} {
		if l, err := newLlama(lib, tt.model, 0); l != nil || err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("newLlama(%s) = %v, %v; want %q", tt.model, l, err, tt.want)
		}
	}

	l, err := newLlama(lib, "/m/MiniLM.gguf", 0)
	if err != nil {
		t.Fatal(err)
	}
	if l.ID() != "llama:MiniLM.gguf" || l.Dimensions() != 4 {
		t.Errorf("ID %q, Dimensions %d", l.ID(), l.Dimensions())
	}
	long := strings.Repeat("é", 150) // 300 bytes: cut to 150, then to 74 at a character boundary
	vs, err := l.Embed(context.Background(), []string{"abc", long})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][2]float32{{3, 'a'}, {74, 0xC3}} {
		v := vs[i]
		// [n, 1, b, 0] normalised: the ratios survive.
		if len(v) != 4 || v[1] == 0 || !near(v[0]/v[1], want[0]) || !near(v[2]/v[1], want[1]) || v[3] != 0 {
			t.Errorf("text %d: %v, want [%v 1 %v 0] normalised", i, v, want[0], want[1])
		}
		var norm float32
		for _, x := range v {
			norm += x * x
		}
		if !near(norm, 1) {
			t.Errorf("text %d: squared norm %v", i, norm)
		}
	}
	if _, err := l.Embed(context.Background(), []string{"ok", ""}); err == nil || !strings.Contains(err.Error(), "llama embed: text 1: llama.cpp failed to decode") {
		t.Errorf("empty text: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := l.Embed(ctx, []string{"x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}

	var wg sync.WaitGroup
	for range 40 { // more than idleContexts at once, some of the time
		wg.Go(func() {
			if _, err := l.Embed(context.Background(), []string{"a", "bb", "ccc"}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := live(); n < 1 || n > idleContexts {
		t.Errorf("%d contexts alive between calls, want 1 to %d", n, idleContexts)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if n := live(); n != 0 {
		t.Errorf("%d contexts alive after Close", n)
	}
	if err := l.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := l.Embed(context.Background(), []string{"x"}); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Embed after Close: %v", err)
	}
}

// near says whether a and b are equal but for float32 rounding.
func near(a, b float32) bool { return a-b < 1e-3*max(1, b) && b-a < 1e-3*max(1, b) }
