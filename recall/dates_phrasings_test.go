package recall

import (
	"testing"
	"time"
)

// TestDatePhrasings: 100 ways people name days, weeks and spans, English
// and Chinese (ordinal weeks and weekends of a month, a weekday before or
// after a date, N days after a date, early/mid/late in a month, between
// two dates, weekends, dates without a year), each with the span it
// names; the expected spans were computed by a separate script, not by
// this parser. "Now" is Wednesday 18 November 2026.
func TestDatePhrasings(t *testing.T) {
	now := time.Date(2026, 11, 18, 15, 4, 0, 0, time.UTC)
	for _, tc := range []struct{ q, from, to string }{
		{"what did we do the first weekend of October 2023?", "2023-10-07", "2023-10-08"},
		{"notes from the first week of August 2023", "2023-08-01", "2023-08-07"},
		{"what did we do the second weekend of October 2023?", "2023-10-14", "2023-10-15"},
		{"notes from the second week of August 2023", "2023-08-08", "2023-08-14"},
		{"what did we do the third weekend of October 2023?", "2023-10-21", "2023-10-22"},
		{"notes from the third week of August 2023", "2023-08-15", "2023-08-21"},
		{"what did we do the fourth weekend of October 2023?", "2023-10-28", "2023-10-29"},
		{"notes from the fourth week of August 2023", "2023-08-22", "2023-08-28"},
		{"what did we do the last weekend of October 2023?", "2023-10-28", "2023-10-29"},
		{"notes from the last week of August 2023", "2023-08-25", "2023-08-31"},
		{"the 1st weekend of june 2024", "2024-06-01", "2024-06-02"},
		{"last week of December 2025 plans", "2025-12-25", "2025-12-31"},
		{"the first week of March", "2026-03-01", "2026-03-07"},
		{"the last weekend of july", "2026-07-25", "2026-07-26"},
		{"what happened in the second week in May 2023", "2023-05-08", "2023-05-14"},
		{"what did Melanie do the Friday before 21 June 2023?", "2023-06-16", "2023-06-16"},
		{"what did Melanie do the Monday after 21 June 2023?", "2023-06-26", "2023-06-26"},
		{"what did Melanie do the Sunday before June 21, 2023?", "2023-06-18", "2023-06-18"},
		{"what did Melanie do the Saturday after July 4, 2023?", "2023-07-08", "2023-07-08"},
		{"what did Melanie do the weekend before 3 March 2024?", "2024-02-24", "2024-02-25"},
		{"what did Melanie do the weekend after 2024-03-03?", "2024-03-09", "2024-03-10"},
		{"what did Melanie do Thursday before 2023-10-13?", "2023-10-12", "2023-10-12"},
		{"what did Melanie do the Wednesday after the 5th of May 2023?", "2023-05-10", "2023-05-10"},
		{"what did Melanie do the Tuesday before 1 January 2024?", "2023-12-26", "2023-12-26"},
		{"what did Melanie do the Friday after 30 December 2023?", "2024-01-05", "2024-01-05"},
		{"what did Melanie do the Monday before 21 June?", "2026-06-15", "2026-06-15"},
		{"two weeks after 3 May 2023", "2023-05-17", "2023-05-17"},
		{"3 days before 2023-06-21", "2023-06-18", "2023-06-18"},
		{"a month after 15 January 2024", "2024-02-15", "2024-02-15"},
		{"ten days after October 1, 2023", "2023-10-11", "2023-10-11"},
		{"one week before 1 March 2024", "2024-02-23", "2024-02-23"},
		{"early June 2023", "2023-06-01", "2023-06-10"},
		{"what happened in early-September 2023", "2023-09-01", "2023-09-10"},
		{"mid June 2023", "2023-06-11", "2023-06-20"},
		{"what happened in mid-September 2023", "2023-09-11", "2023-09-20"},
		{"late June 2023", "2023-06-21", "2023-06-30"},
		{"what happened in late-September 2023", "2023-09-21", "2023-09-30"},
		{"the end of February 2024", "2024-02-21", "2024-02-29"},
		{"the beginning of April 2023", "2023-04-01", "2023-04-10"},
		{"start of march 2025", "2025-03-01", "2025-03-10"},
		{"late october", "2026-10-21", "2026-10-31"},
		{"between 1 May 2023 and 15 May 2023", "2023-05-01", "2023-05-15"},
		{"what changed between March 2023 and May 2023", "2023-03-01", "2023-05-31"},
		{"between 2023-06-01 and 2023-06-30", "2023-06-01", "2023-06-30"},
		{"between June 2023 and August 2023", "2023-06-01", "2023-08-31"},
		{"between October 13, 2023 and October 20, 2023", "2023-10-13", "2023-10-20"},
		{"last weekend", "2026-11-14", "2026-11-15"},
		{"this weekend", "2026-11-21", "2026-11-22"},
		{"what did I do over the past weekend", "2026-11-14", "2026-11-15"},
		{"on 21 June", "2026-06-21", "2026-06-21"},
		{"on June 21st", "2026-06-21", "2026-06-21"},
		{"the 3rd of March", "2026-03-03", "2026-03-03"},
		{"since 2 November", "2026-11-02", "2026-11-02"},
		{"on December 24", "2025-12-24", "2025-12-24"},
		{"on 5th May", "2026-05-05", "2026-05-05"},
		{"on 2024-05-07", "2024-05-07", "2024-05-07"},
		{"on 7 May 2024", "2024-05-07", "2024-05-07"},
		{"on May 7, 2024", "2024-05-07", "2024-05-07"},
		{"in July 2023", "2023-07-01", "2023-07-31"},
		{"releases in 2024-05", "2024-05-01", "2024-05-31"},
		{"in March", "2026-03-01", "2026-03-31"},
		{"during 2022", "2022-01-01", "2022-12-31"},
		{"yesterday", "2026-11-17", "2026-11-17"},
		{"today", "2026-11-18", "2026-11-18"},
		{"the day before yesterday", "2026-11-16", "2026-11-16"},
		{"3 days ago", "2026-11-15", "2026-11-15"},
		{"two weeks ago", "2026-11-02", "2026-11-08"},
		{"a month ago", "2026-10-01", "2026-10-31"},
		{"last week", "2026-11-09", "2026-11-15"},
		{"last month", "2026-10-01", "2026-10-31"},
		{"last year", "2025-01-01", "2025-12-31"},
		{"on Monday", "2026-11-16", "2026-11-16"},
		{"last Friday", "2026-11-13", "2026-11-13"},
		{"2023年10月的第一个周末做了什么", "2023-10-07", "2023-10-08"},
		{"2023年10月第二个周末", "2023-10-14", "2023-10-15"},
		{"2023年8月的最后一周", "2023-08-25", "2023-08-31"},
		{"八月的最后一周我们做了什么", "2026-08-25", "2026-08-31"},
		{"2024年6月的第一周", "2024-06-01", "2024-06-07"},
		{"十月的第三个周末", "2026-10-17", "2026-10-18"},
		{"2023年6月21日之前的那个星期五", "2023-06-16", "2023-06-16"},
		{"2023年6月21日之后的周一", "2023-06-26", "2023-06-26"},
		{"2024年3月3日前的周末", "2024-02-24", "2024-02-25"},
		{"2024年3月3日以后的那个周末", "2024-03-09", "2024-03-10"},
		{"2023年10月初", "2023-10-01", "2023-10-10"},
		{"2023年10月中旬", "2023-10-11", "2023-10-20"},
		{"2023年10月下旬", "2023-10-21", "2023-10-31"},
		{"2024年2月底", "2024-02-21", "2024-02-29"},
		{"三月初发生了什么", "2026-03-01", "2026-03-10"},
		{"从2023年5月1日到2023年5月15日", "2023-05-01", "2023-05-15"},
		{"从2023年6月1日至2023年6月30日的记录", "2023-06-01", "2023-06-30"},
		{"上周末", "2026-11-14", "2026-11-15"},
		{"这周末", "2026-11-21", "2026-11-22"},
		{"2023年5月7日的会议", "2023-05-07", "2023-05-07"},
		{"六月21号", "2026-06-21", "2026-06-21"},
		{"2023年7月", "2023-07-01", "2023-07-31"},
		{"昨天", "2026-11-17", "2026-11-17"},
		{"前天", "2026-11-16", "2026-11-16"},
		{"上个月", "2026-10-01", "2026-10-31"},
		{"去年", "2025-01-01", "2025-12-31"},
		{"上周的会议", "2026-11-09", "2026-11-15"},
	} {
		spans, _ := datesIn(tc.q, now)
		if len(spans) != 1 {
			t.Errorf("datesIn(%q): %d spans %v, want one", tc.q, len(spans), spans)
			continue
		}
		if from, to := spans[0].days(); from != tc.from || to != tc.to {
			t.Errorf("datesIn(%q) = %s..%s, want %s..%s", tc.q, from, to, tc.from, tc.to)
		}
	}
}
