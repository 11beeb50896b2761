//go:build llama

package embed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/ebitengine/purego"
)

// Llama embeds texts with a local GGUF embedding model (a BERT-family
// model such as all-MiniLM-L6-v2 or nomic-embed-text) run in process by
// llama.cpp, through the native library of github.com/kelindar/search
// (libllama_go.so, .dylib, llama_go.dll). It exists only in builds with
// -tags llama. The library is loaded by the first [NewLlama], not at
// start-up, so a binary without it runs every command that does not
// embed with llama, and NewLlama says in one line what is missing.
//
// A Llama is safe for concurrent use. The zero value is not usable: make
// one with [NewLlama], and Close it when done.
type Llama struct {
	mu     sync.RWMutex // held for reading while embedding, for writing by Close
	lib    *llamaLib
	model  uintptr
	ctxs   chan uintptr // idle contexts, one per concurrent Embed
	id     string
	dims   int
	closed bool
}

// idleContexts is how many idle llama contexts a Llama keeps; more
// concurrent Embed calls make and free their own.
const idleContexts = 16

// NewLlama loads the native library (once per process), then the GGUF
// model at modelPath, offloading gpuLayers layers to the GPU (0 for CPU
// only), and embeds a probe text to learn the model's dimensions. The
// error says which is at fault: the library (not found, naming where it
// was looked for and how to get it, or not llama.cpp's), or the model
// file (missing, not a GGUF embedding model, failing on the probe).
func NewLlama(modelPath string, gpuLayers int) (*Llama, error) {
	lib, err := loadLlama()
	if err != nil {
		return nil, err
	}
	return newLlama(lib, modelPath, gpuLayers)
}

// newLlama is NewLlama with the library loaded.
func newLlama(lib *llamaLib, modelPath string, gpuLayers int) (*Llama, error) {
	model := lib.loadModel(modelPath, uint32(gpuLayers))
	if model == 0 {
		return nil, fmt.Errorf("load llama model %s: llama.cpp could not load it (missing, or not a GGUF model)", modelPath)
	}
	l := &Llama{lib: lib, model: model, ctxs: make(chan uintptr, idleContexts), id: "llama:" + filepath.Base(modelPath)}
	if n := lib.embedSize(model); n > 0 {
		l.dims = int(n)
	} else {
		lib.freeModel(model)
		return nil, fmt.Errorf("load llama model %s: not an embedding model", modelPath)
	}
	probe, err := l.embedOne("dimensions probe")
	if err != nil {
		l.Close()
		return nil, fmt.Errorf("load llama model %s: not an embedding model: %w", modelPath, err)
	}
	if len(probe) != l.dims {
		l.Close()
		return nil, fmt.Errorf("load llama model %s: the probe has %d dimensions, the model says %d", modelPath, len(probe), l.dims)
	}
	return l, nil
}

// ID returns "llama:" and the model file's base name, e.g.
// "llama:all-MiniLM-L6-v2.Q8_0.gguf".
func (l *Llama) ID() string { return l.id }

// Dimensions returns the model's embedding size.
func (l *Llama) Dimensions() int { return l.dims }

// Embed returns one L2-normalised vector per text. A text longer than the
// model's context is cut (by halves, at a character boundary) until it
// fits, so its vector is that of its beginning. ctx is checked between
// texts; the model itself cannot be interrupted. The error is ctx's, one
// from the model naming the text's position, or an error for a closed
// Llama, wrapped with "llama embed".
func (l *Llama) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		return nil, fmt.Errorf("llama embed: model is closed")
	}
	out := make([][]float32, len(texts))
	for i, text := range texts {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("llama embed: %w", err)
		}
		v, err := l.embedOne(text)
		if err != nil {
			return nil, fmt.Errorf("llama embed: text %d: %w", i, err)
		}
		normalize(v)
		out[i] = v
	}
	return out, nil
}

// errTooLong is the library's answer to a text of more tokens than the
// model's batch.
var errTooLong = errors.New("more tokens than the model's batch")

