package dream

import (
	"path"
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/dream/runstate"
	"github.com/vaultmem/vaultmem/vault"
)

// TestMergeCheckpointAsRunsWriteIt: merging the checkpoint a run wrote
// with itself gives it back byte for byte.
func TestMergeCheckpointAsRunsWriteIt(t *testing.T) {
	tv := newTestVault(t, map[string]string{
		"memory/tabs.md":   "---\nname: Tabs\ndescription: indentation\ntype: feedback\n---\nAlways use tabs.\n",
		"memory/deploy.md": "---\nname: Deploy\ndescription: deploy day\ntype: project\n---\nDeploys go out on Tuesdays.\n",
	})
	tv.run(RunOptions{})
	file := path.Join(vault.StateDir, CheckpointFile)
	written := tv.read(file)
	if !strings.Contains(written, "memory/tabs.md: ") {
		t.Fatalf("the run wrote no checkpoint listing the memories:\n%s", written)
	}
	out, err := runstate.MergeCheckpoint(file, []byte(written), []byte(written))
	if err != nil || string(out) != written {
		t.Errorf("got %v:\n%s\nwant\n%s", err, out, written)
	}
}
