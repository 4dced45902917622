package query_test

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/query"
)

// cjkSentences make up a long message of mixed Japanese (kanji, hiragana,
// katakana) with a little Chinese and Latin, as a pasted document would.
var cjkSentences = []string{
	"日本語テキストの検索は難しいです。", "今日は天気が良いので散歩に行きました。", "このプログラムは日本語を処理します。",
	"東京と大阪の間を新幹線で移動する。", "データベースの移行手順を確認してください。", "私たちは日本の文化について話しました。",
	"漢字とひらがなとカタカナが混ざっています。", "検索エンジンの性能を改善する必要がある。", "中文文本也在这里出现。",
	"日本語の文章を読むのは楽しい。", "quokka migration step は完了しました。", "会議の議事録を共有します。",
}

// longCJK returns about n characters of cjkSentences in a fixed random order.
func longCJK(n int) string {
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for count := 0; count < n; {
		s := cjkSentences[r.IntN(len(cjkSentences))]
		b.WriteString(s)
		count += len([]rune(s))
	}
	return b.String()
}

// cjkEngine is an engine over a conversation whose answer is a message of
// 360,000 characters of Japanese, and one whose message repeats an English
// line 8,000 times.
func cjkEngine(tb testing.TB) *query.Engine {
	tb.Helper()
	day := time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)
	c := &conversation.Conversation{
		ID: "cjk", Source: "portable", Title: "日本語の会話", Date: day, File: "/fixtures/cjk.json",
		Messages: []conversation.Message{
			{Role: conversation.RoleUser, Content: "日本語テキストについて教えて", Timestamp: day},
			{Role: conversation.RoleAssistant, Content: longCJK(360000), Timestamp: day},
		},
	}
	c.Renumber()
	en := &conversation.Conversation{
		ID: "en", Source: "portable", Title: "A long log", Date: day, File: "/fixtures/en.json",
		Messages: []conversation.Message{
			{Role: conversation.RoleUser, Content: strings.Repeat("the worker ran out of memory again and again. ", 8000), Timestamp: day},
		},
	}
	en.Renumber()
	return engineOver(tb, query.Options{}, fileChanges(c, en)...)
}

// BenchmarkSearchCJK times Japanese queries over a long Japanese message,
// and a phrase of stop words over a long English one, grouped as the CLI
// and MCP search.
func BenchmarkSearchCJK(b *testing.B) {
	e := cjkEngine(b)
	for _, c := range []struct{ name, q string }{
		{"word", "日本語テキスト"},
		{"kanji", "日本語"},
		{"phrase", `"日本語"`},
		{"two", "日本"},
		{"latin", "quokka migration"},
		{"stopphrase", `"out of memory"`},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := query.Request{Query: c.q, Group: true, Limit: 20}
			for b.Loop() {
				if _, err := e.Search(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
