package text

import (
	"strings"
	"sync"
)

// IsStopWord reports whether w, a lower-cased word, is too common to say
// what a text is about: English function words (the Snowball list), their
// contractions as words split at apostrophes give them ("don", "t", "ll")
// and with the apostrophe removed ("dont", "im"; not those that spell a
// word of their own: "shell", "ill", "wed", "id"), and the fillers of
// conversation ("yeah", "okay", "um"), which would otherwise be among the
// most frequent words of a chat log. Content words that are merely common
// ("like", "want", "time") are not stop words: inverse document frequency
// weighs them down without losing "I like painting".
func IsStopWord(w string) bool {
	_, ok := stopWords()[w]
	return ok
}

// stopWords is stopList as a set, made at first use.
var stopWords = sync.OnceValue(func() map[string]struct{} {
	m := make(map[string]struct{})
	for _, w := range strings.Fields(stopList) {
		m[w] = struct{}{}
	}
	return m
})

const stopList = `
a about above after again against all am an and any are as at
be because been before being below between both but by
can cannot could did do does doing down during
each few for from further
had has have having he her here hers herself him himself his how
i if in into is it its itself
me more most my myself no nor not of off on once only or other ought our
ours ourselves out over own same she should so some such
than that the their theirs them themselves then there these they this those
through to too under until up very was we were what when where which while
who whom why will with would you your yours yourself yourselves

arent cant couldnt didnt doesnt dont hadnt hasnt havent hed hes
im isnt itll ive lets mustnt shant shes shouldnt
thats theres theyd theyll theyre theyve wasnt weve werent whats
whens wheres whos whys wont wouldnt youd youll youre youve

also just really actually maybe perhaps quite rather still yet even
either neither whether though although however anyway
yeah yes yep yup nope ok okay oh ooh ah ahh aw hmm hm um umm uh uhh
hey hi hello lol haha hahaha wow
us let may might must shall
one ones thing things something anything nothing everything
someone anyone everyone somebody anybody everybody
get gets got gotten getting

aren couldn d didn doesn don isn ll m re s shouldn t ve wasn weren won wouldn
now
`
