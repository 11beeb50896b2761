package text

import (
	"fmt"
	"strings"
)

// The numbers written in words that more than one reader of text compares
// by value (the normal form of sameness, the facts of meaning), defined
// here once so that both read "三天" and "2nd" alike.

// IsOrdinalSuffix reports whether s, as written (case kept), is the
// suffix of an English ordinal after its digits: "st", "nd", "rd" or "th".
func IsOrdinalSuffix(s string) bool { return ordinalSuffixes[s] }

var ordinalSuffixes = map[string]bool{"st": true, "nd": true, "rd": true, "th": true}

// ChineseNumber reads a run of Chinese numerals at rs[i] ("三", "二十",
// "一百五十"), returning its value as digits and where it ends; it ends at
// i when there is none, or when the run is a word that holds a numeral
// without being a number (一起, 一直, 万一, 统一).
func ChineseNumber(rs []rune, i int) (string, int) {
	j := i
	for j < len(rs) && strings.ContainsRune(chineseDigits+chineseScales, rs[j]) {
		j++
	}
	if j == i {
		return "", i
	}
	run := string(rs[i:j])
	if run == "一" && j < len(rs) && strings.ContainsRune(notNumberAfterOne, rs[j]) ||
		run == "万一" || i > 0 && strings.ContainsRune("统唯第", rs[i-1]) && run == "一" {
		return "", i
	}
	total, section, digit := 0, 0, -1
	for _, r := range rs[i:j] {
		if k := strings.IndexRune(chineseDigits, r); k >= 0 {
			digit = chineseDigitValue[r]
			continue
		}
		scale := chineseScaleValue[r]
		if digit < 0 {
			digit = 1 // 十 alone is ten
		}
		if scale >= 10000 {
			total = (total + section + digit) * scale
			section, digit = 0, -1
			continue
		}
		section += digit * scale
		digit = -1
	}
	total += section + max(digit, 0)
	return fmt.Sprint(total), j
}

const (
	chineseDigits     = "零〇一二两三四五六七八九"
	chineseScales     = "十百千万亿"
	notNumberAfterOne = "起直定下般些样致旦切边律共同个遍点"
)

var (
	chineseDigitValue = map[rune]int{'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	chineseScaleValue = map[rune]int{'十': 10, '百': 100, '千': 1000, '万': 10000, '亿': 100000000}
)
