//go:build llama

package embed

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/kelindar/search"
)

// Llama embeds texts with a local GGUF embedding model (a BERT-family
// model such as all-MiniLM-L6-v2 or nomic-embed-text) run in process by
// llama.cpp through github.com/kelindar/search. It exists only in builds
// with -tags llama; such a binary needs libllama_go.so (.dylib, .dll) at
// run time, found on LD_LIBRARY_PATH, in /usr/lib, /usr/local/lib or the
// working directory, and panics at start-up without it.
//
// A Llama is safe for concurrent use. The zero value is not usable: make
// one with [NewLlama], and Close it when done.
type Llama struct {
	mu     sync.RWMutex // held for reading while embedding, for writing by Close
	vec    *search.Vectorizer
	id     string
	dims   int
	closed bool
}

// NewLlama loads the GGUF model at modelPath, offloading gpuLayers layers
// to the GPU (0 for CPU only), and embeds a probe text to learn the
// model's dimensions. The error names the model file: it is missing, not
// a GGUF embedding model, or fails on the probe.
func NewLlama(modelPath string, gpuLayers int) (*Llama, error) {
	vec, err := search.NewVectorizer(modelPath, gpuLayers)
	if err != nil {
		return nil, fmt.Errorf("load llama model %s: %w", modelPath, err)
	}
	probe, err := vec.EmbedText("dimensions probe")
	if err != nil || len(probe) == 0 {
		vec.Close()
		if err == nil {
			err = fmt.Errorf("empty embedding")
		}
		return nil, fmt.Errorf("load llama model %s: not an embedding model: %w", modelPath, err)
	}
	return &Llama{vec: vec, id: "llama:" + filepath.Base(modelPath), dims: len(probe)}, nil
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
		if len(v) != l.dims {
			return nil, fmt.Errorf("llama embed: text %d: %d dimensions, want %d", i, len(v), l.dims)
		}
		normalize(v)
		out[i] = v
	}
	return out, nil
}

// embedOne embeds text, cutting it while the model says it is too long.
func (l *Llama) embedOne(text string) ([]float32, error) {
	for {
		v, err := l.vec.EmbedText(text)
		if err == nil || !strings.Contains(err.Error(), "exceeds batch size") || len(text) < 64 {
			return v, err
		}
		cut := len(text) / 2
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
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
	return l.vec.Close()
}
