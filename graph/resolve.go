package graph

import (
	"path"
	"strings"

	"github.com/vaultmem/vaultmem/markdown"
)

// LinkKey is the lower-cased last path element a link target names,
// without a ".md" extension: a link can only resolve to a file whose
// [FileKey] is the same. Caches use it to find the links to look at again
// when a file appears or goes.
func LinkKey(target string) string {
	return strings.ToLower(markdown.NameOf(strings.TrimSuffix(target, "/")))
}

// FileKey is the key of a vault file: a note's name, an attachment's base
// name, lower-cased.
func FileKey(p string) string {
	if markdown.IsNotePath(p) {
		return strings.ToLower(strings.TrimSuffix(path.Base(p), path.Ext(p)))
	}
	return strings.ToLower(path.Base(p))
}

// stem lower-cases a path and drops a note's ".md", the form paths are
// compared in.
func stem(p string) string {
	p = strings.ToLower(p)
	if markdown.IsNotePath(p) {
		p = strings.TrimSuffix(p, path.Ext(p))
	}
	return p
}

// resolve finds the file a link from source names, by Obsidian's rules:
// the empty target is the source itself; a path is tried relative to the
// source's folder (markdown links, and wikilinks starting with "./" or
// "../"), then from the vault root; otherwise
// the link matches files by name (case-insensitive, ".md" optional), a
// path-qualified link by path suffix, and among several candidates the one
// in the source's folder wins, then the shortest path, then the first in
// lexical order. Frontmatter aliases never resolve links.
func (g *Resolver) resolve(source string, l markdown.Link) (string, bool) {
	t := strings.TrimSpace(l.Target)
	if t == "" {
		if source == "" {
			return "", false
		}
		return source, true
	}
	dir := path.Dir(source)
	relative := strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../")
	if l.Markdown || relative {
		if p, ok := g.exact(path.Join(dir, t)); ok {
			return p, true
		}
	}
	t = strings.TrimPrefix(strings.TrimPrefix(t, "./"), "/")
	if p, ok := g.exact(t); ok {
		return p, true
	}
	want := stem(path.Clean(t))
	if strings.HasPrefix(want, "../") {
		return "", false
	}
	best := ""
	for _, c := range g.byKey[LinkKey(t)] {
		s := stem(c)
		if s != want && !strings.HasSuffix(s, "/"+want) {
			continue
		}
		if best == "" || better(c, best, dir) {
			best = c
		}
	}
	return best, best != ""
}

// exact looks a vault path up case-insensitively, with or without ".md".
func (g *Resolver) exact(p string) (string, bool) {
	p = path.Clean(p)
	if f, ok := g.byPath[strings.ToLower(p)]; ok {
		return f, true
	}
	if !markdown.IsNotePath(p) {
		if f, ok := g.byPath[strings.ToLower(p)+markdown.Ext]; ok {
			return f, true
		}
	}
	return "", false
}

// better reports whether candidate a beats b for a link from folder dir.
func better(a, b, dir string) bool {
	ina, inb := path.Dir(a) == dir, path.Dir(b) == dir
	if ina != inb {
		return ina
	}
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}