// embedOne embeds text, cutting it while the model says it is too long.
func (l *Llama) embedOne(text string) ([]float32, error) {
	for {
		v, err := l.embedText(text)
		if !errors.Is(err, errTooLong) || len(text) < 64 {
			return v, err
		}
		cut := len(text) / 2
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
}

// embedText embeds text once, in an idle context or a new one.
func (l *Llama) embedText(text string) ([]float32, error) {
	var c uintptr
	select {
	case c = <-l.ctxs:
	default:
		if c = l.lib.loadContext(l.model, 0, true); c == 0 {
			return nil, errors.New("llama.cpp could not make a context")
		}
	}
	defer func() {
		select {
		case l.ctxs <- c:
		default:
			l.lib.freeContext(c)
		}
	}()
	out := make([]float32, l.dims)
	var tokens uint32
	// The codes are those of kelindar/search's llama-go.cpp.
	switch code := l.lib.embedText(c, text, out, &tokens); code {
	case 0:
		return out, nil
	case 1:
		return nil, fmt.Errorf("%d tokens: %w", tokens, errTooLong)
	case 2:
		return nil, errors.New("the last token is not SEP")
	case 3:
		return nil, errors.New("llama.cpp failed to decode the text")
	default:
		return nil, fmt.Errorf("llama.cpp failed (code %d)", code)
	}
}

// Close releases the model. It waits for running Embed calls; later calls
// fail. Closing twice is harmless.
func (l *Llama) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	// No Embed runs, so every context made and kept is idle.
	close(l.ctxs)
	for c := range l.ctxs {
		l.lib.freeContext(c)
	}
	l.lib.freeModel(l.model)
	return nil
}

// llamaLib is the native library's functions, as kelindar/search v0.4.1's
// llama-go.cpp declares them.
type llamaLib struct {
	loadLibrary func(logLevel int) uintptr
	loadModel   func(path string, gpuLayers uint32) uintptr
	loadContext func(model uintptr, ctxSize uint32, embeddings bool) uintptr
	freeModel   func(model uintptr)
	freeContext func(ctx uintptr)
	embedSize   func(model uintptr) int32
	embedText   func(ctx uintptr, text string, out []float32, tokens *uint32) int
}

var (
	llamaMu sync.Mutex
	llama   *llamaLib // once loaded, for the rest of the process
)

// loadLlama loads the native library from the places llamaDirs names,
// once per process. A failure is not kept: a library put in place later
// is found by the next call.
func loadLlama() (*llamaLib, error) {
	llamaMu.Lock()
	defer llamaMu.Unlock()
	if llama != nil {
		return llama, nil
	}
	lib, err := openLlama(llamaLibName, llamaDirs())
	if err != nil {
		return nil, err
	}
	lib.loadLibrary(2) // llama.cpp's log level: warnings and errors
	llama = lib
	return lib, nil
}

// openLlama finds the library called name in the first of dirs that has
// it, opens it and binds its functions. It panics on nothing: a missing
// file, a file that is not a library and a library without llama-go's
// functions are each an error of one line naming the file or the folders.
func openLlama(name string, dirs []string) (*llamaLib, error) {
	path := ""
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			path = p
			break
		}
	}
	if path == "" {
		return nil, fmt.Errorf("llama: %s not found in %s; build it from github.com/kelindar/search v0.4.1 (cmake, see docs/search-and-index.md) and put it on %s, or use another embedder.provider",
			name, strings.Join(dirs, ", "), llamaPathVar)
	}
	h, err := dlopen(path)
	if err != nil {
		return nil, fmt.Errorf("llama: open %s: %s", path, oneLine(err))
	}
	lib := &llamaLib{}
	for _, f := range []struct {
		name string
		fn   any
	}{
		{"load_library", &lib.loadLibrary},
		{"load_model", &lib.loadModel},
		{"load_context", &lib.loadContext},
		{"free_model", &lib.freeModel},
		{"free_context", &lib.freeContext},
		{"embed_size", &lib.embedSize},
		{"embed_text", &lib.embedText},
	} {
		sym, err := dlsym(h, f.name)
		if err != nil || sym == 0 {
			return nil, fmt.Errorf("llama: %s is not kelindar/search's llama-go library: it has no %s", path, f.name)
		}
		// The function types above are purego's supported ones, so
		// RegisterFunc cannot panic on them.
		purego.RegisterFunc(f.fn, sym)
	}
	return lib, nil
}

// oneLine joins the lines of err's message, for an error of one line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
