package sameness

import (
	"strconv"
	"strings"
)

// The blocks of a memory's markdown, read as CommonMark reads them where
// it matters to meaning: paragraphs, headings, fenced and indented code,
// quotes, bulleted and numbered lists (nested, with task boxes) and
// thematic breaks. Tables, HTML and the like stay paragraphs: their text
// is compared token by token.

// cBlockKind is what a block is.
type cBlockKind int

const (
	paraBlock cBlockKind = iota
	headingBlock
	codeBlock
	quoteBlock
	listBlock
	ruleBlock
)

// cBlock is one block: a paragraph's or heading's text, a code block's,
// a quote's blocks, or a list's items.
type cBlock struct {
	kind    cBlockKind
	text    string // paragraph and heading text; code: info string, a line break, the code
	level   int    // a heading's
	ordered bool   // a list's
	blocks  []cBlock
	items   []cListItem
}

// cListItem is one item of a list: its box ("" when it has none, " " or
// "x" for a task) and its blocks.
type cListItem struct {
	box    string
	blocks []cBlock
}

// maxNesting bounds how deep quotes and lists nest: deeper text is read
// as a paragraph, so that a pathological input costs linear time.
const maxNesting = 16

// parseBlocks reads lines into blocks, depth the nesting they are at.
func parseBlocks(lines []string, depth int) []cBlock {
	var out []cBlock
	for i := 0; i < len(lines); {
		line := lines[i]
		indent, rest := indentOf(line)
		switch {
		case rest == "":
			i++
		case indent >= 4 && !continuesParagraph(out, lines, i):
			j := i
			var code []string
			for j < len(lines) {
				ind, r := indentOf(lines[j])
				if r != "" && ind < 4 {
					break
				}
				code = append(code, dedent(lines[j], 4))
				j++
			}
			for len(code) > 0 && strings.TrimSpace(code[len(code)-1]) == "" {
				code = code[:len(code)-1]
			}
			out = append(out, cBlock{kind: codeBlock, text: "\n" + strings.Join(code, "\n")})
			i = j
		case isFence(rest):
			fence := rest[:fenceLen(rest)]
			j := i + 1
			var code []string
			for j < len(lines) {
				_, r := indentOf(lines[j])
				if strings.HasPrefix(r, fence) && strings.Trim(r, fence[:1]) == "" {
					j++
					break
				}
				code = append(code, lines[j])
				j++
			}
			out = append(out, cBlock{kind: codeBlock, text: strings.TrimSpace(rest[len(fence):]) + "\n" + strings.Join(code, "\n")})
			i = j
		case indent < 4 && headingLevel(rest) > 0:
			n := headingLevel(rest)
			t := strings.TrimSpace(rest[n:])
			if s := strings.TrimRight(t, "#"); s == "" || strings.HasSuffix(s, " ") {
				t = strings.TrimSpace(s)
			}
			out = append(out, cBlock{kind: headingBlock, level: n, text: t})
			i++
		case indent < 4 && isRule(rest):
			out = append(out, cBlock{kind: ruleBlock})
			i++
		case indent < 4 && rest[0] == '>' && depth < maxNesting:
			var inner []string
			for i < len(lines) {
				_, r := indentOf(lines[i])
				if r == "" || r[0] != '>' {
					break
				}
				r = r[1:]
				if strings.HasPrefix(r, " ") {
					r = r[1:]
				}
				inner = append(inner, r)
				i++
			}
			out = append(out, cBlock{kind: quoteBlock, blocks: parseBlocks(inner, depth+1)})
		case indent < 4 && depth < maxNesting && listMarker(rest) > 0:
			var b cBlock
			b, i = parseList(lines, i, depth)
			out = append(out, b)
		default:
			j := i + 1
			for j < len(lines) && !interrupts(lines[j], depth) {
				j++
			}
			var text []string
			for _, l := range lines[i:j] {
				text = append(text, strings.TrimSpace(l))
			}
			out = append(out, cBlock{kind: paraBlock, text: strings.Join(text, "\n")})
			i = j
		}
	}
	return out
}

