package dream

import (
	"context"
	"time"

	"github.com/vaultmem/vaultmem/dream/proposal"
	"github.com/vaultmem/vaultmem/memory"
)

// SessionsFile is the state file (under .vaultmem/state, committed) where
// Dream records the session notes it read for proposals (see
// proposal.SessionsFile).
const SessionsFile = proposal.SessionsFile

// proposing reports whether the run proposes from sessions.
func (d *Dreamer) proposing() bool { return d.opts.Propose && d.opts.LLM != nil }

// proposer is the Dreamer's proposer of memories and lessons from session
// notes, over its writer and index, when it proposes (see proposing).
func (d *Dreamer) proposer() *proposal.Proposer {
	return proposal.New(d.w, d.ix, d.store, proposal.Options{LLM: d.opts.LLM, Timeout: llmTimeout, AddLesson: d.opts.AddLesson})
}

// propose writes the proposals from the session notes due, when the run
// proposes (in a dry run it only counts the notes it would read), and adds
// to rep what it did. It returns the proposals written (see
// proposal.Proposer.Propose).
func (d *Dreamer) propose(ctx context.Context, now time.Time, dryRun bool, rep *Report) ([]memory.Proposal, error) {
	if !d.proposing() {
		return nil, nil
	}
	var pr proposal.Report
	written, err := d.proposer().Propose(ctx, now, dryRun, &pr)
	rep.Proposed = append(rep.Proposed, pr.Proposed...)
	rep.Sessions += pr.Sessions
	rep.Warnings = append(rep.Warnings, pr.Warnings...)
	if rep.LLMError == "" {
		rep.LLMError = pr.LLMError
	}
	for _, p := range pr.Changed {
		rep.wrote(p)
	}
	return written, err
}
