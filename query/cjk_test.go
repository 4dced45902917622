package query_test

import (
	"testing"

	"github.com/convsearch/convsearch/query"
)

// cjkEngineSmall is an engine over short messages in Japanese, Chinese and
// Korean, some holding a word and some only its characters apart.
func cjkEngineSmall(t *testing.T) *query.Engine {
	t.Helper()
	return engineOver(t, query.Options{}, fileChanges(
		chat("ja", "日本語の勉強を始めました。", "いいですね。"),
		chat("apart", "日曜日に本を読み、英語を勉強しました。", "すごい。"),
		chat("jatut", "I found a 日本語 tutorial for beginners.", "Share it!"),
		chat("tut", "Here is a tutorial for beginners on Go generics.", "Thanks."),
		chat("zh", "我们的数据库太慢了。", "加索引吧。"),
		chat("zhapart", "这些数字有根据，放在仓库里。", "好的。"),
		chat("ko", "서울大學校 도서관 데이터베이스 설계 수업이 좋았어요.", "좋네요."),
		chat("koapart", "서울에 있는 大學 근처 學校에 갔어요.", "그렇군요."),
	)...)
}

// A run of CJK characters typed without spaces is one word, its characters
// next to each other in order: 日本語 does not find 日, 本 and 語 apart, in
// a plain query or as one word of a question.
func TestCJKRunIsOneWord(t *testing.T) {
	e := cjkEngineSmall(t)
	tests := []messageCase{
		{"日本語", []string{"m:ja#0", "m:jatut#0"}},
		{`"日本語"`, []string{"m:ja#0", "m:jatut#0"}},
		{"日本語?", []string{"m:ja#0", "m:jatut#0"}},
		{"数据库", []string{"m:zh#0"}},
		// Hangul words are whole terms; with Hanja run on, one word still.
		{"서울大學校", []string{"m:ko#0"}},
		{"데이터베이스", []string{"m:ko#0"}},
		// Mixed: two words, both required.
		{"日本語 tutorial", []string{"m:jatut#0"}},
		{"tutorial 日本語", []string{"m:jatut#0"}},
		{"서울大學校 데이터베이스", []string{"m:ko#0"}},
		// No message holds both: ranked by either, still not found apart.
		{"日本語 generics", []string{"m:ja#0", "m:jatut#0", "m:tut#0"}},
		// A question: each run one optional word, none found apart.
		{"日本語 tutorial beginners", []string{"m:ja#0", "m:jatut#0", "m:tut#0"}},
		{"日本語 勉強 tutorial?", []string{"m:ja#0", "m:jatut#0", "m:tut#0", "m:apart#0"}},
		{"数据库 索引 慢", []string{"m:zh#0", "m:zh#1"}},
	}
	checkMessageHits(t, e, tests, true)
}

// A question with CJK words ranks the message holding them all first, and
// is relaxed only when none does.
func TestCJKQuestionRanks(t *testing.T) {
	e := cjkEngineSmall(t)
	tests := []firstCase{
		{"日本語 tutorial beginners", "jatut", false},
		{"日本語 tutorial 数据库", "jatut", true},
		{"서울大學校 데이터베이스 설계", "ko", false},
		// Latin questions as before.
		{"which tutorial on generics?", "tut", false},
	}
	checkFirstConversation(t, e, tests)
}
