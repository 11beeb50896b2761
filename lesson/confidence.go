package lesson

import "slices"

// A lesson's confidence is how sure its record makes it that following
// the lesson helps: the mean of a Beta posterior over its success rate,
// whose prior is the confidence a new lesson is written with
// (InitialConfidence) worth ConfidencePrior outcomes:
//
//	confidence = (InitialConfidence × ConfidencePrior + successes)
//	             / (ConfidencePrior + successes + failures)
//
// Strength says how much to push a lesson (it moves by fixed steps and
// decays when unused); confidence says how much its record supports it,
// and unlike strength it settles as outcomes accumulate: 0.5 with none,
// 0.75 after 2 successes, 0.25 after 2 failures, 0.8 after 8 of 10. The
// counts are the History's success and failure lines, so that it is a
// function of the record like strength is, and two machines' outcomes
// merged by git count both.

// InitialConfidence is a new lesson's confidence, and the prior's mean.
const InitialConfidence = 0.5

// ConfidencePrior is how many outcomes the prior is worth: 2, the uniform
// prior Beta(1, 1) for InitialConfidence 0.5, so that the first outcome
// moves confidence by a sixth, and ten outcomes outweigh the prior five
// to one.
const ConfidencePrior = 2.0

// Confidence is the confidence of a lesson with successes and failures
// recorded (see above), rounded to four decimals.
func Confidence(successes, failures int) float64 {
	return round((InitialConfidence*ConfidencePrior + float64(successes)) / (ConfidencePrior + float64(successes+failures)))
}

// ledgerConfidence is the confidence led's outcomes give.
func ledgerConfidence(led Ledger) float64 {
	ok, bad := 0, 0
	for _, e := range led.Entries {
		switch e.Kind {
		case EntrySuccess:
			ok++
		case EntryFailure:
			bad++
		}
	}
	return Confidence(ok, bad)
}

// hasOutcome reports whether led records an outcome.
func hasOutcome(led Ledger) bool {
	return slices.ContainsFunc(led.Entries, func(e Entry) bool { return e.Kind == EntrySuccess || e.Kind == EntryFailure })
}
