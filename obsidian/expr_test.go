package obsidian

import (
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/vaultmem/vaultmem/markdown"
)

// A small evaluator of the Bases expression language, for the tests: the
// subset the generated bases use (and a little more), with JavaScript's
// semantics where the Bases pages say it follows them ("Bases functions
// follow JavaScript behavior"). It knows no function the tests do not
// need: an expression using one fails the test, which is the point.

// Where the language is documented: the pages of obsidianmd/obsidian-help,
// each at a commit of it that holds the page as the lists below were
// checked against it.
const (
	syntaxDoc     = "https://github.com/obsidianmd/obsidian-help/blob/803f340aad515c32f1dde19899d767afa88d2126/en/Bases/Bases%20syntax.md (https://help.obsidian.md/bases/syntax)"
	functionsDoc  = "https://github.com/obsidianmd/obsidian-help/blob/c1526d335fba786c42e1d47897048659a5d5922b/en/Bases/Functions.md (https://help.obsidian.md/bases/functions)"
	viewsDoc      = "https://github.com/obsidianmd/obsidian-help/blob/e89e3f0657ac3a3ae071cab38dc146715b720345/en/Bases/Views.md (https://help.obsidian.md/bases/views)"
	obsidianAPI   = "https://github.com/obsidianmd/obsidian-api/blob/d5b94f56e3a909396ae05941e67ddb51a167180d/obsidian.d.ts (BasesConfigFile, BasesConfigFileView, BasesSortConfig)"
	canvasSpecDoc = "https://github.com/obsidianmd/jsoncanvas/blob/6a703e28021df8fdda8217c097162a86a3a23c53/spec/1.0.md (https://jsoncanvas.org/spec/1.0/)"
)

// documentedGlobals are the global functions of functionsDoc ("Global").
var documentedGlobals = []string{"escapeHTML", "date", "duration", "file", "html", "if", "image", "icon", "link", "list", "max", "min",
	"now", "number", "today", "random"}

// documentedMethods are the functions of functionsDoc called on a value,
// by type: Any, Date, String, Number, List, Link, File, Object, Regular
// expression.
var documentedMethods = map[string][]string{
	"any":    {"isTruthy", "isType", "toString"},
	"date":   {"date", "format", "time", "relative", "isEmpty"},
	"string": {"contains", "containsAll", "containsAny", "endsWith", "isEmpty", "lower", "replace", "repeat", "reverse", "slice", "split", "startsWith", "title", "trim"},
	"number": {"abs", "ceil", "floor", "isEmpty", "round", "toFixed"},
	"list":   {"contains", "containsAll", "containsAny", "filter", "flat", "isEmpty", "join", "map", "reduce", "reverse", "slice", "sort", "unique"},
	"link":   {"asFile", "linksTo"},
	"file":   {"asLink", "hasLink", "hasProperty", "hasTag", "inFolder"},
	"object": {"isEmpty", "keys", "values"},
	"regexp": {"matches"},
}

// documentedFields are the fields of functionsDoc's types (date, string
// and list fields) that are not properties.
var documentedFields = []string{"year", "month", "day", "hour", "minute", "second", "millisecond", "length"}

// documentedFileProperties are the file properties of syntaxDoc ("File
// properties") and the File type's fields of functionsDoc (basename).
var documentedFileProperties = []string{"backlinks", "ctime", "embeds", "ext", "file", "folder", "links", "mtime", "name", "path",
	"properties", "size", "tags", "basename"}

// lambdaNames are the names functionsDoc gives the item of list.filter,
// map and reduce.
var lambdaNames = []string{"value", "index", "acc"}

// documentedOperators are syntaxDoc's arithmetic, comparison and boolean
// operators.
var documentedOperators = []string{"+", "-", "*", "/", "%", "==", "!=", ">", "<", ">=", "<=", "!", "&&", "||"}

// ---- parsing

type expr interface{}

type (
	lit   struct{ v any }
	ident struct{ name string }
	call  struct {
		fn   string
		args []expr
	} // a global function
	member struct {
		obj  expr
		name string
	} // obj.name
	method struct {
		obj  expr
		name string
		args []expr
	} // obj.name(args)
	index_ struct{ obj, at expr }
	unary  struct {
		op string
		x  expr
	}
	binary struct {
		op   string
		l, r expr
	}
	list_ struct{ items []expr }
)

type token struct {
	kind string // "num", "str", "id", "op", "eof"
	text string
}

