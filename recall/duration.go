package recall

import (
	"regexp"
	"sync"
)

// A question that asks how long something took or lasted ("how long has
// she been painting?", "多久") is answered by a text that states a
// length of time ("for 7 years", "since 2016", "三个月"), which often
// shares few words with the question; ranking prefers such texts
// (durationBoost).
var (
	asksDurationRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\bhow\s+long\b|\bhow\s+many\s+(?:years|months|weeks|days|hours|minutes)\b|\bsince\s+when\b|多久|多长时间|多少(?:年|天|周|个月|小时)|几(?:年|天|周|个月|个星期|小时)`)
	})
	durationRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a\s+few|few|several|a\s+couple\s+of|couple\s+of)\s+(?:years?|months?|weeks?|days?|hours?|minutes?|decades?)\b|\bsince\s+(?:\d{4}|(?:i|we|she|he|they)\s+was|(?:i|we|she|he|they)\s+were|childhood|college|school|high\s+school|last\s+\w+)\b|\bfor\s+(?:years|months|weeks|ages|decades|a\s+while|a\s+long\s+time)\b|(?:\d+|[一二两三四五六七八九十几半]+)\s*(?:年|个月|个星期|周|天|小时)|以来|多年`)
	})
)

// durationBoost multiplies the score of a chunk stating a length of time,
// for a question that asks for one.
const durationBoost = 2.0

// asksDuration reports whether question asks how long something took or
// lasted.
func asksDuration(question string) bool { return asksDurationRE().MatchString(question) }

// statesDuration reports whether text states a length of time.
func statesDuration(text string) bool { return durationRE().MatchString(text) }
