package recall

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Intent is what a question is after.
type Intent string

// The six intents a question can have.
const (
	SimpleFact   Intent = "simple-fact"
	Preference   Intent = "preference-recall"
	Causal       Intent = "causal-reasoning"
	Relationship Intent = "entity-relationship"
	Temporal     Intent = "temporal-analysis"
	Hybrid       Intent = "hybrid"
)

// Intents lists every intent.
var Intents = []Intent{SimpleFact, Preference, Causal, Relationship, Temporal, Hybrid}

// intentCount is len(Intents), as a constant.
const intentCount = 6

// ParseIntent checks an intent name.
func ParseIntent(s string) (Intent, error) {
	for _, i := range Intents {
		if string(i) == s {
			return i, nil
		}
	}
	names := make([]string, len(Intents))
	for i, in := range Intents {
		names[i] = string(in)
	}
	return "", fmt.Errorf("recall: unknown intent %q (want one of %s)", s, strings.Join(names, ", "))
}

// Confidence thresholds: an LLM answer is used from 0.7, the
// rules' from 0.5; below both the intent is hybrid.
const (
	llmThreshold   = 0.7
	rulesThreshold = 0.5
)

// cue is one rule: a pattern that points at an intent.
type cue struct {
	intent Intent
	re     *regexp.Regexp
}

func cues(intent Intent, patterns ...string) []cue {
	out := make([]cue, len(patterns))
	for i, p := range patterns {
		out[i] = cue{intent, regexp.MustCompile(`(?i)` + p)}
	}
	return out
}

