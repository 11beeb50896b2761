// Package proposal is Dream's proposals of memories and lessons from
// session notes. With an LLM configured (and dream's Options.Propose), a
// Dream run reads the session notes the agent hooks wrote (type: session)
// whose session ended and that it has not read as they are now, and asks
// the LLM what each shows that is worth keeping: at most three memories
// and two lessons. It writes each as a note with status: proposed and a
// link to the session note; a proposal is not live until a person or an
// agent accepts it (see memory.Proposal). The LLM's answer is untrusted:
// it is checked item by item, and what does not pass is dropped with a
// warning. An endpoint that fails or is slow stops the proposals of the
// run (the sessions wait for the next run); an answer that is not the
// JSON asked for, or has an item that does not pass, has the session read
// again next run, at most MaxSessionTries times while the note stays as
// it is. Nothing proposed from a session is proposed again from it.
//
// Package dream calls it first in each run, and asks it how many session
// notes wait (dream.Dreamer.Due counts them as writes). It is given the
// vault's parts through the small interfaces it declares (Index, Writer,
// Store), and imports chat, index (the session note's type and row),
// lesson, markdown, memory and vault; never dream.
package proposal
