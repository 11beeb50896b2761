package meaning

import (
	"strconv"
	"strings"
	"sync"

	"github.com/vaultmem/vaultmem/text"
)

// The word lists of Differ (see meaning.go). English words are listed as
// written and looked up lower-cased, or by their text.Term where stems matter
// (opposites, synonyms).

// numberWords are English number words, as digits.
var numberWords = func() map[string]string {
	m := map[string]string{}
	for i, w := range strings.Fields("zero one two three four five six seven eight nine ten eleven twelve " +
		"thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty") {
		m[w] = strconv.Itoa(i)
	}
	for i, w := range strings.Fields("thirty forty fifty sixty seventy eighty ninety") {
		m[w] = strconv.Itoa(30 + 10*i)
	}
	m["hundred"], m["thousand"], m["million"], m["billion"], m["dozen"] = "100", "1000", "1000000", "1000000000", "12"
	return m
}()

// calendarWords are month and weekday names and the days said relative
// to today, each as one normal form ("sept" is "september"). "Sun" and
// "sat" are left out, and "may" is the month only beside a number: they
// are more often other words.
var calendarWords = func() map[string]string {
	m := map[string]string{}
	for _, line := range []string{
		"january jan", "february feb", "march mar", "april apr", "june jun", "july jul", "august aug",
		"september sep sept", "october oct", "november nov", "december dec",
		"monday", "tuesday tue tues", "wednesday", "thursday thu thur thurs", "friday fri", "saturday", "sunday",
		"today", "tomorrow", "yesterday", "tonight", "weekend weekends", "weekday weekdays",
	} {
		ws := strings.Fields(line)
		for _, w := range ws {
			m[w] = ws[0]
		}
	}
	m["mondays"], m["tuesdays"], m["wednesdays"], m["thursdays"], m["fridays"], m["saturdays"], m["sundays"] =
		"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"
	return m
}()

// negationWords negate what follows; a word ending in "n't" does too.
// German, Spanish and French ones are here too ("ne" of "ne … pas": see
// negationCompanion).
var negationWords = wordSet("not no never none nothing nobody nowhere neither nor without cannot " +
	"cant dont doesnt didnt isnt arent wasnt werent wont shouldnt mustnt couldnt wouldnt havent hasnt hadnt " +
	"nicht kein keine keinen keinem keiner keines nie niemals ohne " +
	"nunca jamás tampoco ningún ninguno ninguna " +
	"ne jamais aucun aucune")

// negationCompanions complete the negation before them into one, and
// are neither a negation of their own nor a content word: "no longer",
// "nicht mehr", "ne … pas", "ne … plus", "no … nunca" (see
// farCompanions); "ya" completes the "no" after it ("ya no").
var negationCompanions = map[string]string{
	"longer": "no", "mehr": "nicht kein keine keinen keinem keiner", "más": "no",
	"pas": "ne", "plus": "ne", "point": "ne", "guère": "ne", "jamais": "ne", "rien": "ne", "personne": "ne",
	"aucun": "ne", "aucune": "ne",
	"nunca": "no", "jamás": "no", "nada": "no", "nadie": "no", "ninguno": "no", "ninguna": "no",
}

// farCompanions may stand a few words after the negation they complete,
// in its sentence: French "ne … pas", Spanish "no … nunca" (one negation,
// as "nunca" alone is).
var farCompanions = map[string]bool{
	"pas": true, "plus": true, "point": true, "guère": true, "jamais": true, "rien": true, "personne": true,
	"aucun": true, "aucune": true,
	"nunca": true, "jamás": true, "nada": true, "nadie": true, "ninguno": true, "ninguna": true,
}

// cjkNegationCompanions complete the negating character before them:
// 不再 ("no longer").
var cjkNegationCompanions = map[string]string{"再": "不"}

// restrictingWords narrow what a sentence says to a part of it, each as
// one normal form.
var restrictingWords = map[string]string{"only": "only", "except": "except", "unless": "unless",
	"until": "until", "instead": "instead", "rather": "instead"}

