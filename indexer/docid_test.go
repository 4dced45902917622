package indexer

import "testing"

func TestParseDocID(t *testing.T) {
	for _, tt := range []struct {
		id   string
		conv string
		msg  int
		ok   bool
	}{
		{"c/20250311-a7f126dc", "20250311-a7f126dc", -1, true},
		{"m/20250311-a7f126dc/7", "20250311-a7f126dc", 7, true},
		{"m/91098bc8-f2c4-427b-b71b-1e25efa2e871/0", "91098bc8-f2c4-427b-b71b-1e25efa2e871", 0, true},
		{"t/20250311-a7f126dc/retry-policy", "20250311-a7f126dc", -1, true},
		{"d/20250311-a7f126dc/2", "20250311-a7f126dc", -1, true},
		{"m/a/b/3", "a/b", 3, true}, // an id with a slash keeps it
		{"m/20250311-a7f126dc/x", "", -1, false},
		{"m/20250311-a7f126dc/-1", "", -1, false},
		{"m/20250311-a7f126dc", "", -1, false},
		{"m//3", "", -1, false},
		{"t/conv/", "", -1, false},
		{"c/", "", -1, false},
		{"x/conv/1", "", -1, false},
		{"20250311-a7f126dc", "", -1, false},
	} {
		conv, msg, ok := ParseDocID(tt.id)
		if conv != tt.conv || msg != tt.msg || ok != tt.ok {
			t.Errorf("ParseDocID(%q) = %q, %d, %v; want %q, %d, %v", tt.id, conv, msg, ok, tt.conv, tt.msg, tt.ok)
		}
	}
}

// TestParseDocIDRoundTrip reads back the ids the indexer writes.
func TestParseDocIDRoundTrip(t *testing.T) {
	for _, conv := range []string{"20250311-a7f126dc", "91098bc8-f2c4-427b-b71b-1e25efa2e871", "a/b", "x~1f2e"} {
		for id, msg := range map[string]int{
			ConversationDocID(conv):          -1,
			MessageDocID(conv, 12):           12,
			TopicDocID(conv, "retry-jitter"): -1,
			DecisionDocID(conv, 3):           -1,
		} {
			if c, m, ok := ParseDocID(id); !ok || c != conv || m != msg {
				t.Errorf("ParseDocID(%q) = %q, %d, %v; want %q, %d", id, c, m, ok, conv, msg)
			}
		}
	}
}

func TestDecisionNumber(t *testing.T) {
	for _, tt := range []struct {
		id   string
		want int
	}{
		{DecisionDocID("20250311-a7f126dc", 2), 2},
		{"d/a/b/0", 0},
		{"d/20250311-a7f126dc/x", -1},
		{"d/20250311-a7f126dc/-1", -1},
		{"m/20250311-a7f126dc/2", -1},
		{"t/20250311-a7f126dc/retry", -1},
		{"c/20250311-a7f126dc", -1},
		{"20250311-a7f126dc", -1},
	} {
		if got := DecisionNumber(tt.id); got != tt.want {
			t.Errorf("DecisionNumber(%q) = %d, want %d", tt.id, got, tt.want)
		}
	}
}
