//go:build !llama

package embed

import "context"

// Llama would embed with a local GGUF model, but this binary was built
// without -tags llama, so none can be made: [NewLlama] returns
// [ErrNoLlama]. The methods exist so that code using Llama compiles in
// both builds; on the zero value they report nothing and fail.
type Llama struct{}

// NewLlama returns [ErrNoLlama]: this binary was built without -tags llama.
func NewLlama(modelPath string, gpuLayers int) (*Llama, error) {
	return nil, ErrNoLlama
}

// ID returns "".
func (*Llama) ID() string { return "" }

// Dimensions returns 0.
func (*Llama) Dimensions() int { return 0 }

// Embed returns [ErrNoLlama].
func (*Llama) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return nil, ErrNoLlama
}

// Close does nothing.
func (*Llama) Close() error { return nil }
