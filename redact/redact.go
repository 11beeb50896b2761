// Package redact finds secrets in what agents write and masks them: the
// prompts, shell commands, tool inputs and paths the hooks record end up in
// a vault that git shares, and a credential pasted into any of them must
// not. A secret is found by its shape (a token of a known service, a
// password in a URL, a value whose key or flag names a password) and
// replaced by [REDACTED:<shape>], keeping the text around it:
//
//	GITHUB_TOKEN=ghp_…            → GITHUB_TOKEN=[REDACTED:github-token]
//	postgres://app:hunter2@db/app → postgres://app:[REDACTED:password]@db/app
//
// It imports only the standard library.
package redact

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// shape is one way a secret looks. Every capturing group of its pattern is
// a secret (the text around it is context that stays); a pattern without
// one is a secret as a whole. Several patterns may find one shape.
type shape struct {
	// name is the shape's, in the placeholder: lower-case words and dashes.
	name string
	// hints are words one of which a text holds (case folded) whenever
	// the pattern matches in it: a text without any is not searched, so
	// that the patterns cost nothing on the text of most prompts.
	hints string
	// pattern is the regular expression (Go syntax).
	pattern string
	// min is the least length of a secret it finds; a shorter one is
	// taken for a word of prose.
	min int
	// block is set for a pattern that spans lines; every other matches
	// within one line.
	block bool
}

// Common parts of the patterns below.
const (
	// value is what follows a key or a flag naming a secret: a quoted
	// string, else a word up to a space, quote, & or ; (the ends of a
	// shell word, a URL's query parameter, a connection string's part);
	// one starting with = is an operator ("password == x"), not a value.
	value = `(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'&;=][^\s"'&;]*))`
	// assign is what joins a key to its value: "key=", "key: ",
	// `"key": `, "key = ".
	assign = `["']?[ \t]*[:=][ \t]*`
	// flagValue is what follows a command-line flag naming a secret:
	// "=value", or a space and a value that is no other flag.
	flagValue = `(?:=` + value + `|[ \t]+(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'=-][^\s"']*)))`
	// keyStart is where a key begins: not inside a word, nor after a
	// slash (a URL's "user:password@" is the URL pattern's).
	keyStart = `(?:^|[^/\w.-])`
	// afterB64 ends a base64 secret of a fixed length: the next character
	// is none of base64's, or there is none.
	afterB64 = `(?:[^A-Za-z0-9/+=]|$)`
)

