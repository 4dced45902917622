package query

import (
	"fmt"
	"testing"

	"github.com/blevesearch/bleve/v2/registry"

	"github.com/convsearch/convsearch/indexer"
)

// A CJK run typed without a break is one word of its terms; anything else
// is a word a term, as the index's analyzer splits it.
func TestQueryWords(t *testing.T) {
	an, err := registry.NewCache().AnalyzerNamed(indexer.AnalyzerName)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ text, want string }{
		{"日本語", "[[日 本 語]]"},
		{"数据库", "[[数 据 库]]"},
		{"データベース", "[[データベース]]"},
		{"日本語のテキスト", "[[日 本 語 の テキスト]]"},
		{"人々", "[[人 々]]"},
		{"すごーい", "[[す ご ー い]]"},
		{"서울大學校", "[[서울 大 學 校]]"},
		{"데이터베이스", "[[데이터베이스]]"},
		// Punctuation, Latin letters or digits end a run.
		{"日本語、テスト", "[[日 本 語] [テスト]]"},
		{"日本語tutorial", "[[日 本 語] [tutori]]"},
		{"東京2025年", "[[東 京] [2025] [年]]"},
		// Words joined by a hyphen: each term its own word; a pasted
		// name, address or path: its parts in a row.
		{"e-mail", "[[e] [mail]]"},
		{"retry_policy", "[[retri polici]]"},
		{"127.0.0.1", "[[127 0 0 1]]"},
		{"src/app.ts", "[[src app ts]]"},
		{"jane.doe@example.com", "[[jane doe exampl com]]"},
		{"the", "[]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(queryWords(an, tt.text)); got != tt.want {
			t.Errorf("queryWords(%q) = %s, want %s", tt.text, got, tt.want)
		}
	}
}
