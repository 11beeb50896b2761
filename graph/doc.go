// Package graph resolves the links of a vault's notes by Obsidian's rules
// and answers questions about the resulting graph: outgoing links,
// backlinks, unresolved links, orphans and neighbourhoods.
//
// Resolution goes through in-memory maps of lower-cased names and paths,
// and when a note appears or goes only the links that name it are resolved
// again, so building and updating the graph costs time proportional to the
// number of links, never links × notes.
package graph