// rules are the classifier's cues, English and Chinese. Simple-fact cues
// are the weakest: they only win when nothing more specific matches.
// Compiled on first use: a process that never classifies (a search)
// does not pay for it.
var rules = sync.OnceValue(func() []cue {
	return concat(
		cues(Causal, `\bwhy\b`, `\breasons?\b`, `\bcaus(e|es|ed|ing)\b`, `\bbecause\b`, `\bhow come\b`, `\b(lead|leads|led) to\b`,
			`\bresult(ed|s)? in\b`, `\bmotivat`, `\bwhat made\b`,
			// consequences and origins
			`\bwhat (would |will |could )?happens? (if|when)\b`, `\bwhat if\b`, `\bimpacts? (of|on)\b`, `\bconsequences?\b`,
			`\beffects? (of|on|did|does|will)\b`, `\bcome about\b`, `\bcomes? from\b`, `\bcame from\b`, `\borigins?\b`,
			`\b(broke|break|breaks|triggered|triggers)\b`, `\bend(ed)? up\b`, `\bwhat'?s behind\b`, `\bwhat is behind\b`,
			`\bhow did .+ (get|got|come) (in|into|there|here|about)\b`, `\bhow did .+ happen\b`,
			`为什么`, `为何`, `原因`, `导致`, `怎么会`, `如果.*(会|怎么样|发生)`, `后果`, `影响`, `怎么来的`, `起因`, `由来`),
		cues(Preference, `\bi (said|told|mentioned|prefer|like|liked|want|wanted|asked)\b`, `\bmy (preference|preferences|favou?rite|style)\b`,
			`\bremember\b`, `\bprefer(s|red|ence|ences)?\b`, `\bfavou?rite\b`, `\b(likes?|loves?|enjoys?|dislikes?|hates?)\b`,
			`\bdid i (say|tell|mention|ask|want)\b`, `\bdo i (use|like|want|prefer|usually)\b`, `\bi usually\b`, `\bworks for me\b`,
			`\bmy (stance|view|views|take|opinion|opinions|stand|position|habit|habits)\b`, `\bhow do i feel about\b`, `\bwhat do i think (of|about)\b`,
			`\bam i (a|an|more|into)\b`, `\b(annoys?|bothers?|irritates?|frustrates?) me\b`, `\bmy (usual|typical|default|go-to|preferred)\b`,
			`我(之前|以前|说过|喜欢|偏好|讨厌|平时|习惯|一般|通常|平常|总是)`, `我的偏好`, `记得`, `喜欢`, `偏好`, `我(对|的).{0,12}(态度|看法|立场|观点)`),
		cues(Temporal, `\bwhen\b`, `\bhistory\b`, `\btimeline\b`, `\bevolv`, `\bhow long\b`, `\b(first|last) time\b`,
			`\bmilestones?\b`, `\bin (what|which|chronological) order\b`, `\bin order\b`, `\bsequence of\b`, `\bchronolog`,
			// "between" two dates is a span, not two things related
			`\bbetween (the )?((19|20)\d\d|\d{1,2}(st|nd|rd|th)?|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|last|yesterday|today|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b`,
			`\b(before|after|since|until|during)\b`, `\b(last|next|this) (week|month|year|summer|winter)\b`, `\bdates?\b`,
			`\b(19|20)\d\d\b`, `\b(january|february|march|april|may|june|july|august|september|october|november|december)\b`,
			`\b(yesterday|today|ago)\b`, `\bq[1-4]\b`, `\bhow many (days|weeks|months|years)\b`, `\b(weekend|week) of\b`, `\bfirst thing\b`,
			`什么时候`, `何时`, `历史`, `时间线`, `演变`, `哪(一)?年`, `日期`, `多久`, `昨天`, `今天`, `前天`, `上周`, `上个?月`, `去年`,
			`[一二三四五六七八九十\d]+月`, `(最后|第一)(一)?(个)?(周|星期|周末)`, `\d{4} ?年`),
		cues(Relationship, `\brelationship\b`, `\brelat(e|ed|ion|es)\b`, `\bdiffer(ence|ent|s)?\b`, `\bcompar(e|ed|ison)\b`, `\bversus\b`,
			`\bvs\.?\b`, `\bbetween\b.*\band\b`, `\bwho is \w+ to\b`, `\bin common\b`, `\bboth\b`,
			`\bconnect(ed|ion|ions|s)?\b`, `\blink(ed|s)? (to|between|with)\b`, `\blink between\b`, `\bdepend(s|ing)? on\b`,
			`\bworks? with\b`, `\breports? to\b`, `\bfit together\b`, `\bhow does \w+ know\b`, `\bpart of\b`,
			`\bother (projects|services|people|teams|notes)\b`, `\bwho works on\b`, `\btied (to|in|together)\b`,
			`\binteract(s|ing|ion|ions)?\b`, `\bshare(s|d)?\b`, `\bin relation to\b`,
			`\b(which|what) \w+ (call|calls|use|uses|import|imports|reference|references)\b`, `\bhow (is|are) .+ (linked|related|connected|tied)\b`,
			`关系`, `区别`, `不同`, `比较`, `对比`, `共同`, `联系`, `关联`, `依赖`, `一起`, `共用`, `共享`),
		// Questions after everything about a subject: hybrid, whatever else
		// they mention.
		cues(Hybrid, `\beverything\b`, `\boverview\b`, `\bsummari[sz]e\b`, `\bcatch me up\b`, `\bwhat'?s (going on|new)\b`,
			`\bwhat do we know\b`, `\bstatus of\b`, `\bopen questions\b`, `\bplan for\b`, `\banything i should know\b`,
			`\bthings to remember\b`, `\bthe context for\b`, `\bnotes on\b`, `\bstory\b`,
			`\bwhat should (i|we) know\b`, `\bwhere are we (with|on|at)\b`, `\bprogress (on|of|with)\b`,
			`\b(need|ought) to know\b`, `\bstate of\b`, `\ball about\b`, `\btell me about\b`,
			`(讲讲|总结|情况|状态|概况)`, `(要|该)注意`, `知道些什么`, `新东西`, `未解决`, `进展`, `进度`),
		cues(SimpleFact, `^\s*(what|who|where|which)\b`, `\bwhat (is|are|was|were)\b`, `\bhow (do|does|to|did)\b`, `\bhow many\b`,
			`\btell me\b`, `是什么`, `怎么用`, `如何`, `哪(里|个)`, `谁`, `什么(许可|版本|工作)`, `多少`, `做什么`),
	)
})

