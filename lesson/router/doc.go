// Package router is the lesson fast path's learned reranker: a small
// online model that reorders the candidates the fast path proposed for a
// situation by what the outcome log says actually helped.
//
// The model is logistic regression over hashed features (see [Model]):
// the situation's words, tool and path shapes crossed with each lesson's
// identity, domain and tags, plus the static features the fast path ranked
// by. It learns one example at a time ([Model.Learn]), so it can follow the
// outcome log as it grows ([Model.Train]), and it encodes to a small
// versioned form ([Model.MarshalBinary], [Decode]) that package lesson
// keeps in the cache.
//
// The router has to earn its place. The static order, relevance ×
// strength ([Static]), is the default; [Replay] measures both on a log in
// time order, learning as it goes as it would in use, and the router
// should be switched on only when the replay shows it ahead. [Simulate]
// writes logs of synthetic worlds with a known truth, for tests and for
// seeing what the router can and cannot learn.
//
// Nothing in this package prints, logs or touches a file; errors are
// returned. It imports only the standard library.
package router