// shapes is the one table of secrets' shapes. A secret two patterns find
// is named by the one higher in the table: the specific shapes come
// first, the keys and flags that name a secret last.
var shapes = []shape{
	// Blocks and tokens whose shape alone says what they are.
	{name: "private-key", hints: "private key-----", block: true,
		pattern: `-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)`},
	{name: "github-token", hints: "ghp_ gho_ ghu_ ghs_ ghr_ github_pat_",
		pattern: `\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`},
	{name: "gitlab-token", hints: "glpat-", pattern: `\bglpat-[A-Za-z0-9_-]{20,}`},
	{name: "anthropic-key", hints: "sk-ant-", pattern: `\bsk-ant-[A-Za-z0-9_-]{20,}`},
	// OpenAI's keys: legacy ones are letters and digits only, so that
	// "sk-learn-model-..." is no key.
	{name: "openai-key", hints: "sk-", pattern: `\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{20,})`},
	{name: "slack-webhook", hints: "hooks.slack.com",
		pattern: `hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/-]+)`},
	{name: "slack-token", hints: "xox xapp-", pattern: `\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}`},
	{name: "google-api-key", hints: "aiza", pattern: `\bAIza[0-9A-Za-z_-]{35}`},
	{name: "stripe-key", hints: "_live_ _test_", pattern: `\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}`},
	{name: "npm-token", hints: "npm_", pattern: `\bnpm_[A-Za-z0-9]{36,}`},
	{name: "huggingface-token", hints: "hf_", pattern: `\bhf_[A-Za-z0-9]{30,}`},
	{name: "pypi-token", hints: "pypi-", pattern: `\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}`},
	{name: "sendgrid-key", hints: "sg.", pattern: `\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`},
	{name: "docker-token", hints: "dckr_pat_", pattern: `\bdckr_pat_[A-Za-z0-9_-]{20,}`},
	{name: "jwt", hints: "eyj", pattern: `\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`},
	// AWS: a secret key is 40 characters of base64 that say nothing by
	// themselves; it is one after its key's name, or beside a key id on
	// the same line.
	{name: "aws-secret-key", hints: "secret",
		pattern: `(?i:aws_?secret_?access_?key|aws-secret-access-key|secret_?access_?key)` + assign + value},
	{name: "aws-secret-key", hints: "akia asia",
		pattern: `\b(?:AKIA|ASIA)[0-9A-Z]{16}\b[^\n]{0,48}?[^A-Za-z0-9/+=\n]([A-Za-z0-9/+]{40})` + afterB64},
	{name: "aws-key-id", hints: "akia asia", pattern: `\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`},
	{name: "azure-key", hints: "accountkey= sharedaccesskey=", pattern: `(?i:AccountKey|SharedAccessKey)=([^;\s"']+)`},
	{name: "azure-sas", hints: "sharedaccesssignature= sig=",
		pattern: `(?i:SharedAccessSignature)=([^;\s"']+)|[?&]sig=([A-Za-z0-9%+/=]{10,})`},
	// HTTP authorization: Basic's user:password in base64, a bearer
	// token (one with a character no word of prose has).
	{name: "basic-auth", hints: "basic",
		pattern: `(?i:authorization)` + assign + `["']?(?i:basic)[ \t]+([A-Za-z0-9+/]+=*)`},
	{name: "bearer-token", hints: "bearer",
		pattern: `(?i:\bbearer)[ \t]+([A-Za-z0-9._~+/-]*[0-9_~+/-][A-Za-z0-9._~+/-]*=*)`, min: 8},
	// Passwords: in a URL (one holding @ ends at the last @ before the
	// host), in a DSN without a scheme, after mysql's -p, curl's -u, a
	// flag or a key that names one.
	{name: "password", hints: "://", pattern: `\b[A-Za-z][A-Za-z0-9+.-]*://[^\s/:@]*:([^\s/?#]+)@`},
	{name: "password", hints: "@tcp( @tcp6( @udp( @unix(", pattern: `\b[\w.-]+:([^\s/]+)@(?:tcp6?|udp|unix)\(`},
	{name: "password", hints: "dsn url uri",
		pattern: `(?i:[\w.-]*(?:dsn|url|uri))` + assign + `["']?[\w.+-]+:([^\s/?#"']+)@`},
	{name: "password", hints: "mysql mariadb",
		pattern: `\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlcheck|mysqlsh|mariadb|mariadb-dump)\b[^\n|;&]*?[ \t]-p([^\s"']\S*|"[^"\n]*"\S*|'[^'\n]*'\S*)`},
	{name: "password", hints: "curl", pattern: `\bcurl\b[^\n|;&]*?[ \t](?:-u|--user)[ \t]*["']?[^\s:"']+:([^\s"']+)`},
	{name: "password", hints: "pass pwd",
		pattern: `(?:^|[\s"'])--?(?i:[a-z-]*(?:password|passwd|passphrase)|(?:[a-z]+-)?(?:pass|pwd)|storepass|keypass)` + flagValue},
	{name: "password", hints: "pass pw",
		pattern: keyStart + `(?i:[\w.-]*(?:password|passwd|passphrase)|(?:[\w.-]*[_.-])?(?:pass|pwd|pw))` + assign + value},
	// Other secrets a flag or a key names.
	{name: "secret", hints: "token secret key",
		pattern: `(?:^|[\s"'])--?(?i:[a-z-]*(?:token|secret|api-key|apikey|access-key|secret-key|private-key))` + flagValue},
	{name: "secret", hints: "token secret key credential",
		pattern: keyStart + `(?i:[\w.-]*(?:token|secret|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|credentials?))` + assign + value},
}

// compiled are the patterns of shapes, compiled on first use (most
// processes redact nothing), and their hints folded.
var compiled = sync.OnceValue(func() []compiledShape {
	out := make([]compiledShape, len(shapes))
	for i, s := range shapes {
		out[i] = compiledShape{re: regexp.MustCompile(s.pattern), hints: strings.Fields(fold(s.hints))}
	}
	return out
})

type compiledShape struct {
	re    *regexp.Regexp
	hints []string
}

// hinted reports whether folded text holds one of c's hints (any text
// does when it has none).
func (c compiledShape) hinted(folded string) bool {
	return len(c.hints) == 0 || slices.ContainsFunc(c.hints, func(h string) bool { return strings.Contains(folded, h) })
}

// placeholders are the masks String writes (and the bare [REDACTED] of
// older versions): never masked again, so that String(String(s)) is
// String(s).
var placeholders = regexp.MustCompile(`\[REDACTED(?::[a-z0-9-]+)?\]`)

// gap is the least text String keeps between two masks when masking each
// secret on its own would more than double the text: secrets closer than
// that are masked as one, with the text between them. Each mask then
// stands for one byte or more, and at least gap kept bytes lie between
// two masks, so with masks no longer than gap+2 bytes (a test holds the
// table to it) the result is at most 2·len(s)+gap bytes.
const gap = 40

// String returns s with each secret found masked as [REDACTED:<shape>],
// the text around it kept. It is idempotent (String(String(s)) ==
// String(s)), and the result is never longer than 2·len(s)+64 bytes:
// secrets so short and dense that their masks would make it longer are
// masked together with the little text between them.
func String(s string) string {
	found := find(s)
	if len(found) == 0 {
		return s
	}
	regions := settle(s, found, false)
	out := mask(s, regions)
	if len(out) > 2*len(s)+64 {
		out = mask(s, settle(s, regions, true))
	}
	return out
}

// maxPasses bounds settle's passes; text that needs more (none but text
// made to) is masked whole.
const maxPasses = 16