// continuesParagraph reports whether the indented line i continues the
// paragraph before it (then it is no code block).
func continuesParagraph(out []cBlock, lines []string, i int) bool {
	return i > 0 && strings.TrimSpace(lines[i-1]) != "" && len(out) > 0 && out[len(out)-1].kind == paraBlock
}

// interrupts reports whether line ends the paragraph before it: a blank
// line or the start of another block.
func interrupts(line string, depth int) bool {
	indent, rest := indentOf(line)
	return rest == "" || indent < 4 && (isFence(rest) || headingLevel(rest) > 0 || isRule(rest) ||
		rest[0] == '>' && depth < maxNesting || listMarker(rest) > 0 && depth < maxNesting)
}

// parseList reads the list that starts at lines[i], returning it and the
// index of the line after it.
func parseList(lines []string, i, depth int) (cBlock, int) {
	_, first := indentOf(lines[i])
	b := cBlock{kind: listBlock, ordered: isOrderedMarker(first)}
	for i < len(lines) {
		indent, rest := indentOf(lines[i])
		m := listMarker(rest)
		if rest == "" || m == 0 || indent >= 4 || isOrderedMarker(rest) != b.ordered || isRule(rest) {
			break
		}
		content := strings.TrimLeft(rest[m:], " \t")
		width := indent + m + 1
		if gap := len(rest) - m - len(content); gap > 1 && gap <= 4 && content != "" {
			width = indent + m + gap
		}
		it := cListItem{}
		if len(content) >= 3 && content[0] == '[' && content[2] == ']' && strings.ContainsRune(" xX", rune(content[1])) &&
			(len(content) == 3 || content[3] == ' ' || content[3] == '\t') {
			it.box = strings.ToLower(content[1:2])
			content = strings.TrimLeft(content[3:], " \t")
		}
		body := []string{content}
		j := i + 1
		for j < len(lines) {
			ind, r := indentOf(lines[j])
			switch {
			case r == "":
				// A blank line: the item goes on if the next line is indented into it.
				k := j
				for k < len(lines) && strings.TrimSpace(lines[k]) == "" {
					k++
				}
				if ind2, _ := indentOf(lineAt(lines, k)); k < len(lines) && ind2 >= width {
					for ; j < k; j++ {
						body = append(body, "")
					}
					continue
				}
			case ind >= width:
				body = append(body, dedent(lines[j], width))
				j++
				continue
			case body[len(body)-1] != "" && !interrupts(lines[j], depth+1):
				body = append(body, r) // a lazy continuation of the item's paragraph
				j++
				continue
			}
			break
		}
		it.blocks = parseBlocks(body, depth+1)
		b.items = append(b.items, it)
		i = j
		for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
			// Blank lines between items keep the list going; after its last item they end it.
			k := i
			for k < len(lines) && strings.TrimSpace(lines[k]) == "" {
				k++
			}
			if _, r := indentOf(lineAt(lines, k)); k == len(lines) || listMarker(r) == 0 {
				return b, i
			}
			i = k
		}
	}
	return b, i
}

func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

// indentOf returns a line's indentation in columns (a tab to the next
// multiple of 4) and the line without it.
func indentOf(line string) (int, string) {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n, strings.TrimRight(line[i:], " \t")
		}
	}
	return n, ""
}

// dedent removes up to n columns of indentation from line.
func dedent(line string, n int) string {
	col := 0
	for i := 0; i < len(line); i++ {
		if col >= n {
			return line[i:]
		}
		switch line[i] {
		case ' ':
			col++
		case '\t':
			col += 4 - col%4
			if col > n {
				return strings.Repeat(" ", col-n) + line[i+1:]
			}
		default:
			return line[i:]
		}
	}
	return ""
}

