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
// through github.com/kelindar/search; it exists only in builds with
// -tags llama, because that package panics at start-up when its native
// library (libllama_go.so) is missing, and in other builds [NewLlama]
// returns [ErrNoLlama].
//
// Nothing in this package prints or logs; errors are returned, wrapped
// once with the action that failed.
//
// It imports text (the one tokenizer of words) and no other vaultmem
// package.
package embed
