package main

import "testing"

func TestHitConversation(t *testing.T) {
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
		conv, msg, ok := hitConversation(tt.id)
		if conv != tt.conv || msg != tt.msg || ok != tt.ok {
			t.Errorf("hitConversation(%q) = %q, %d, %v; want %q, %d, %v", tt.id, conv, msg, ok, tt.conv, tt.msg, tt.ok)
		}
	}
}