func lex(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			out = append(out, token{"num", s[i:j]})
			i = j
		case c == '"' || c == '\'':
			j := i + 1
			var b strings.Builder
			for j < len(s) && s[j] != c {
				if s[j] == '\\' && j+1 < len(s) {
					j++
				}
				b.WriteByte(s[j])
				j++
			}
			if j >= len(s) {
				return nil, fmt.Errorf("unterminated string in %q", s)
			}
			out = append(out, token{"str", b.String()})
			i = j + 1
		case c == '_' || unicode.IsLetter(rune(c)):
			j := i
			for j < len(s) && (s[j] == '_' || unicode.IsLetter(rune(s[j])) || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			out = append(out, token{"id", s[i:j]})
			i = j
		default:
			op := ""
			for _, o := range []string{"==", "!=", ">=", "<=", "&&", "||", "!", "<", ">", "+", "-", "*", "/", "%", "(", ")", "[", "]", ",", "."} {
				if strings.HasPrefix(s[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				return nil, fmt.Errorf("unexpected %q in %q", c, s)
			}
			out = append(out, token{"op", op})
			i += len(op)
		}
	}
	return append(out, token{"eof", ""}), nil
}

type parser struct {
	toks []token
	i    int
	src  string
}

func parseExpr(s string) (expr, error) {
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, src: s}
	e, err := p.binary(0)
	if err != nil {
		return nil, err
	}
	if p.peek().kind != "eof" {
		return nil, fmt.Errorf("unexpected %q in %q", p.peek().text, s)
	}
	return e, nil
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token { t := p.toks[p.i]; p.i++; return t }
func (p *parser) is(op string) bool {
	return p.peek().kind == "op" && p.peek().text == op
}
func (p *parser) expect(op string) error {
	if !p.is(op) {
		return fmt.Errorf("want %q, got %q in %q", op, p.peek().text, p.src)
	}
	p.i++
	return nil
}

var levels = [][]string{{"||"}, {"&&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"+", "-"}, {"*", "/", "%"}}

func (p *parser) binary(level int) (expr, error) {
	if level == len(levels) {
		return p.unary()
	}
	l, err := p.binary(level + 1)
	if err != nil {
		return nil, err
	}
	for p.peek().kind == "op" && slices.Contains(levels[level], p.peek().text) {
		op := p.next().text
		r, err := p.binary(level + 1)
		if err != nil {
			return nil, err
		}
		l = binary{op, l, r}
	}
	return l, nil
}

func (p *parser) unary() (expr, error) {
	if p.is("!") || p.is("-") {
		op := p.next().text
		x, err := p.unary()
		return unary{op, x}, err
	}
	return p.postfix()
}

func (p *parser) args() ([]expr, error) {
	var out []expr
	if err := p.expect("("); err != nil {
		return nil, err
	}
	for !p.is(")") {
		a, err := p.binary(0)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
		if !p.is(")") {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
	}
	p.i++
	return out, nil
}

func (p *parser) postfix() (expr, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.is("."):
			p.i++
			t := p.next()
			if t.kind != "id" {
				return nil, fmt.Errorf("want a name after '.', got %q in %q", t.text, p.src)
			}
			if p.is("(") {
				args, err := p.args()
				if err != nil {
					return nil, err
				}
				x = method{x, t.text, args}
			} else {
				x = member{x, t.text}
			}
		case p.is("["):
			p.i++
			at, err := p.binary(0)
			if err != nil {
				return nil, err
			}
			if err := p.expect("]"); err != nil {
				return nil, err
			}
			x = index_{x, at}
		default:
			return x, nil
		}
	}
}

func (p *parser) primary() (expr, error) {
	t := p.next()
	switch t.kind {
	case "num":
		f, err := strconv.ParseFloat(t.text, 64)
		return lit{f}, err
	case "str":
		return lit{t.text}, nil
	case "id":
		switch t.text {
		case "true":
			return lit{true}, nil
		case "false":
			return lit{false}, nil
		case "null":
			return lit{nil}, nil
		}
		if p.is("(") {
			args, err := p.args()
			return call{t.text, args}, err
		}
		return ident{t.text}, nil
	case "op":
		switch t.text {
		case "(":
			x, err := p.binary(0)
			if err != nil {
				return nil, err
			}
			return x, p.expect(")")
		case "[":
			var items []expr
			for !p.is("]") {
				x, err := p.binary(0)
				if err != nil {
					return nil, err
				}
				items = append(items, x)
				if !p.is("]") {
					if err := p.expect(","); err != nil {
						return nil, err
					}
				}
			}
			p.i++
			return list_{items}, nil
		}
	}
	return nil, fmt.Errorf("unexpected %q in %q", t.text, p.src)
}

// ---- what an expression names

// names are the functions, properties and operators an expression uses.
type names struct {
	globals, methods, fields, fileProps, formulas, noteProps, operators []string
}

func add(list *[]string, s string) {
	if !slices.Contains(*list, s) {
		*list = append(*list, s)
	}
}

// collect walks e; lambda is set inside the argument of filter, map or
// reduce (where value, index and acc are the item).
func (n *names) collect(e expr, lambda bool) {
	switch e := e.(type) {
	case lit:
	case list_:
		for _, x := range e.items {
			n.collect(x, lambda)
		}
	case ident:
		switch {
		case lambda && slices.Contains(lambdaNames, e.name):
		case e.name == "file" || e.name == "this":
		default:
			add(&n.noteProps, e.name)
		}
	case call:
		add(&n.globals, e.fn)
		for _, a := range e.args {
			n.collect(a, lambda)
		}
	case member:
		switch obj := e.obj.(type) {
		case ident:
			switch {
			case obj.name == "file":
				add(&n.fileProps, e.name)
				return
			case obj.name == "formula":
				add(&n.formulas, e.name)
				return
			case obj.name == "note":
				add(&n.noteProps, e.name)
				return
			}
		case member:
			if obj.name == "properties" {
				n.collect(obj, lambda)
				add(&n.noteProps, e.name)
				return
			}
		case method:
			if obj.name == "asFile" {
				n.collect(obj, lambda)
				add(&n.fileProps, e.name)
				return
			}
		}
		n.collect(e.obj, lambda)
		add(&n.fields, e.name)
	case method:
		n.collect(e.obj, lambda)
		add(&n.methods, e.name)
		in := lambda || e.name == "filter" || e.name == "map" || e.name == "reduce"
		for _, a := range e.args {
			n.collect(a, in)
		}
	case index_:
		n.collect(e.obj, lambda)
		n.collect(e.at, lambda)
	case unary:
		add(&n.operators, e.op)
		n.collect(e.x, lambda)
	case binary:
		add(&n.operators, e.op)
		n.collect(e.l, lambda)
		n.collect(e.r, lambda)
	}
}

// ---- evaluation

// testNote is a note of the test vault as Bases sees it.
type testNote struct {
	path  string
	fm    map[string]any
	mtime time.Time
}

// link is a Link value.
type link struct{ target string }

// evaluator evaluates expressions over the notes of a vault, with the
// formulas of one base.
type evaluator struct {
	notes    map[string]*testNote // by path
	formulas map[string]expr
}

// env is what an expression is evaluated against: the row's note, and
// the lambda's item.
type env struct {
	n      *testNote
	value  any
	index  float64
	lambda bool
	depth  int
}

// resolve finds the note a link names, as Obsidian does for these simple
// names: by path (with or without .md), else by file name.
func (ev *evaluator) resolve(target string) *testNote {
	target, _, _ = strings.Cut(target, "|")
	target, _, _ = strings.Cut(target, "#")
	t := strings.ToLower(strings.TrimSuffix(target, ".md"))
	var found *testNote
	for p, n := range ev.notes {
		lp := strings.ToLower(strings.TrimSuffix(p, ".md"))
		if lp == t {
			return n
		}
		if path.Base(lp) == t && (found == nil || p < found.path) {
			found = n
		}
	}
	return found
}

// value turns a frontmatter value into a Bases value: numbers are
// float64, a string holding only a wikilink is a Link (Bases reads
// wikilinks in properties as links).
func value(v any) any {
	switch v := v.(type) {
	case int64:
		return float64(v)
	case int:
		return float64(v)
	case string:
		if strings.HasPrefix(v, "[[") && strings.HasSuffix(v, "]]") && !strings.Contains(v[2:len(v)-2], "]]") {
			return link{v[2 : len(v)-2]}
		}
		return v
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = value(x)
		}
		return out
	}
	return v
}

func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case float64:
		return v != 0 && !math.IsNaN(v)
	case string:
		return v != ""
	}
	return true // lists, objects, links, files, dates, as in JavaScript
}

