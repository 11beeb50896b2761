// Package localrpc is how one process of a user answers the requests of
// the user's other processes about one vault: over a Unix socket (a named
// pipe on Windows) that only the user can reach, one JSON request and one
// JSON answer a connection, within bounds on every wait. It knows nothing
// of what it carries: a Server is given the ops it takes and a function
// that answers them; a client asks by an op's name.
//
// The protocol: the client sends one JSON request {vault, op, args}; the
// server sends one newline as soon as it has taken it (before it runs the
// op, so that however long the op takes, a live server is told from a
// stopped one within milliseconds), then one JSON answer {result} or
// {error, class}. A client answers in process when no server accepts
// within serverWait, when none takes the request within its first-byte
// wait (a server stopped with kill -STOP, whose connections the kernel
// still accepts), when the answer does not come within its wait, and when
// it is larger than MaxAnswer.
package localrpc
