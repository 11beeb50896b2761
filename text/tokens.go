package text

import "unicode/utf8"

// EstimateTokens estimates how many tokens a language model's tokenizer
// makes of s, without one: every 4 bytes of ASCII count as one token
// (English averages about 4 characters a token, and the LoCoMo baselines
// count characters/4), and every other character counts as one token
// (a CJK character is about one token; accented letters are over-counted,
// which errs on the safe side of a budget). It is the one estimator
// vaultmem uses everywhere: chunk sizes, recall budgets, context sizes.
func EstimateTokens(s string) int {
	ascii, other := 0, 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			ascii++
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		other++
		i += size
	}
	return (ascii+3)/4 + other
}
