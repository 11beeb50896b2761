package vault_test

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vaultmem/vaultmem/vault"
)

func TestReadNoteNotFound(t *testing.T) {
	_, err := vault.ReadNote(fstest.MapFS{}, "nope.md", 0)
	if !errors.Is(err, vault.ErrNotFound) || !strings.Contains(err.Error(), "nope.md") {
		t.Errorf("err %v", err)
	}
}