func equal(a, b any) bool {
	switch a := a.(type) {
	case link:
		bl, ok := b.(link)
		return ok && strings.EqualFold(a.target, bl.target)
	case []any, map[string]any:
		return false
	}
	return a == b
}

// number is v as JavaScript's relational operators see it.
func toNumber(v any) (float64, bool) {
	switch v := v.(type) {
	case nil:
		return 0, true
	case bool:
		if v {
			return 1, true
		}
		return 0, true
	case float64:
		return v, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		return f, err == nil
	case time.Time:
		return float64(v.UnixMilli()), true
	}
	return 0, false
}

func (ev *evaluator) eval(e expr, en env) (any, error) {
	if en.depth > 50 {
		return nil, fmt.Errorf("formulas too deep (a cycle?)")
	}
	switch e := e.(type) {
	case lit:
		return e.v, nil
	case list_:
		out := []any{}
		for _, x := range e.items {
			v, err := ev.eval(x, en)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case ident:
		switch {
		case en.lambda && e.name == "value":
			return en.value, nil
		case en.lambda && e.name == "index":
			return en.index, nil
		case e.name == "file":
			return en.n, nil
		}
		return value(en.n.fm[e.name]), nil
	case member:
		if id, ok := e.obj.(ident); ok {
			switch id.name {
			case "formula":
				f, ok := ev.formulas[e.name]
				if !ok {
					return nil, fmt.Errorf("no formula %s", e.name)
				}
				en.depth++
				return ev.eval(f, en)
			case "note":
				return value(en.n.fm[e.name]), nil
			}
		}
		obj, err := ev.eval(e.obj, en)
		if err != nil {
			return nil, err
		}
		return ev.field(obj, e.name)
	case method:
		obj, err := ev.eval(e.obj, en)
		if err != nil {
			return nil, err
		}
		return ev.method(obj, e, en)
	case call:
		return ev.call(e, en)
	case unary:
		x, err := ev.eval(e.x, en)
		if err != nil {
			return nil, err
		}
		if e.op == "!" {
			return !truthy(x), nil
		}
		f, _ := toNumber(x)
		return -f, nil
	case binary:
		l, err := ev.eval(e.l, en)
		if err != nil {
			return nil, err
		}
		switch e.op { // short-circuit, returning an operand as JavaScript does
		case "&&":
			if !truthy(l) {
				return l, nil
			}
			return ev.eval(e.r, en)
		case "||":
			if truthy(l) {
				return l, nil
			}
			return ev.eval(e.r, en)
		}
		r, err := ev.eval(e.r, en)
		if err != nil {
			return nil, err
		}
		switch e.op {
		case "==":
			return equal(l, r), nil
		case "!=":
			return !equal(l, r), nil
		case "<", ">", "<=", ">=":
			ls, lok := l.(string)
			rs, rok := r.(string)
			if lok && rok {
				c := strings.Compare(ls, rs)
				return map[string]bool{"<": c < 0, ">": c > 0, "<=": c <= 0, ">=": c >= 0}[e.op], nil
			}
			a, aok := toNumber(l)
			b, bok := toNumber(r)
			if !aok || !bok {
				return false, nil // NaN compares false
			}
			return map[string]bool{"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[e.op], nil
		}
		return nil, fmt.Errorf("the test evaluator does not know the operator %s", e.op)
	}
	return nil, fmt.Errorf("the test evaluator cannot evaluate %T", e)
}

func (ev *evaluator) field(obj any, name string) (any, error) {
	switch o := obj.(type) {
	case *testNote:
		switch name {
		case "path":
			return o.path, nil
		case "name":
			return path.Base(o.path), nil
		case "basename":
			return strings.TrimSuffix(path.Base(o.path), path.Ext(o.path)), nil
		case "folder":
			return path.Dir(o.path), nil
		case "ext":
			return strings.TrimPrefix(path.Ext(o.path), "."), nil
		case "mtime":
			return o.mtime, nil
		case "properties":
			m := map[string]any{}
			for k, v := range o.fm {
				m[k] = value(v)
			}
			return m, nil
		}
	case map[string]any:
		return o[name], nil
	case []any:
		if name == "length" {
			return float64(len(o)), nil
		}
	case string:
		if name == "length" {
			return float64(len([]rune(o))), nil
		}
	case nil:
		return nil, fmt.Errorf("%s of null", name)
	}
	return nil, fmt.Errorf("the test evaluator does not know the field %s of %T", name, obj)
}

func (ev *evaluator) method(obj any, m method, en env) (any, error) {
	arg := func(i int) (any, error) {
		if i >= len(m.args) {
			return nil, fmt.Errorf("%s needs %d arguments", m.name, i+1)
		}
		return ev.eval(m.args[i], en)
	}
	switch o := obj.(type) {
	case *testNote:
		switch m.name {
		case "hasProperty":
			a, err := arg(0)
			if err != nil {
				return nil, err
			}
			_, ok := o.fm[fmt.Sprint(a)]
			return ok, nil
		}
	case link:
		if m.name == "asFile" {
			if n := ev.resolve(o.target); n != nil {
				return n, nil
			}
			return nil, nil
		}
	case []any:
		switch m.name {
		case "isEmpty":
			return len(o) == 0, nil
		case "contains":
			a, err := arg(0)
			if err != nil {
				return nil, err
			}
			return slices.ContainsFunc(o, func(x any) bool { return equal(x, a) }), nil
		case "filter":
			out := []any{}
			for i, x := range o {
				v, err := ev.eval(m.args[0], env{n: en.n, value: x, index: float64(i), lambda: true, depth: en.depth})
				if err != nil {
					return nil, err
				}
				if truthy(v) {
					out = append(out, x)
				}
			}
			return out, nil
		}
	case string:
		switch m.name {
		case "toString":
			return o, nil
		case "isEmpty":
			return o == "", nil
		case "lower":
			return strings.ToLower(o), nil
		case "trim":
			return strings.TrimSpace(o), nil
		}
	case float64, bool:
		if m.name == "toString" {
			return fmt.Sprint(o), nil
		}
	case nil:
		if m.name == "isEmpty" { // "Returns true if the string ... is not present"
			return true, nil
		}
		return nil, fmt.Errorf("%s() of null", m.name)
	}
	return nil, fmt.Errorf("the test evaluator does not know %T.%s()", obj, m.name)
}

func (ev *evaluator) call(c call, en env) (any, error) {
	args := make([]any, 0, len(c.args))
	if c.fn != "if" {
		for _, a := range c.args {
			v, err := ev.eval(a, en)
			if err != nil {
				return nil, err
			}
			args = append(args, v)
		}
	}
	switch c.fn {
	case "if":
		cond, err := ev.eval(c.args[0], en)
		if err != nil {
			return nil, err
		}
		if truthy(cond) {
			return ev.eval(c.args[1], en)
		}
		if len(c.args) > 2 {
			return ev.eval(c.args[2], en)
		}
		return nil, nil
	case "list":
		if l, ok := args[0].([]any); ok {
			return l, nil
		}
		return []any{args[0]}, nil
	case "link":
		return link{fmt.Sprint(args[0])}, nil
	}
	return nil, fmt.Errorf("the test evaluator does not know %s()", c.fn)
}

// filterMatches applies a filter of a .base (a statement, or an
// and/or/not of filters) to note n.
func (ev *evaluator) filterMatches(f any, n *testNote) (bool, error) {
	switch f := f.(type) {
	case nil:
		return true, nil
	case string:
		e, err := parseExpr(f)
		if err != nil {
			return false, err
		}
		v, err := ev.eval(e, env{n: n})
		if err != nil {
			return false, fmt.Errorf("%s on %s: %w", f, n.path, err)
		}
		return truthy(v), nil
	case map[string]any:
		if len(f) != 1 {
			return false, fmt.Errorf("a filter object has one of and, or, not: %v", f)
		}
		for k, sub := range f {
			items, ok := sub.([]any)
			if !ok {
				return false, fmt.Errorf("%s holds no list", k)
			}
			for _, it := range items {
				ok, err := ev.filterMatches(it, n)
				if err != nil {
					return false, err
				}
				switch {
				case k == "and" && !ok:
					return false, nil
				case k == "or" && ok:
					return true, nil
				case k == "not" && ok: // "None of the following are true"
					return false, nil
				}
			}
			return k != "or", nil
		}
	}
	return false, fmt.Errorf("not a filter: %#v", f)
}

// readTestNote reads a note of the test vault.
func readTestNote(p string, content []byte, mtime time.Time) *testNote {
	n := markdown.Parse(p, content)
	return &testNote{path: p, fm: n.Frontmatter.JSON(), mtime: mtime}
}