// unitWords are the units a number may carry, as one normal form.
var unitWords = func() map[string]string {
	m := map[string]string{}
	for _, line := range []string{
		"second s sec secs seconds", "ms msec msecs millisecond milliseconds", "minute min mins minutes",
		"hour h hr hrs hours", "day d days", "week wk wks weeks", "month mo mos months", "year y yr yrs years",
		"byte b bytes", "kb", "kib", "mb", "mib", "gb", "gib", "tb", "k", "percent pct", "px", "em", "rem",
		"times x", "core cores", "cpu cpus", "node nodes", "replica replicas", "retry retries", "attempt attempts",
		"request requests req reqs", "user users", "line lines", "character characters chars", "token tokens",
		"file files", "row rows", "item items", "commit commits",
	} {
		ws := strings.Fields(line)
		for _, w := range ws {
			m[w] = ws[0]
		}
	}
	return m
}()

// side is a word's side of a pair of opposites.
type side struct {
	pair string
	side int
}

// cjkOpposites are Chinese words and their opposites, found in the text
// as written (Chinese words are not split by spaces).
var cjkOpposites = [][2][]string{
	{{"之前", "以前", "早于"}, {"之后", "以后", "晚于"}},
	{{"允许"}, {"禁止"}},
	{{"启用", "开启", "打开"}, {"禁用", "关闭"}},
	{{"成功"}, {"失败"}},
	{{"开始"}, {"结束"}},
	{{"最大", "最多", "上限"}, {"最小", "最少", "下限"}},
	{{"以上", "大于", "高于", "多于", "超过"}, {"以下", "小于", "低于", "少于"}},
	{{"增加", "提高", "增大"}, {"减少", "降低", "减小"}},
	{{"公开"}, {"私有"}},
	{{"内部"}, {"外部"}},
	{{"真"}, {"假"}},
	{{"相同"}, {"不同"}},
	{{"上线"}, {"下线"}},
	{{"升级"}, {"降级"}},
	{{"必须", "必需"}, {"可选"}},
	{{"同步"}, {"异步"}},
	{{"本地"}, {"远程"}},
	{{"前端"}, {"后端"}},
	{{"上游"}, {"下游"}},
	{{"安全"}, {"危险"}},
}

// cjkNegations are the Chinese characters that negate, unless they start
// one of the words of notNegationAfter.
const cjkNegations = "不没沒别別勿未无無非莫甭"

var notNegationAfter = wordSet("非常 无论 無論 不过 不過 不同 不断 不仅 未来 別人 别人 别的 並非 莫名 無効 无效 無料 无料")

// notJapaneseNegation are the kanji before ない that make it part of an
// adjective, not a negation: 少ない ("few"), 危ない ("dangerous").
const notJapaneseNegation = "少危幼切儚汚"

// cjkUnits are the Chinese characters that may follow a number as its
// unit.
const cjkUnits = "秒分时天日周月年次岁元块倍"

// cjkFunction are Chinese characters that carry no content of their own.
const cjkFunction = "的地得了着过是在和与及也都就要会把被让给对从向这那个我你他她它们请吧呢啊吗很还又并且或而之以于等其该此里"

// synonyms map words (by text.Term) and Chinese words to one word of theirs:
// a rewording that swaps one for another says the same.
var synonyms = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, line := range []string{
		"database db", "repository repo", "configuration config", "documentation docs doc document",
		"directory dir folder", "information info", "application app", "environment env",
		"production prod", "development dev", "authentication auth", "message msg",
		"prefer like likes want wants choose favor favour love use uses pick opt",
		"need needs require requires", "run execute", "delete remove",
		"create make", "check verify", "fix repair", "show display", "big large", "small little",
		"quick fast", "begin start", "finish end",
	} {
		ws := strings.Fields(line)
		for _, w := range ws {
			m[text.Term(w)] = text.Term(ws[0])
		}
	}
	for _, line := range []string{
		"偏好 喜欢 更喜欢 倾向 倾向于 偏爱 喜欢用", "使用 用 采用", "总是 一直 始终 每次都",
		"必须 一定要 务必 需要", "文档 说明", "仓库 代码库", "配置 设置",
	} {
		ws := strings.Fields(line)
		for _, w := range ws {
			m[w] = ws[0]
		}
	}
	return m
})

// directionWords give the word after them a role that swapping two words
// turns around ("from MySQL to Postgres", "tabs over spaces").
var directionWords = map[string]string{"from": "from", "to": "over", "into": "over", "onto": "over",
	"over": "over", "than": "over", "vs": "over", "versus": "over"}

// articles may stand between a direction word and its word.
var articles = wordSet("the a an")