// listMarker returns the length of the list marker that starts rest
// ("- ", "* ", "+ ", "1. ", "2) "), without the space, or 0.
func listMarker(rest string) int {
	if rest == "" {
		return 0
	}
	n := 0
	switch rest[0] {
	case '-', '*', '+':
		n = 1
	default:
		for n < len(rest) && n < 9 && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 0 || n >= len(rest) || rest[n] != '.' && rest[n] != ')' {
			return 0
		}
		n++
	}
	if n < len(rest) && rest[n] != ' ' && rest[n] != '\t' {
		return 0
	}
	return n
}

func isOrderedMarker(rest string) bool { return rest != "" && rest[0] >= '0' && rest[0] <= '9' }

// headingLevel returns the level of an ATX heading ("## x" is 2), or 0.
func headingLevel(rest string) int {
	n := 0
	for n < len(rest) && rest[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(rest) && rest[n] != ' ' && rest[n] != '\t' {
		return 0
	}
	return n
}

// isRule reports whether rest is a thematic break: three or more of one
// of - * _, spaces between allowed.
func isRule(rest string) bool {
	if rest == "" || !strings.ContainsRune("-*_", rune(rest[0])) {
		return false
	}
	n := 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case rest[0]:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

func isFence(rest string) bool { return fenceLen(rest) >= 3 }

// fenceLen returns the length of the run of ` or ~ that opens rest (0 when
// it is neither, or a backtick fence's info string holds a backtick).
func fenceLen(rest string) int {
	if rest == "" || rest[0] != '`' && rest[0] != '~' {
		return 0
	}
	n := 0
	for n < len(rest) && rest[n] == rest[0] {
		n++
	}
	if rest[0] == '`' && strings.ContainsRune(rest[n:], '`') {
		return 0
	}
	return n
}

// blockUnits turns blocks into units under prefix. A paragraph whose last
// sentence ends in a colon, followed by a list, leads into the list: that
// sentence becomes the list's lead ("Never:" and its items "push to
// main", "skip CI" are "never push to main" and "never skip CI").
func blockUnits(bs []cBlock, prefix string) []cUnit {
	var out []cUnit
	var lead []string // a paragraph's last sentence, ending in a colon
	for _, b := range bs {
		if b.kind != listBlock && lead != nil {
			out = append(out, cUnit{prefix: prefix, words: lead}) // it led into no list
			lead = nil
		}
		switch b.kind {
		case paraBlock:
			ss := paragraphUnits(b.text)
			if n := len(ss); n > 0 && ss[n-1].colon && ss[n-1].u.list == nil {
				lead, ss = ss[n-1].u.words, ss[:n-1]
			}
			for _, s := range ss {
				s.u.prefix = prefix
				out = append(out, s.u)
			}
		case headingBlock:
			for _, s := range paragraphUnits(b.text) {
				s.u.prefix, s.u.heading = prefix+`\h`+strconv.Itoa(b.level)+" ", b.level
				out = append(out, s.u)
			}
		case codeBlock:
			out = append(out, cUnit{prefix: prefix, code: escToken(b.text)})
		case ruleBlock:
			out = append(out, cUnit{prefix: prefix, words: []string{`\rule`}})
		case quoteBlock:
			out = append(out, blockUnits(b.blocks, prefix+`\q `)...)
		case listBlock:
			l := &cList{kind: andList, lead: lead}
			lead = nil
			if b.ordered {
				l.kind = orderedList
			}
			for _, it := range b.items {
				box := ""
				switch it.box {
				case " ":
					box = `\todo`
				case "x":
					box = `\done`
				}
				l.items = append(l.items, cItem{box: box, units: blockUnits(it.blocks, "")})
			}
			out = append(out, cUnit{prefix: prefix, list: l})
		}
	}
	if lead != nil {
		out = append(out, cUnit{prefix: prefix, words: lead})
	}
	return out
}
