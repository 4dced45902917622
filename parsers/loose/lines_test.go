package loose

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestEachLine(t *testing.T) {
	long := strings.Repeat("x", 200<<10)
	in := "\xef\xbb\xbf{\"a\":1}\n\n" + long + "\nlast, no newline"
	var got []string
	var nums []int
	err := EachLine(context.Background(), "f.jsonl", strings.NewReader(in), func(n int, line []byte) {
		nums = append(nums, n)
		got = append(got, string(line))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"{\"a\":1}\n", "\n", long + "\n", "last, no newline"}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] || nums[i] != i+1 {
			t.Errorf("line %d: %d %.40q, want %d %.40q", i, nums[i], got[i], i+1, want[i])
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	err = EachLine(ctx, "f.jsonl", strings.NewReader("{}\n"), func(int, []byte) { called = true })
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "f.jsonl") || called {
		t.Errorf("cancelled: err %v, called %v; want context.Canceled naming the file, no line read", err, called)
	}
}
