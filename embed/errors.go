package embed

import "errors"

// ErrNoLlama is returned by [NewLlama] in a build without the llama build
// tag. The CLI can show it as it is.
var ErrNoLlama = errors.New("embed: vaultmem was built without llama support; rebuild with -tags llama (see README)")