func concat(lists ...[]cue) []cue {
	var out []cue
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// Classification is an intent with how sure the classifier is.
type Classification struct {
	Intent     Intent
	Confidence float64
	// Classifier is "rules", "examples" (the naive Bayes classifier of
	// labelled questions: see bayes), "llm", "cache" (an earlier answer)
	// or "given" (the caller named the intent).
	Classifier string
	// Reasoning and Keywords are what the LLM classifier says of the
	// query: why this intent, and the words to search for beside the
	// query's own (at most maxKeywords); empty from the other classifiers.
	Reasoning string
	Keywords  []string
}

// ClassifyRules classifies query by the rules: the first cue of an intent
// gives 0.6, each further one 0.15 more (at most 0.95); simple-fact cues
// count only when no other intent's do. Two specific intents at once make
// a hybrid question (confidence 0.6), as does a cue of a question after
// everything about a subject at least as strong as the others; no cue at
// all gives hybrid at 0.3, under the rules threshold.
func ClassifyRules(query string) Classification {
	hits := map[Intent]int{}
	for _, c := range rules() {
		if c.re.MatchString(query) {
			hits[c.intent]++
		}
	}
	var specific []Intent
	for in := range hits {
		if in != SimpleFact {
			specific = append(specific, in)
		}
	}
	sort.Slice(specific, func(i, j int) bool {
		if hits[specific[i]] != hits[specific[j]] {
			return hits[specific[i]] > hits[specific[j]]
		}
		return specific[i] < specific[j]
	})
	score := func(n int) float64 { return min(0.95, 0.6+0.15*float64(n-1)) }
	switch {
	case len(specific) >= 2 && hits[specific[0]] == hits[specific[1]]:
		return Classification{Intent: Hybrid, Confidence: 0.6, Classifier: "rules"}
	case len(specific) >= 1:
		return Classification{Intent: specific[0], Confidence: score(hits[specific[0]]), Classifier: "rules"}
	case hits[SimpleFact] > 0:
		return Classification{Intent: SimpleFact, Confidence: score(hits[SimpleFact]), Classifier: "rules"}
	}
	return Classification{Intent: Hybrid, Confidence: 0.3, Classifier: "rules"}
}

// classifyLocal names the intent of query without an LLM: the rules' answer,
// unless they are unsure (no cue, two intents tied, or a lone cue of a
// question after everything, all of which say hybrid at 0.6 at most);
// then the examples classifier's (see bayes) when it is sure enough
// (rulesThreshold); else hybrid.
func classifyLocal(query string) Classification {
	c := ClassifyRules(query)
	if c.Confidence < rulesThreshold || c.Intent == Hybrid && c.Confidence <= 0.6 {
		if b := examples().classify(query); b.Confidence >= rulesThreshold {
			return b
		}
	}
	if c.Confidence < rulesThreshold {
		c.Intent = Hybrid
	}
	return c
}

// howTo matches questions about how to do something, in English and
// Chinese: what lessons (package lesson) answer.
var howTo = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bhow (do|can|should|would) (i|we|you|one)\b|\bhow to\b|\bbest way to\b|\bsteps? (to|for)\b|` +
		`\bwhat should (i|we) (do|watch|check|know)\b|\bbefore (i|we) (run|deploy|merge|commit|release|start)\b|\bany (tips|lessons|gotchas)\b|` +
		`怎么|怎样|如何|步骤|注意什么`)
})

// HowTo reports whether query asks how to do something: then the lessons
// matching it are worth a layer of the context.
func HowTo(query string) bool { return howTo().MatchString(query) }
