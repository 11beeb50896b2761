// Package graph resolves the links of a vault's notes by Obsidian's rules:
// which file a [[wikilink]] or markdown link names, case-insensitively,
// with path suffixes and the nearest of several same-named notes first.
//
// Resolution goes through in-memory maps of lower-cased names and paths,
// so resolving costs time proportional to the candidates of one name,
// never the size of the vault. The link graph itself (edges, backlinks,
// unresolved links, orphans, walks) is kept by the index, which resolves
// with a [Resolver] and answers the CLI and the MCP server alike.
//
// It imports only markdown.
package graph
