package session

import (
	"regexp"
	"sync"
)

// secrets are the shapes of credentials people paste into prompts: API
// keys and tokens of common services, private key blocks, bearer tokens,
// JSON web tokens, URLs with a password, and key = value pairs whose key
// names a secret. They are compiled on first use: most processes redact
// nothing.
var secrets = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)`),
		regexp.MustCompile(`\b(AKIA|ASIA)[0-9A-Z]{16}\b`),                                     // AWS access key id
		regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{36,}\b`),                                  // GitHub tokens
		regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{22,}\b`),                                // GitHub fine-grained
		regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}\b`),                                    // GitLab
		regexp.MustCompile(`\bsk-(proj-|ant-)?[A-Za-z0-9_-]{20,}\b`),                          // OpenAI, Anthropic
		regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}\b`),                               // Slack
		regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`),                                       // Google API key
		regexp.MustCompile(`\b[sr]k_(live|test)_[A-Za-z0-9]{16,}\b`),                          // Stripe
		regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), // JWT
		regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/-]{16,}=*`),
		regexp.MustCompile(`\b[a-z][a-z0-9+.-]*://[^\s/:@]+:[^\s/@]+@`), // user:password@ in a URL
		regexp.MustCompile(`(?i)\b[\w.-]*(password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)[\w.-]*\s*[:=]\s*["']?[^\s"']{6,}`),
	}
})

// Redacted replaces each secret Redact finds.
const Redacted = "[REDACTED]"

// Redact returns s with every secret of a common shape replaced by
// [Redacted]: what a session note keeps of a prompt must not carry a
// credential into a vault that git shares.
func Redact(s string) string {
	for _, re := range secrets() {
		s = re.ReplaceAllString(s, Redacted)
	}
	return s
}