// settle grows regions, the secrets of s, until s masked holds none: a
// mask can take away what ended another secret (a quote, a space), so
// that a pattern finds more in the masked text than it did in s. With
// joined, regions closer than gap are joined on every pass.
func settle(s string, regions []span, joined bool) []span {
	for range maxPasses {
		if joined {
			regions = join(regions)
		}
		more := find(mask(s, regions))
		if len(more) == 0 {
			return regions
		}
		regions = merge(append(regions, unmask(more, regions)...))
	}
	return []span{{0, len(s), regions[0].shape}}
}

// unmask maps spans of s masked with regions back to spans of s. A span
// never starts or ends inside a mask (find takes whole masks in).
func unmask(spans, regions []span) []span {
	// at maps a position of the masked text to s.
	at := func(p int) int {
		shift, masked := 0, 0
		for _, r := range regions {
			start := r.start + shift
			if start >= p {
				break
			}
			masked = start + maskLen(r)
			if masked > p {
				break
			}
			shift += maskLen(r) - (r.end - r.start)
		}
		return p - shift
	}
	out := make([]span, len(spans))
	for i, sp := range spans {
		out[i] = span{at(sp.start), at(sp.end), sp.shape}
	}
	return out
}

// span is a secret at s[start:end], of shapes[shape].
type span struct{ start, end, shape int }

// find returns the secrets in s, in order, none overlapping another: a
// secret that overlaps a mask already there takes all of it in, and one
// that is nothing but masks is none.
func find(s string) []span {
	// The patterns see each mask as NULs: a mask's letters and colon are
	// no key, user name or value to them, so that masking a secret never
	// makes a pattern find one where it found none.
	masks := placeholders.FindAllStringIndex(s, -1)
	if len(masks) > 0 {
		b := []byte(s)
		for _, m := range masks {
			clear(b[m[0]:m[1]])
		}
		s = string(b)
	}
	var spans []span
	add := func(i int, text string, at int) {
		re := compiled()[i].re
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			if re.NumSubexp() == 0 {
				spans = append(spans, span{at + m[0], at + m[1], i})
				continue
			}
			for g := 2; g < len(m); g += 2 {
				if n := m[g+1] - m[g]; m[g] >= 0 && n > 0 && n >= shapes[i].min {
					spans = append(spans, span{at + m[g], at + m[g+1], i})
				}
			}
		}
	}
	// Every pattern but a block's matches within a line: each is tried
	// on the lines holding one of its hints, so that a long text costs
	// little more than finding the hints in it.
	folded := fold(s)
	for i, c := range compiled() {
		if shapes[i].block && c.hinted(folded) {
			add(i, s, 0)
		}
	}
	at := 0
	for line := range strings.Lines(folded) {
		end := strings.IndexByte(s[at:], '\n')
		if end < 0 {
			end = len(s) - at
		}
		text := s[at : at+end]
		for i, c := range compiled() {
			if !shapes[i].block && c.hinted(line) {
				add(i, text, at)
			}
		}
		at += len(text) + 1
	}
	if len(spans) == 0 {
		return nil
	}
	kept := spans[:0]
	for _, sp := range spans {
		covered, start, end := 0, sp.start, sp.end
		for _, m := range masks {
			if m[1] <= start || m[0] >= end {
				continue
			}
			covered += m[1] - m[0]
			sp.start, sp.end = min(sp.start, m[0]), max(sp.end, m[1])
		}
		if covered < sp.end-sp.start {
			kept = append(kept, sp)
		}
	}
	return merge(kept)
}

// merge sorts spans and makes one of those that overlap, named by the
// shape highest in the table.
func merge(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int { return a.start - b.start })
	var out []span
	for _, sp := range spans {
		if n := len(out); n > 0 && sp.start < out[n-1].end {
			out[n-1].end = max(out[n-1].end, sp.end)
			out[n-1].shape = min(out[n-1].shape, sp.shape)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// join merges secrets fewer than gap bytes apart, the text between them
// with them, named by the first.
func join(spans []span) []span {
	out := []span{spans[0]}
	for _, sp := range spans[1:] {
		if last := &out[len(out)-1]; sp.start-last.end < gap {
			last.end = sp.end
			continue
		}
		out = append(out, sp)
	}
	return out
}

// mask is s with each of spans replaced by its placeholder.
func mask(s string, spans []span) string {
	var b strings.Builder
	b.Grow(len(s) + 24*len(spans))
	at := 0
	for _, sp := range spans {
		b.WriteString(s[at:sp.start])
		b.WriteString(placeholder(sp))
		at = sp.end
	}
	b.WriteString(s[at:])
	return b.String()
}

// placeholder is the mask of sp.
func placeholder(sp span) string { return "[REDACTED:" + shapes[sp.shape].name + "]" }

// maskLen is the length of sp's mask.
func maskLen(sp span) int { return len("[REDACTED:]") + len(shapes[sp.shape].name) }

// fold maps each rune of s to the least rune that case-folds to it, as
// the patterns' (?i) compares them (K, k and the Kelvin sign alike), so
// that a hint found in a folded text is one a pattern could match.
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf {
			if 'a' <= r && r <= 'z' {
				return r - 'a' + 'A'
			}
			return r
		}
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}
