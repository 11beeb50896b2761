// Package embed turns texts into vectors for the sidecar index's semantic
// search. Every embedder has the same three methods, which is all the
// index asks of one:
//
//	ID() string                                             // model and parameters
//	Dimensions() int                                        // length of every vector
//	Embed(ctx, texts []string) ([][]float32, error)         // L2-normalised vectors
//
// [LSA] is the default: latent semantic analysis fitted on the vault's own
// text by [FitLSA], pure Go, deterministic, and in need of nothing but the
// notes (no weights to download, no network). [OpenAI] calls any
// OpenAI-compatible /embeddings endpoint: Ollama, llama.cpp's server, LM
// Studio, OpenAI. [Llama] runs a user-supplied GGUF model in process
// through llama.cpp, in the native library of github.com/kelindar/search
// (libllama_go.so), which it loads with purego when the first [NewLlama]
// is called: a binary without the library works until a llama embedder
// is asked for, and then NewLlama's error names the library and how to
// get it. Llama exists only in builds with -tags llama, so that other
// builds carry no dynamic loader; in them [NewLlama] returns
// [ErrNoLlama].
//
// Nothing in this package prints or logs; errors are returned, wrapped
// once with the action that failed.
//
// It imports text (the one tokenizer of words) and internal/openaicompat
// (the one client of OpenAI-compatible APIs) and no other vaultmem
// package; the llama build adds github.com/ebitengine/purego.
package embed
